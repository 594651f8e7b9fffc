package workspaces

import (
	"context"
	"errors"
	"fmt"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// pushRemoteName names the in-memory remote Push uses; it is never saved.
const pushRemoteName = "reasonix-push"

// Push publishes the thread branch to the repository's real remote (the
// URL in Repo, not the mirror) under the same name. It never forces: a
// branch moved on the remote by someone else is a *PushError of
// KindRejected.
//
// The branch ref itself lives in the mirror, which the worktree shares, so
// later worktrees see the pushed commits without a fetch.
func (m *Manager) Push(ctx context.Context, ws *Workspace) error {
	unlock, err := m.threadLocks.lock(ctx, ws.ID)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := m.current(ws)
	if err != nil {
		return err
	}
	r, err := m.repo(cur.Repo)
	if err != nil {
		return err
	}
	spec := "refs/heads/" + cur.Branch + ":refs/heads/" + cur.Branch
	start := time.Now()
	if isHTTPURL(r.URL) {
		err = m.pushInProcess(ctx, r, cur.Path, spec)
	} else {
		// file://, local paths and ssh go through the CLI: go-git's file
		// transport runs git-receive-pack anyway, and the CLI uses the
		// operator's ssh setup.
		_, err = m.git(ctx, r, cur.Path, "push", "--quiet", r.URL, spec)
	}
	if err != nil {
		return &PushError{Repo: r.Name, Branch: cur.Branch, Kind: classify(err), Err: scrubErr(err, r.Token)}
	}
	m.log.Info("workspaces: pushed", "repo", r.Name, "thread", cur.ThreadID, "branch", cur.Branch,
		"took", time.Since(start).Round(time.Millisecond))
	return m.touch(cur)
}

// pushInProcess pushes with go-git over http(s), the token as the password
// of a basic-auth pair. The full refspec matters: a HEAD:refs/heads/x
// refspec makes go-git push nothing.
func (m *Manager) pushInProcess(ctx context.Context, r Repo, path, spec string) error {
	repo, err := openWorktree(path)
	if err != nil {
		return err
	}
	// An anonymous remote: the mirror's own "origin" entry is not consulted
	// and no URL is written anywhere.
	remote := git.NewRemote(repo.Storer, &config.RemoteConfig{Name: pushRemoteName, URLs: []string{r.URL}})
	var auth transport.AuthMethod
	if r.Token != "" {
		auth = &githttp.BasicAuth{Username: tokenUser, Password: r.Token}
	}
	err = remote.PushContext(ctx, &git.PushOptions{
		RemoteName: pushRemoteName,
		RefSpecs:   []config.RefSpec{config.RefSpec(spec)},
		Auth:       auth,
	})
	if errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil
	}
	return err
}

// scrubErr returns err, or an error with the same text minus the token if
// the token somehow made it into the message.
func scrubErr(err error, token string) error {
	if err == nil || token == "" {
		return err
	}
	if s := err.Error(); scrub(s, token) != s {
		return fmt.Errorf("%s", scrub(s, token))
	}
	return err
}
