package bots

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// recover restores state after a start: every thread binding comes back
// (sessions reopen lazily at the thread's next message), threads whose
// turn was cut are told, and approvals left pending are expired.
func (g *Gateway) recover(ctx context.Context) error {
	bindings, err := g.opts.Store.ListBindings(ctx)
	if err != nil {
		return fmt.Errorf("bots: load thread bindings: %w", err)
	}
	for _, b := range bindings {
		if _, ok := g.adapter(b.Ref.Platform); !ok {
			continue // a platform not enabled in this process
		}
		// The revision stays unknown (0) until the thread's first save,
		// which re-reads it on the resulting conflict: start-up reads the
		// bindings once, not once more each.
		t := g.threadFor(b.Ref, true)
		t.mu.Lock()
		t.binding = b
		t.mu.Unlock()
		if b.Running {
			g.tellInterrupted(ctx, t, b)
		}
	}
	pending, err := g.opts.Store.PendingApprovals(ctx)
	if err != nil {
		return fmt.Errorf("bots: load pending approvals: %w", err)
	}
	for _, a := range pending {
		g.expireApproval(ctx, a)
	}
	return nil
}

func (g *Gateway) tellInterrupted(ctx context.Context, t *thread, b Binding) {
	a, _ := g.adapter(b.Ref.Platform)
	if b.CardID != "" {
		c := Card{Task: nonEmpty(b.Task, "(interrupted turn)"), Repo: b.Repo, Branch: b.Branch, Phase: PhaseInterrupted, Error: "the bot restarted during this turn"}
		_ = updateWithRetry(ctx, a, b.Ref, b.CardID, c.Render(a.Limits().MaxText))
	}
	g.react(ctx, b.Ref, b.TriggerID, "eyes", false)
	g.react(ctx, b.Ref, b.TriggerID, "x", true)
	g.reply(ctx, b.Ref, "⚠️ I was restarted while working here, so the turn in progress was cut short; its work so far is kept in the workspace and the session. A message that had not been picked up yet is processed now; if nothing happens, send it again.")
	if err := t.save(ctx, func(b *Binding) { b.Running, b.Updated = false, time.Now().UTC() }); err != nil {
		g.log.Warn("could not clear the running flag", "thread", b.Key, "err", err)
	}
}

func (g *Gateway) expireApproval(ctx context.Context, ap Approval) {
	_, err := g.opts.Store.ResolveApproval(ctx, ap.ID, ApprovalExpired, User{Name: "restart"}, "the bot restarted")
	if err != nil && !errors.Is(err, ErrConflict) {
		g.log.Warn("could not expire an approval", "id", ap.ID, "err", err)
		return
	}
	a, ok := g.adapter(ap.Ref.Platform)
	if !ok {
		return
	}
	if ap.MessageID != "" {
		_ = updateWithRetry(ctx, a, ap.Ref, ap.MessageID, Message{Text: "`" + ap.Tool + "`: " + previewLine(ap.Subject) + "\n⌛ Expired: the bot restarted before anyone answered. The agent was not allowed to run it."})
	}
	g.reply(ctx, ap.Ref, "An approval request expired because the bot restarted. Ask again if the work should continue.")
}
