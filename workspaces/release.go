package workspaces

import (
	"context"
	"errors"
	"os"
)

// Release removes ws's worktree and metadata. The branch stays in the mirror
// (and on the remote if it was pushed), so preparing the thread again
// continues its work. Releasing a workspace that is already gone is not an
// error.
func (m *Manager) Release(ctx context.Context, ws *Workspace) error {
	unlock, err := m.threadLocks.lock(ctx, ws.ID)
	if err != nil {
		return err
	}
	defer unlock()
	if err := m.releaseLocked(ctx, ws.ID, ws.Repo); err != nil {
		return err
	}
	m.log.Info("workspaces: released", "repo", ws.Repo, "thread", ws.ThreadID, "branch", ws.Branch)
	return nil
}

// releaseLocked removes workspace id of repoName: worktree first, then its
// record in the mirror, then the metadata, so a crash at any point leaves
// something the next GC or Prepare recognises and finishes. The caller holds
// the thread lock.
func (m *Manager) releaseLocked(ctx context.Context, id, repoName string) error {
	r := m.repoOrBare(repoName)
	unlock, err := m.repoLocks.lock(ctx, r.Name)
	if err != nil {
		return err
	}
	defer unlock()
	path := m.threadPath(id)
	if _, err := os.Stat(path); err == nil && m.mirrorExists(r.Name) {
		if _, err := m.git(ctx, r, m.mirrorPath(r.Name), "worktree", "remove", "--force", path); err != nil {
			m.log.Warn("workspaces: worktree remove failed, deleting the directory", "path", path, "err", err)
		}
	}
	if err := os.RemoveAll(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if m.mirrorExists(r.Name) {
		if _, err := m.git(ctx, r, m.mirrorPath(r.Name), "worktree", "prune"); err != nil {
			return err
		}
	}
	return m.removeMeta(id)
}

// repoOrBare returns the configured repo of that name, or one with only the
// name, enough to clean up after a repo that was removed from the config.
func (m *Manager) repoOrBare(name string) Repo {
	if r, ok := m.repos[name]; ok {
		return r
	}
	return Repo{Name: name}
}
