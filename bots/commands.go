package bots

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/teams/workspaces"
)

func (g *Gateway) commandStop(ctx context.Context, t *thread, ev Event) {
	stopped, dropped := t.stop()
	switch {
	case !stopped:
		g.reply(ctx, t.ref, "Nothing is running in this thread.")
		return
	case len(dropped) > 0:
		for _, d := range dropped {
			g.react(ctx, d.Ref, d.MessageID, "eyes", false)
			g.react(ctx, d.Ref, d.MessageID, "x", true)
		}
		g.reply(ctx, t.ref, fmt.Sprintf("Stopping… (and dropped %d queued message(s); send them again if you still want them)", len(dropped)))
	default:
		g.reply(ctx, t.ref, "Stopping…")
	}
	_ = t.save(ctx, func(b *Binding) { b.Running = t.waiting > 0 || (t.ctrl != nil && t.ctrl.Busy()) })
}

func (g *Gateway) commandStatus(ctx context.Context, t *thread) {
	t.mu.Lock()
	b, ctrl, waiting := t.binding, t.ctrl, t.waiting
	t.mu.Unlock()
	if b.Repo == "" {
		g.reply(ctx, t.ref, "This thread has no session yet. Mention me with a task to start one.")
		return
	}
	var s strings.Builder
	fmt.Fprintf(&s, "**Status** · repo `%s` · branch `%s` (from `%s`)\n", b.Repo, b.Branch, b.Base)
	fmt.Fprintf(&s, "workspace `%s` · session `%s` · %d turn(s)\n", b.Workspace, b.SessionID, b.Turns)
	if ctrl != nil {
		tot := ctrl.Session().Totals()
		fmt.Fprintf(&s, "tokens %d in (%.0f%% cache hit) · %d out · $%.4f over %d requests\n",
			tot.Usage.PromptTokens, 100*tot.Usage.HitRatio(), tot.Usage.CompletionTokens, tot.Cost, tot.Requests)
	}
	switch {
	case ctrl != nil && ctrl.Busy():
		s.WriteString("running now")
	case waiting > 0:
		fmt.Fprintf(&s, "queued (%d waiting for a slot overall)", g.limiter.queued())
	default:
		s.WriteString("idle")
	}
	if b.PRURL != "" {
		s.WriteString("\nPR: " + b.PRURL)
	}
	g.reply(ctx, t.ref, s.String())
}

// commandDiff posts the branch's diff, as a file when it is long.
func (g *Gateway) commandDiff(ctx context.Context, t *thread) {
	ws, err := t.workspace(ctx)
	if err != nil {
		g.reply(ctx, t.ref, plainError(err))
		return
	}
	if ws == nil {
		g.reply(ctx, t.ref, "This thread has no workspace yet.")
		return
	}
	diff, err := g.opts.Workspaces.Diff(ctx, ws)
	switch {
	case err != nil:
		g.reply(ctx, t.ref, "❌ Could not compute the diff: "+err.Error())
		return
	case strings.TrimSpace(diff) == "":
		g.reply(ctx, t.ref, "No changes yet.")
		return
	}
	a, _ := g.adapter(t.ref.Platform)
	if up, ok := a.(Uploader); ok && len(diff) > 1500 {
		if err := up.Upload(ctx, t.ref, "changes.diff", []byte(diff), "The changes on `"+ws.Branch+"`"); err == nil {
			return
		}
	}
	g.reply(ctx, t.ref, "```diff\n"+strings.ReplaceAll(diff, "```", "`\u200b``")+"\n```")
}

