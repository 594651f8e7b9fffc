package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// cleanupTimeout bounds the rollback of a failed or cancelled operation,
// which runs even when the caller's context is done.
const cleanupTimeout = time.Minute

// Prepare returns the workspace of threadID in repoName, creating it if
// needed: a worktree under Dir/threads/<id> on branch reasonix/<id>, started
// from the newest commit of base (the repo's default branch when empty).
//
// Preparing a thread that has a workspace returns it (base is then ignored)
// and marks it used. If the thread's branch survives from an earlier,
// released workspace and holds commits of its own, the new worktree
// continues it. A failed Prepare leaves nothing behind and returns a
// *PrepareError; an unknown repo name returns an error wrapping
// ErrUnknownRepo.
func (m *Manager) Prepare(ctx context.Context, repoName, threadID, base string) (*Workspace, error) {
	r, err := m.repo(repoName)
	if err != nil {
		return nil, err
	}
	if threadID == "" {
		return nil, errors.New("workspaces: empty thread id")
	}
	if base == "" {
		base = r.DefaultBranch
	}
	id := ShortID(threadID)
	unlock, err := m.threadLocks.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	defer unlock()

	ws, err := m.existing(id, threadID, r.Name)
	if err != nil || ws != nil {
		return ws, err
	}
	ws, err = m.create(ctx, r, id, threadID, base)
	if err != nil {
		return nil, err
	}
	m.log.Info("workspaces: prepared", "repo", r.Name, "thread", threadID, "branch", ws.Branch, "path", ws.Path)
	return ws, nil
}

// existing returns the thread's workspace if it is intact, nil if it must
// be (re)created. The caller holds the thread lock.
func (m *Manager) existing(id, threadID, repo string) (*Workspace, error) {
	ws, err := m.loadMeta(id)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		m.log.Warn("workspaces: unreadable metadata, recreating workspace", "thread", threadID, "err", err)
		return nil, nil
	}
	if ws.ThreadID != threadID {
		return nil, &PrepareError{Repo: repo, Stage: "existing", Kind: KindOther,
			Err: fmt.Errorf("workspace id %s is already used by thread %q", id, ws.ThreadID)}
	}
	if ws.Repo != repo {
		return nil, &PrepareError{Repo: repo, Stage: "existing", Kind: KindOther,
			Err: fmt.Errorf("thread already has a workspace of repo %s; release it first", ws.Repo)}
	}
	if !worktreeIntact(ws.Path) {
		m.log.Warn("workspaces: damaged workspace, recreating", "thread", threadID, "path", ws.Path)
		return nil, nil
	}
	if err := m.touch(ws); err != nil {
		return nil, err
	}
	return ws, nil
}

// worktreeIntact reports whether path is a worktree whose admin directory
// in the mirror still exists.
func worktreeIntact(path string) bool {
	b, err := os.ReadFile(filepath.Join(path, ".git"))
	if err != nil {
		return false
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return false
	}
	_, err = os.Stat(filepath.Join(gitdir, "HEAD"))
	return err == nil
}

// create makes a new workspace. The caller holds the thread lock.
func (m *Manager) create(ctx context.Context, r Repo, id, threadID, base string) (*Workspace, error) {
	ws := &Workspace{
		ID:       id,
		ThreadID: threadID,
		Repo:     r.Name,
		Branch:   BranchPrefix + id,
		Path:     m.threadPath(id),
		Base:     base,
	}
	createdBranch, err := m.addWorktree(ctx, r, ws)
	if err != nil {
		return nil, err
	}
	fail := func(stage string, err error) (*Workspace, error) {
		m.rollback(ctx, r, ws, createdBranch)
		return nil, &PrepareError{Repo: r.Name, Stage: stage, Kind: classify(err), Err: err}
	}
	if r.Setup != "" {
		if err := m.runSetup(ctx, r, ws.Path); err != nil {
			m.rollback(ctx, r, ws, createdBranch)
			return nil, &PrepareError{Repo: r.Name, Stage: "setup", Kind: KindOther, Err: err}
		}
	}
	ws.Created = time.Now().UTC()
	ws.LastUsed = ws.Created
	if err := m.saveMeta(ws); err != nil {
		return fail("metadata", err)
	}
	return ws, nil
}

