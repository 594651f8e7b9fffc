package workspaces

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestConcurrentThreads(t *testing.T) {
	t.Parallel()
	const threads = 20
	ctx := context.Background()
	bare := newRemote(t)
	m := newTestManager(t, Options{}, fileRepo("widgets", bare))
	base := runGit(t, bare, "rev-parse", "main")

	var wg sync.WaitGroup
	errs := make([]error, threads)
	spaces := make([]*Workspace, threads)
	for i := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			thread := fmt.Sprintf("thread-%02d", i)
			ws, err := m.Prepare(ctx, "widgets", thread, "")
			if err != nil {
				errs[i] = err
				return
			}
			spaces[i] = ws
			if err := os.WriteFile(filepath.Join(ws.Path, thread+".txt"), []byte(thread+"\n"), 0o644); err != nil {
				errs[i] = err
				return
			}
			if _, err := m.Commit(ctx, ws, "work of "+thread, Author{}); err != nil {
				errs[i] = err
				return
			}
			// The same thread from elsewhere at the same time gets the same workspace.
			again, err := m.Prepare(ctx, "widgets", thread, "")
			if err == nil && again.Path != ws.Path {
				err = fmt.Errorf("second prepare of %s: got %s, want %s", thread, again.Path, ws.Path)
			}
			if err == nil {
				err = m.Push(ctx, ws)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("thread %d: %v", i, err)
		}
	}

	seen := map[string]bool{}
	for i, ws := range spaces {
		thread := fmt.Sprintf("thread-%02d", i)
		if seen[ws.Branch] || seen[ws.Path] {
			t.Errorf("%s shares %s or %s", thread, ws.Branch, ws.Path)
		}
		seen[ws.Branch], seen[ws.Path] = true, true
		for _, repo := range []string{m.mirrorPath("widgets"), bare} {
			log := runGit(t, repo, "log", "--format=%s", base+".."+ws.Branch)
			if got, want := log, "work of "+thread; got != want {
				t.Errorf("%s in %s: got commits %q, want %q", ws.Branch, repo, log, want)
			}
			files := runGit(t, repo, "diff", "--name-only", base, ws.Branch)
			if got, want := strings.TrimSpace(files), thread+".txt"; got != want {
				t.Errorf("%s changes: got %q, want %q", ws.Branch, got, want)
			}
		}
	}
	list, err := m.List(ctx)
	if err != nil || len(list) != threads {
		t.Errorf("List: got %d, %v, want %d", len(list), err, threads)
	}
}
