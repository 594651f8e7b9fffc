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

// lastFetchFile, inside a mirror, holds the time of its last clone or fetch.
const lastFetchFile = "reasonix-last-fetch"

// mirrorConfig is set on every mirror after cloning. gc is off and never
// prunes: worktrees commit into the mirror's object store, and an object
// only a worktree's index references must never go. Parallel checkout
// (one worker per core) makes a new worktree of a large repo several times
// faster on disks with slow metadata operations.
var mirrorConfig = [][]string{
	{"gc.auto", "0"},
	{"gc.pruneExpire", "never"},
	{"gc.reflogExpireUnreachable", "never"},
	{"branch.autoSetupMerge", "false"},
	{"remote.origin.prune", "false"},
	{"checkout.workers", "0"},
}

// mirrorRefspecs replace the stock mirror refspec (+refs/*:refs/*), which
// would make "fetch --prune" delete thread branches that live only here
// until pushed, or fail when a pushed copy moved on the remote while the
// branch is checked out in a worktree.
var mirrorRefspecs = []string{
	"+refs/heads/*:refs/heads/*",
	"+refs/tags/*:refs/tags/*",
}

// fetchArgs fetch and prune everything but thread branches. The negative
// refspec is given on the command line only: go-git cannot parse one in a
// config file, and it opens worktrees that share the mirror's config.
var fetchArgs = append(append([]string{"fetch", "--prune", "--quiet", "origin"}, mirrorRefspecs...),
	"^refs/heads/"+BranchPrefix+"*")

// syncMirrorLocked makes sure repo r has a mirror no older than
// FetchInterval: it clones a missing one and fetches a stale one. The caller
// holds r's repo lock. It returns the stage that failed, for PrepareError.
func (m *Manager) syncMirrorLocked(ctx context.Context, r Repo) (stage string, err error) {
	path := m.mirrorPath(r.Name)
	if _, err := os.Stat(filepath.Join(path, "HEAD")); errors.Is(err, os.ErrNotExist) {
		return "mirror", m.cloneMirrorLocked(ctx, r)
	}
	if last, ok := m.lastFetch(r.Name); ok && m.opts.FetchInterval > 0 && time.Since(last) < m.opts.FetchInterval {
		return "", nil
	}
	start := time.Now()
	if _, err := m.git(ctx, r, path, fetchArgs...); err != nil {
		return "fetch", err
	}
	m.log.Info("workspaces: mirror fetched", "repo", r.Name, "took", time.Since(start).Round(time.Millisecond))
	return "", m.recordFetch(r.Name)
}

// cloneMirrorLocked clones into a temporary directory and renames it into
// place, so a crash or failure never leaves a half-cloned mirror behind.
func (m *Manager) cloneMirrorLocked(ctx context.Context, r Repo) error {
	final := m.mirrorPath(r.Name)
	tmp := final + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	start := time.Now()
	err := m.cloneInto(ctx, r, tmp)
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	m.log.Info("workspaces: mirror cloned", "repo", r.Name, "took", time.Since(start).Round(time.Millisecond))
	return m.recordFetch(r.Name)
}

func (m *Manager) cloneInto(ctx context.Context, r Repo, dir string) error {
	if _, err := m.git(ctx, r, m.mirrorsDir(), "clone", "--mirror", "--quiet", r.URL, dir); err != nil {
		return err
	}
	for _, kv := range mirrorConfig {
		if _, err := m.git(ctx, r, dir, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	if _, err := m.git(ctx, r, dir, "config", "--unset-all", "remote.origin.fetch"); err != nil {
		return err
	}
	for _, spec := range mirrorRefspecs {
		if _, err := m.git(ctx, r, dir, "config", "--add", "remote.origin.fetch", spec); err != nil {
			return err
		}
	}
	return nil
}

func (m *Manager) lastFetch(repo string) (time.Time, bool) {
	b, err := os.ReadFile(filepath.Join(m.mirrorPath(repo), lastFetchFile))
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	return t, err == nil
}

func (m *Manager) recordFetch(repo string) error {
	stamp := time.Now().UTC().Format(time.RFC3339Nano) + "\n"
	if err := os.WriteFile(filepath.Join(m.mirrorPath(repo), lastFetchFile), []byte(stamp), 0o644); err != nil {
		return fmt.Errorf("record fetch time: %w", err)
	}
	return nil
}

// mirrorExists reports whether repo has been cloned.
func (m *Manager) mirrorExists(repo string) bool {
	_, err := os.Stat(filepath.Join(m.mirrorPath(repo), "HEAD"))
	return err == nil
}
