package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// GCKind says why GC removed something.
type GCKind string

// The kinds of GCAction.
const (
	GCExpired       GCKind = "expired"         // idle longer than TTL
	GCOverDisk      GCKind = "over-disk"       // longest idle while over MaxDisk
	GCBroken        GCKind = "broken"          // metadata and a directory that is no worktree
	GCOrphanDir     GCKind = "orphan-dir"      // a thread directory without metadata
	GCOrphanMeta    GCKind = "orphan-metadata" // metadata without a directory, or unreadable
	GCTempFile      GCKind = "temp-file"       // a leftover temporary file or half-cloned mirror
	GCPrunedRecords GCKind = "prune"           // a mirror's record of a worktree that is gone
)

// GCAction is one thing GC removed, or would remove in a dry run.
type GCAction struct {
	Kind     GCKind
	ID       string // workspace id, when the action is about one
	ThreadID string
	Repo     string
	Path     string
	Size     int64
	Idle     time.Duration
	Err      error // why the action failed; nil when it was done (or in a dry run)
}

// GC removes workspaces idle past TTL, then the longest-idle ones while the
// worktrees together exceed MaxDisk, and clears what interrupted operations
// left behind: thread directories without metadata, metadata without a
// directory, temporary files and stale worktree records in the mirrors.
// Workspaces busy with another operation are skipped. GC is idempotent and
// safe to run at start-up after a crash. With dryRun it only reports.
// Failed actions are reported with their Err set and joined into the error.
func (m *Manager) GC(ctx context.Context, dryRun bool) ([]GCAction, error) {
	g := &gcRun{m: m, ctx: ctx, dryRun: dryRun}
	entries, err := m.scanThreads()
	if err != nil {
		return nil, fmt.Errorf("workspaces gc: %w", err)
	}
	g.leftovers(entries)
	g.pruneMirrors() // records of the orphan directories just removed
	live := g.intact(entries)
	live = g.expire(live)
	g.enforceDisk(live)
	return g.actions, errors.Join(g.errs...)
}

// gcRun is one GC pass. It is used by one goroutine.
type gcRun struct {
	m       *Manager
	ctx     context.Context
	dryRun  bool
	actions []GCAction
	errs    []error
}

// do records a and, unless dry, runs fn with the thread lock of a.ID held
// (skipping a busy workspace) after still(), which re-checks the reason
// under the lock, agrees.
func (g *gcRun) do(a GCAction, still func() bool, fn func() error) {
	if g.ctx.Err() != nil {
		return
	}
	if g.dryRun {
		g.actions = append(g.actions, a)
		return
	}
	if a.ID != "" {
		unlock, ok := g.m.threadLocks.tryLock(a.ID)
		if !ok {
			return
		}
		defer unlock()
	}
	if still != nil && !still() {
		return
	}
	if err := fn(); err != nil {
		a.Err = err
		g.errs = append(g.errs, fmt.Errorf("gc %s %s: %w", a.Kind, a.Path, err))
	}
	g.actions = append(g.actions, a)
}

// leftovers handles temporary files, orphan directories and orphan metadata.
func (g *gcRun) leftovers(e threadsEntries) {
	m := g.m
	for _, name := range e.temps {
		id, _, _ := strings.Cut(name, metaSuffix+".tmp-")
		path := filepath.Join(m.threadsDir(), name)
		g.do(GCAction{Kind: GCTempFile, ID: id, Path: path}, nil, func() error { return os.Remove(path) })
	}
	hasMeta := make(map[string]bool, len(e.metas))
	for _, id := range e.metas {
		hasMeta[id] = true
	}
	hasDir := make(map[string]bool, len(e.dirs))
	for _, id := range e.dirs {
		hasDir[id] = true
		if hasMeta[id] {
			continue
		}
		path := m.threadPath(id)
		noMeta := func() bool { _, err := os.Stat(m.metaPath(id)); return errors.Is(err, os.ErrNotExist) }
		g.do(GCAction{Kind: GCOrphanDir, ID: id, Path: path, Size: dirSize(path)}, noMeta,
			func() error { return os.RemoveAll(path) })
	}
	for _, id := range e.metas {
		ws, err := m.loadMeta(id)
		switch {
		case err != nil:
			path := m.metaPath(id)
			g.do(GCAction{Kind: GCOrphanMeta, ID: id, Path: path}, nil, func() error {
				if err := os.RemoveAll(m.threadPath(id)); err != nil {
					return err
				}
				return m.removeMeta(id)
			})
		case !hasDir[id]:
			noDir := func() bool { _, err := os.Stat(m.threadPath(id)); return errors.Is(err, os.ErrNotExist) }
			g.do(g.about(GCOrphanMeta, ws), noDir, func() error { return m.removeMeta(id) })
		}
	}
	for _, name := range m.halfClonedMirrors() {
		path := filepath.Join(m.mirrorsDir(), name)
		repo := strings.TrimSuffix(name, ".git.tmp")
		g.do(GCAction{Kind: GCTempFile, Repo: repo, Path: path}, nil, func() error {
			unlock, err := m.repoLocks.lock(g.ctx, repo)
			if err != nil {
				return err
			}
			defer unlock()
			return os.RemoveAll(path)
		})
	}
}

