package bots

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
)

// Button action ids of an approval message. The button value is the
// approval id; the decision is looked up server-side, never trusted from
// the payload.
const (
	ActionApprove       = "reasonix.approve"
	ActionApproveThread = "reasonix.approve_thread"
	ActionDeny          = "reasonix.deny"
)

// pendingApproval is an approval message waiting for a press.
type pendingApproval struct {
	thread *thread
	record Approval
}

// approvalIndex finds pending approvals by id.
type approvalIndex struct {
	mu   sync.Mutex // guards byID
	byID map[string]*pendingApproval
}

func (x *approvalIndex) put(p *pendingApproval) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.byID == nil {
		x.byID = map[string]*pendingApproval{}
	}
	x.byID[p.record.ID] = p
}

// get returns the thread and a copy of the record.
func (x *approvalIndex) get(id string) (*thread, Approval, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	p, ok := x.byID[id]
	if !ok {
		return nil, Approval{}, false
	}
	return p.thread, p.record, true
}

// setMessage records the id of the approval's message once it is posted.
func (x *approvalIndex) setMessage(id, messageID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if p, ok := x.byID[id]; ok {
		p.record.MessageID = messageID
	}
}

func (x *approvalIndex) remove(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.byID, id)
}

// maxPreview bounds, in characters, the command or change shown in an
// approval message.
const maxPreview = 1500

// askApproval posts the approval message with its buttons and records it.
func (g *Gateway) askApproval(ctx context.Context, t *thread, a Adapter, ev Event, req event.ApprovalRequest) {
	t.mu.Lock()
	requester := t.binding.Requester
	t.mu.Unlock()
	rec := Approval{
		ID: req.ID, ThreadKey: t.key, Ref: t.ref, Tool: req.Tool, Subject: req.Subject, Rule: req.Rule,
		Scope: req.Scope, Requester: requester, Created: time.Now().UTC(), Deadline: req.Deadline, State: ApprovalPending,
	}
	// Record and index it before the buttons can be seen, so no press can
	// find it missing; without a durable record nobody could approve it.
	if err := g.opts.Store.PutApproval(ctx, rec); err != nil {
		g.log.Error("could not record an approval request; denying it", "thread", t.key, "err", err)
		g.reply(ctx, t.ref, "❌ I could not record an approval request (state store error), so the agent was told it was denied.")
		t.resolveController(req.ID, permission.Answer{Choice: permission.DenyIt, By: "reasonix", Reason: "the approval request could not be recorded"})
		return
	}
	g.approvals.put(&pendingApproval{thread: t, record: rec})
	msg := Message{Text: approvalText(rec, req.Args), Buttons: approvalButtons(rec)}
	id, err := postWithRetry(ctx, a, t.ref, msg)
	if err != nil {
		g.log.Error("could not post an approval request; denying it", "thread", t.key, "err", err)
		t.resolveController(req.ID, permission.Answer{Choice: permission.DenyIt, By: "reasonix", Reason: "the approval request could not be shown in the chat"})
		return
	}
	g.approvals.setMessage(rec.ID, id)
	rec.MessageID = id
	if err := g.opts.Store.PutApproval(ctx, rec); err != nil && !errors.Is(err, ErrConflict) {
		// The first record stands (a conflict means it was already decided);
		// only a restart's expiry notice loses the message id.
		g.log.Warn("could not record the approval message id", "thread", t.key, "err", err)
	}
}

func approvalText(rec Approval, args string) string {
	var b strings.Builder
	b.WriteString("🔐 **Approval needed** — the agent wants to run `" + rec.Tool + "`:\n")
	subject := clipRunes(rec.Subject, maxPreview)
	b.WriteString("```\n" + strings.ReplaceAll(subject, "```", "`\u200b``") + "\n```\n")
	if p := changePreview(rec.Tool, args); p != "" {
		b.WriteString("```diff\n" + p + "\n```\n")
	}
	b.WriteString("Why: " + rec.Rule + "\n")
	if rec.Scope != "" {
		b.WriteString("“Approve for this thread” allows `" + strings.ReplaceAll(rec.Scope, "\n", "` and `") + "` for the rest of this thread.\n")
	}
	if !rec.Deadline.IsZero() {
		b.WriteString(fmt.Sprintf("Denied automatically if nobody answers by %s UTC.", rec.Deadline.UTC().Format("15:04")))
	}
	return b.String()
}

