package workspaces

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Diff returns the unified diff of everything the thread changed against
// the commit its branch started from: its commits plus uncommitted edits,
// new files included (those .gitignore excludes left out). The worktree's
// own index is not touched.
func (m *Manager) Diff(ctx context.Context, ws *Workspace) (string, error) {
	unlock, err := m.threadLocks.lock(ctx, ws.ID)
	if err != nil {
		return "", err
	}
	defer unlock()
	cur, err := m.current(ws)
	if err != nil {
		return "", err
	}
	r, err := m.repo(cur.Repo)
	if err != nil {
		return "", err
	}
	base := cur.BaseCommit
	if base == "" {
		out, err := m.git(ctx, r, cur.Path, "merge-base", "HEAD", "refs/heads/"+cur.Base)
		if err != nil {
			return "", fmt.Errorf("find the base of %s: %w", cur.Branch, err)
		}
		base = strings.TrimSpace(string(out))
	}

	// Stage everything into a scratch copy of the index (copied, not rebuilt,
	// so unchanged files are not hashed again) and diff that against base.
	out, err := m.git(ctx, r, cur.Path, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return "", err
	}
	scratch, err := copyToTemp(filepath.Join(strings.TrimSpace(string(out)), "index"))
	if err != nil {
		return "", fmt.Errorf("diff: %w", err)
	}
	defer os.Remove(scratch)
	env := []string{"GIT_INDEX_FILE=" + scratch}
	if _, err := m.gitWithEnv(ctx, r, cur.Path, env, "add", "--all"); err != nil {
		return "", err
	}
	diff, err := m.gitWithEnv(ctx, r, cur.Path, env, "diff", "--cached", "--no-color", "--no-ext-diff", base)
	if err != nil {
		return "", err
	}
	return string(diff), m.touch(cur)
}

// copyToTemp copies src to a new temporary file and returns its name. For a
// missing src the name is returned with no file behind it.
func copyToTemp(src string) (string, error) {
	dst, err := os.CreateTemp("", "reasonix-index-*")
	if err != nil {
		return "", err
	}
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		// git reads a missing index file as an empty one.
		dst.Close()
		return dst.Name(), os.Remove(dst.Name())
	}
	if err == nil {
		_, err = io.Copy(dst, in)
		in.Close()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst.Name())
		return "", err
	}
	return dst.Name(), nil
}