// halfClonedMirrors lists leftovers of interrupted clones, which are made in
// <name>.git.tmp and renamed when complete.
func (m *Manager) halfClonedMirrors() []string {
	entries, err := os.ReadDir(m.mirrorsDir())
	if err != nil {
		return nil
	}
	var names []string
	for _, de := range entries {
		if strings.HasSuffix(de.Name(), ".git.tmp") {
			names = append(names, de.Name())
		}
	}
	return names
}

// intact returns the workspaces with both metadata and a working worktree,
// removing the broken ones (a crash in the middle of a removal).
func (g *gcRun) intact(e threadsEntries) []*Workspace {
	var live []*Workspace
	for _, id := range e.metas {
		ws, err := g.m.loadMeta(id)
		if err != nil {
			continue
		}
		if _, err := os.Stat(g.m.threadPath(id)); err != nil {
			continue
		}
		if !worktreeIntact(ws.Path) {
			broken := func() bool { return !worktreeIntact(ws.Path) }
			g.do(g.about(GCBroken, ws), broken, func() error { return g.m.releaseLocked(g.ctx, ws.ID, ws.Repo) })
			continue
		}
		ws.Idle = time.Since(ws.LastUsed)
		live = append(live, ws)
	}
	return live
}

// expire removes workspaces idle past TTL and returns the others.
func (g *gcRun) expire(live []*Workspace) []*Workspace {
	ttl := g.m.opts.TTL
	if ttl <= 0 {
		return live
	}
	var kept []*Workspace
	for _, ws := range live {
		if ws.Idle <= ttl {
			kept = append(kept, ws)
			continue
		}
		ws.Size = dirSize(ws.Path)
		g.do(g.about(GCExpired, ws), g.stillIdle(ws, ttl), func() error { return g.m.releaseLocked(g.ctx, ws.ID, ws.Repo) })
	}
	return kept
}

// enforceDisk removes the longest-idle workspaces while the total size of
// the worktrees exceeds MaxDisk.
func (g *gcRun) enforceDisk(live []*Workspace) {
	limit := g.m.opts.MaxDisk
	if limit <= 0 {
		return
	}
	var total int64
	for _, ws := range live {
		ws.Size = dirSize(ws.Path)
		total += ws.Size
	}
	sort.SliceStable(live, func(i, j int) bool { return live[i].LastUsed.Before(live[j].LastUsed) })
	for _, ws := range live {
		if total <= limit {
			return
		}
		before := len(g.actions)
		g.do(g.about(GCOverDisk, ws), g.stillIdle(ws, ws.Idle), func() error { return g.m.releaseLocked(g.ctx, ws.ID, ws.Repo) })
		if len(g.actions) > before && g.actions[len(g.actions)-1].Err == nil {
			total -= ws.Size
		}
	}
}

// stillIdle re-reads ws's metadata under the lock: a workspace used since
// the scan began is no longer a candidate.
func (g *gcRun) stillIdle(ws *Workspace, atLeast time.Duration) func() bool {
	return func() bool {
		cur, err := g.m.loadMeta(ws.ID)
		return err == nil && cur.LastUsed.Equal(ws.LastUsed) && time.Since(cur.LastUsed) >= atLeast
	}
}

// pruneMirrors drops each mirror's records of worktrees that no longer exist.
func (g *gcRun) pruneMirrors() {
	entries, err := os.ReadDir(g.m.mirrorsDir())
	if err != nil {
		g.errs = append(g.errs, err)
		return
	}
	for _, de := range entries {
		repo, ok := strings.CutSuffix(de.Name(), ".git")
		if !ok || !de.IsDir() || !g.m.mirrorExists(repo) {
			continue
		}
		if err := g.pruneMirror(repo); err != nil {
			g.errs = append(g.errs, fmt.Errorf("gc prune %s: %w", repo, err))
		}
	}
}

// pruneMirror reports and (unless dry) prunes one mirror's stale records,
// holding the repo lock so no worktree is half-added meanwhile.
func (g *gcRun) pruneMirror(repo string) error {
	unlock, err := g.m.repoLocks.lock(g.ctx, repo)
	if err != nil {
		return err
	}
	defer unlock()
	stale := staleWorktreeRecords(g.m.mirrorPath(repo))
	for _, rec := range stale {
		g.actions = append(g.actions, GCAction{Kind: GCPrunedRecords, Repo: repo, Path: rec})
	}
	if g.dryRun || len(stale) == 0 {
		return nil
	}
	_, err = g.m.git(g.ctx, g.m.repoOrBare(repo), g.m.mirrorPath(repo), "worktree", "prune")
	return err
}

// staleWorktreeRecords lists the mirror's worktrees/<name> records whose
// worktree is gone — what "git worktree prune" will remove.
func staleWorktreeRecords(mirror string) []string {
	entries, err := os.ReadDir(filepath.Join(mirror, "worktrees"))
	if err != nil {
		return nil
	}
	var stale []string
	for _, de := range entries {
		rec := filepath.Join(mirror, "worktrees", de.Name())
		b, err := os.ReadFile(filepath.Join(rec, "gitdir"))
		if err != nil {
			stale = append(stale, rec)
			continue
		}
		if _, err := os.Stat(strings.TrimSpace(string(b))); errors.Is(err, os.ErrNotExist) {
			stale = append(stale, rec)
		}
	}
	return stale
}

func (g *gcRun) about(kind GCKind, ws *Workspace) GCAction {
	return GCAction{Kind: kind, ID: ws.ID, ThreadID: ws.ThreadID, Repo: ws.Repo, Path: ws.Path, Size: ws.Size, Idle: ws.Idle}
}