// addWorktree syncs the mirror and adds the worktree, holding the repo lock.
// It reports whether it created the thread branch (as opposed to reusing it).
func (m *Manager) addWorktree(ctx context.Context, r Repo, ws *Workspace) (createdBranch bool, err error) {
	unlock, err := m.repoLocks.lock(ctx, r.Name)
	if err != nil {
		return false, err
	}
	defer unlock()
	fail := func(stage string, kind Kind, err error) (bool, error) {
		if kind == "" {
			kind = classify(err)
		}
		return false, &PrepareError{Repo: r.Name, Stage: stage, Kind: kind, Err: err}
	}

	// Leftovers of an interrupted Prepare or Release: a directory without
	// metadata, metadata without a directory, stale worktree records.
	if err := m.clearLeftoversLocked(ctx, r, ws.ID); err != nil {
		return fail("cleanup", "", err)
	}
	if stage, err := m.syncMirrorLocked(ctx, r); err != nil {
		return fail(stage, "", err)
	}
	mirror := m.mirrorPath(r.Name)
	baseCommit, ok := m.resolve(ctx, r, "refs/heads/"+ws.Base)
	if !ok {
		return fail("worktree", KindUnknownBranch, fmt.Errorf("base branch %q does not exist in %s", ws.Base, r.Name))
	}
	ws.BaseCommit = baseCommit

	args := []string{"worktree", "add", "--quiet", "-b", ws.Branch, ws.Path, baseCommit}
	createdBranch = true
	if tip, exists := m.resolve(ctx, r, "refs/heads/"+ws.Branch); exists {
		createdBranch = false
		if _, err := m.git(ctx, r, mirror, "merge-base", "--is-ancestor", tip, baseCommit); err == nil {
			// Nothing of its own (a leftover of a failed start): restart it
			// from the newest base.
			args = []string{"worktree", "add", "--quiet", "-B", ws.Branch, ws.Path, baseCommit}
		} else {
			// The thread's earlier work: continue it.
			args = []string{"worktree", "add", "--quiet", ws.Path, ws.Branch}
			if out, err := m.git(ctx, r, mirror, "merge-base", tip, baseCommit); err == nil {
				ws.BaseCommit = strings.TrimSpace(string(out))
			}
		}
	}
	if _, err := m.git(ctx, r, mirror, args...); err != nil {
		m.rollbackLocked(ctx, r, ws, createdBranch)
		return fail("worktree", "", err)
	}
	return createdBranch, nil
}

// resolve returns the commit ref points to in r's mirror.
func (m *Manager) resolve(ctx context.Context, r Repo, ref string) (string, bool) {
	out, err := m.git(ctx, r, m.mirrorPath(r.Name), "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// clearLeftoversLocked removes what an interrupted operation may have left
// for workspace id. The caller holds the thread and repo locks.
func (m *Manager) clearLeftoversLocked(ctx context.Context, r Repo, id string) error {
	if err := m.removeMeta(id); err != nil {
		return err
	}
	if err := os.RemoveAll(m.threadPath(id)); err != nil {
		return err
	}
	if m.mirrorExists(r.Name) {
		if _, err := m.git(ctx, r, m.mirrorPath(r.Name), "worktree", "prune"); err != nil {
			return err
		}
	}
	return nil
}

// rollback undoes a half-made workspace, taking the repo lock.
func (m *Manager) rollback(ctx context.Context, r Repo, ws *Workspace, deleteBranch bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	unlock, err := m.repoLocks.lock(ctx, r.Name)
	if err != nil {
		m.log.Error("workspaces: rollback could not lock repo", "repo", r.Name, "err", err)
		return
	}
	defer unlock()
	m.rollbackLocked(ctx, r, ws, deleteBranch)
}

// rollbackLocked removes ws's directory, metadata and worktree record, and
// its branch if this attempt created it. The caller holds the repo lock.
func (m *Manager) rollbackLocked(ctx context.Context, r Repo, ws *Workspace, deleteBranch bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := m.clearLeftoversLocked(ctx, r, ws.ID); err != nil {
		m.log.Error("workspaces: rollback", "repo", r.Name, "path", ws.Path, "err", err)
	}
	if _, exists := m.resolve(ctx, r, "refs/heads/"+ws.Branch); deleteBranch && exists {
		if _, err := m.git(ctx, r, m.mirrorPath(r.Name), "branch", "--quiet", "-D", ws.Branch); err != nil {
			m.log.Warn("workspaces: rollback could not delete branch", "repo", r.Name, "branch", ws.Branch, "err", err)
		}
	}
}