// commandPR commits, pushes and opens or updates the pull request.
func (g *Gateway) commandPR(ctx context.Context, t *thread, ev Event) {
	ws, err := t.workspace(ctx)
	if err != nil {
		g.reply(ctx, t.ref, plainError(err))
		return
	}
	if ws == nil {
		g.reply(ctx, t.ref, "This thread has no workspace yet; give me a task first.")
		return
	}
	t.mu.Lock()
	b := t.binding
	t.mu.Unlock()
	res, err := g.opts.Workspaces.Commit(ctx, ws, commitMessage("changes from the chat thread", t.key, ev.User), workspaces.Author{Name: ev.User.Name})
	if err != nil {
		g.reply(ctx, t.ref, "❌ Commit failed: "+err.Error())
		return
	}
	if res.Committed {
		g.reply(ctx, t.ref, "📝 Committed: "+diffStatLine(res))
	}
	if !g.repoInfo(b.Repo).CanPush {
		g.reply(ctx, t.ref, "This repo has no push credentials configured (token_env), so the branch stays local.")
		return
	}
	if err := g.opts.Workspaces.Push(ctx, ws); err != nil {
		g.reply(ctx, t.ref, "❌ Push failed: "+err.Error())
		return
	}
	url, err := g.openPR(ctx, t, ws, "Reasonix: "+b.Branch)
	switch {
	case errors.Is(err, workspaces.ErrNoForge):
		g.reply(ctx, t.ref, "Pushed `"+ws.Branch+"`. This repo has no forge configured (forge = \"none\"), so open the pull request by hand.")
	case err != nil:
		g.reply(ctx, t.ref, "Pushed `"+ws.Branch+"`, but the pull request failed: "+err.Error())
	default:
		g.reply(ctx, t.ref, "Pull request: "+url)
	}
}

// commandNew closes the session and gives the thread a fresh workspace on
// a new branch at its next message. The old branch stays.
func (g *Gateway) commandNew(ctx context.Context, t *thread, ev Event) {
	t.closeSession()
	t.mu.Lock()
	t.binding.Generation++
	old := t.binding.Branch
	t.ws = nil
	t.binding.SessionID, t.binding.Workspace, t.binding.Branch, t.binding.PRURL = "", "", "", ""
	t.mu.Unlock()
	_ = t.save(ctx, func(*Binding) {})
	msg := "Started over: the next message here opens a fresh session on a new branch."
	if old != "" {
		msg += " The previous work stays on `" + old + "`."
	}
	g.reply(ctx, t.ref, msg)
}

// handleSlashCommand answers /reasonix help|status|repos privately.
func (g *Gateway) handleSlashCommand(ctx context.Context, ev Event) {
	if !g.opts.Access.MayUse(ev.Ref, ev.User) {
		g.notifyUser(ctx, ev, "Sorry, you are not on the list of people who can use Reasonix here.")
		return
	}
	switch strings.ToLower(strings.TrimSpace(ev.Text)) {
	case "repos":
		var s strings.Builder
		s.WriteString("Repositories I can work on:")
		for _, r := range g.opts.Repos {
			fmt.Fprintf(&s, "\n• `%s` (base `%s`)", r.Name, r.DefaultBranch)
		}
		if len(g.opts.Repos) == 0 {
			s.WriteString(" none configured yet.")
		}
		g.notifyUser(ctx, ev, s.String())
	case "status":
		g.notifyUser(ctx, ev, g.userStatus(ev.User, ev.Ref.Platform))
	default:
		g.notifyUser(ctx, ev, helpText)
	}
}

// userStatus lists the caller's threads and the bot's load.
func (g *Gateway) userStatus(u User, platform string) string {
	g.mu.Lock()
	threads := make([]*thread, 0, len(g.threads))
	for _, t := range g.threads {
		threads = append(threads, t)
	}
	g.mu.Unlock()
	var mine []string
	running := 0
	for _, t := range threads {
		t.mu.Lock()
		b, busy := t.binding, t.ctrl != nil && t.ctrl.Busy()
		t.mu.Unlock()
		if busy {
			running++
		}
		if b.Requester.ID == u.ID && t.ref.Platform == platform && b.Repo != "" {
			state := "idle"
			if busy {
				state = "running"
			}
			mine = append(mine, fmt.Sprintf("• `%s` on `%s` — %s", b.Repo, b.Branch, state))
		}
	}
	s := fmt.Sprintf("Reasonix is up: %d turn(s) running, %d queued.", running, g.limiter.queued())
	if len(mine) > 0 {
		s += "\nYour threads:\n" + strings.Join(mine, "\n")
	}
	return s
}
