package bots

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/teams/workspaces"
)

// land commits the turn's changes to the thread's branch, pushes it when
// the repo can be pushed, and opens or updates the pull request when the
// repo asks for it or one exists. It returns a footer for the thread
// ("" when nothing changed); failures are reported in it, never hidden.
func (g *Gateway) land(ctx context.Context, t *thread, ev Event, task string) string {
	t.mu.Lock()
	ws, b := t.ws, t.binding
	t.mu.Unlock()
	if ws == nil {
		return ""
	}
	res, err := g.opts.Workspaces.Commit(ctx, ws, commitMessage(task, t.key, ev.User), workspaces.Author{Name: ev.User.Name})
	if err != nil {
		g.log.Error("commit failed", "thread", t.key, "err", err)
		return "\n\n⚠️ I could not commit the changes: " + err.Error() + ". They are still in the workspace; say `pr` to try again."
	}
	if !res.Committed {
		return ""
	}
	footer := fmt.Sprintf("\n\n📝 %s on `%s`", diffStatLine(res), b.Branch)
	repo := g.repoInfo(b.Repo)
	if !repo.CanPush {
		return footer + " (committed locally; this repo has no push credentials)"
	}
	if err := g.opts.Workspaces.Push(ctx, ws); err != nil {
		g.log.Error("push failed", "thread", t.key, "err", err)
		return footer + "\n⚠️ Push failed: " + err.Error()
	}
	footer += ", pushed"
	if !repo.AutoPR && b.PRURL == "" {
		return footer + ". Say `pr` to open a pull request."
	}
	url, err := g.openPR(ctx, t, ws, task)
	switch {
	case errors.Is(err, workspaces.ErrNoForge):
		return footer + "."
	case err != nil:
		return footer + "\n⚠️ Could not open the pull request: " + err.Error()
	}
	return footer + ". PR: " + url
}

// openPR opens or updates the thread's pull request and remembers its URL.
func (g *Gateway) openPR(ctx context.Context, t *thread, ws *workspaces.Workspace, task string) (string, error) {
	t.mu.Lock()
	key := t.key
	t.mu.Unlock()
	title := firstLine(task, 72)
	body := "Opened by Reasonix from a chat thread (`" + key + "`).\n\nTask:\n\n> " + strings.ReplaceAll(strings.TrimSpace(task), "\n", "\n> ")
	url, err := g.opts.Workspaces.OpenPR(ctx, ws, title, body)
	if err != nil {
		return "", err
	}
	_ = t.save(ctx, func(b *Binding) { b.PRURL = url })
	return url, nil
}

func (g *Gateway) repoInfo(name string) RepoInfo {
	for _, r := range g.opts.Repos {
		if r.Name == name {
			return r
		}
	}
	return RepoInfo{Name: name}
}

func commitMessage(task, threadKey string, by User) string {
	return "reasonix: " + firstLine(task, 60) + "\n\nRequested by " + nonEmpty(by.Name, by.ID) + " in " + threadKey + "."
}

func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return clipRunes(s, max)
}