// changePreview shows what a file edit would change, as diff lines,
// bounded; "" for other tools.
func changePreview(tool, args string) string {
	var a struct {
		Path      string `json:"path"`
		Content   string `json:"content"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return ""
	}
	var b strings.Builder
	prefixed := func(sign, text string) {
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			b.WriteString(sign + line + "\n")
		}
	}
	switch tool {
	case "edit_file":
		prefixed("-", a.OldString)
		prefixed("+", a.NewString)
	case "write_file":
		prefixed("+", a.Content)
	default:
		return ""
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if n := utf8.RuneCountInString(out); n > maxPreview {
		out = clipRunes(out, maxPreview) + "\n(" + fmt.Sprint(n-maxPreview) + " more characters)"
	}
	return strings.ReplaceAll(out, "```", "`\u200b``")
}

func approvalButtons(rec Approval) []Button {
	buttons := []Button{{ActionID: ActionApprove, Label: "Approve once", Value: rec.ID, Style: StylePrimary}}
	if rec.Scope != "" {
		buttons = append(buttons, Button{ActionID: ActionApproveThread, Label: "Approve for this thread", Value: rec.ID})
	}
	return append(buttons, Button{ActionID: ActionDeny, Label: "Deny", Value: rec.ID, Style: StyleDanger})
}

// decidePress checks who pressed and resolves the approval exactly once.
// It runs in inbox order (presses are decided in the order they arrived)
// and returns a notice for the presser, or "" when there is none.
func (g *Gateway) decidePress(ctx context.Context, ev Event) string {
	var state ApprovalState
	var choice permission.Choice
	switch ev.ActionID {
	case ActionApprove:
		state, choice = ApprovalApproved, permission.ApproveOnce
	case ActionApproveThread:
		state, choice = ApprovalSession, permission.ApproveSession
	case ActionDeny:
		state, choice = ApprovalDenied, permission.DenyIt
	default:
		g.log.Debug("press on an unknown action ignored", "action", ev.ActionID)
		return ""
	}
	t, pending, ok := g.approvals.get(ev.Value)
	if !ok {
		return "This approval is no longer pending."
	}
	if !g.opts.Access.MayApprove(ev.Ref.Platform, ev.User, pending.Requester) {
		return "You can't decide this one: approvals in this thread are for " + g.opts.Access.approverHint(pending.Requester) + ". It is still waiting for them."
	}
	rec, err := g.opts.Store.ResolveApproval(ctx, pending.ID, state, ev.User, "")
	switch {
	case errors.Is(err, ErrConflict):
		return "Someone already decided this one."
	case errors.Is(err, ErrNotFound):
		return "This approval is no longer pending."
	case err != nil:
		g.log.Error("could not record an approval decision", "id", pending.ID, "err", err)
		return "I could not record your decision (state store error); please press again."
	}
	answer := permission.Answer{Choice: choice, By: nonEmpty(ev.User.Name, ev.User.ID)}
	if !t.resolveController(rec.ID, answer) {
		return "This approval is no longer pending."
	}
	return ""
}

// resolveController passes an answer to the thread's running controller.
func (t *thread) resolveController(id string, ans permission.Answer) bool {
	t.mu.Lock()
	ctrl := t.ctrl
	t.mu.Unlock()
	return ctrl != nil && ctrl.Resolve(id, ans) == nil
}

// approvalResolved edits the approval message to say who decided what and
// removes its buttons; a timeout is also told in the thread.
func (g *Gateway) approvalResolved(ctx context.Context, t *thread, res event.ApprovalResolved) {
	_, rec, ok := g.approvals.get(res.ID)
	if !ok {
		return
	}
	g.approvals.remove(res.ID)
	verdict := ""
	switch {
	case res.Answer.By == "timeout":
		verdict = "⌛ Nobody answered in time, so it was denied."
		if _, err := g.opts.Store.ResolveApproval(ctx, rec.ID, ApprovalExpired, User{Name: "timeout"}, "timed out"); err != nil && !errors.Is(err, ErrConflict) {
			g.log.Warn("could not record an approval timeout", "id", rec.ID, "err", err)
		}
		g.reply(ctx, t.ref, "An approval request timed out and was denied; the agent was told.")
	case res.Answer.By == "reasonix":
		verdict = "⛔ Denied: " + res.Answer.Reason + "."
		_, _ = g.opts.Store.ResolveApproval(ctx, rec.ID, ApprovalDenied, User{Name: "reasonix"}, res.Answer.Reason)
	case res.Answer.By == "cancel":
		verdict = "⏹ The turn was stopped before anyone answered."
		_, _ = g.opts.Store.ResolveApproval(ctx, rec.ID, ApprovalExpired, User{Name: "stop"}, "turn stopped")
	case res.Answer.Choice == permission.ApproveSession:
		verdict = "✅ Approved for this thread by " + res.Answer.By + "."
	case res.Answer.Choice == permission.ApproveOnce:
		verdict = "✅ Approved once by " + res.Answer.By + "."
	default:
		verdict = "⛔ Denied by " + res.Answer.By + "."
	}
	a, ok := g.adapter(rec.Ref.Platform)
	if !ok || rec.MessageID == "" {
		return
	}
	text := "`" + rec.Tool + "`: " + previewLine(rec.Subject) + "\n" + verdict
	if err := updateWithRetry(ctx, a, rec.Ref, rec.MessageID, Message{Text: text}); err != nil {
		g.log.Warn("could not update an approval message", "id", rec.ID, "err", err)
	}
}

func previewLine(s string) string {
	s = clipRunes(strings.Join(strings.Fields(s), " "), 200)
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
