package workspaces

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bare := newRemote(t)
	m := newTestManager(t, Options{}, fileRepo("widgets", bare))

	ws := prepare(t, m, "widgets", "slack:T1:C1:1700000000.000100")
	if got, want := ws.Branch, "reasonix/"+ShortID("slack:T1:C1:1700000000.000100"); got != want {
		t.Errorf("branch: got %v, want %v", got, want)
	}
	if got, want := ws.Path, filepath.Join(m.opts.Dir, "threads", ws.ID); got != want {
		t.Errorf("path: got %v, want %v", got, want)
	}
	if got, want := runGit(t, ws.Path, "symbolic-ref", "HEAD"), "refs/heads/"+ws.Branch; got != want {
		t.Errorf("HEAD: got %v, want %v", got, want)
	}
	if got, want := runGit(t, ws.Path, "rev-parse", "HEAD"), runGit(t, bare, "rev-parse", "main"); got != want {
		t.Errorf("start commit: got %v, want %v", got, want)
	}

	// Edit, add, delete, and make files .gitignore excludes.
	writeFile(t, ws.Path, "README.md", "# widgets\n\nNow with docs.\n")
	writeFile(t, ws.Path, "pkg/new.go", "package pkg\n")
	writeFile(t, ws.Path, "debug.log", "ignored\n")
	writeFile(t, ws.Path, "build/out.bin", "ignored\n")
	if err := os.Remove(filepath.Join(ws.Path, "old.txt")); err != nil {
		t.Fatal(err)
	}
	res, err := m.Commit(ctx, ws, "Document widgets", Author{Name: "Ada Lovelace", Email: "ada@example.com"})
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if !res.Committed || res.FilesChanged != 3 || res.Insertions != 3 || res.Deletions != 1 {
		t.Errorf("commit result: got %+v, want 3 files, +3 -1", res)
	}
	files := map[string]bool{}
	for _, f := range res.Files {
		files[f.Path] = true
	}
	for _, want := range []string{"README.md", "pkg/new.go", "old.txt"} {
		if !files[want] {
			t.Errorf("files: got %v, want %s among them", res.Files, want)
		}
	}
	if got := runGit(t, ws.Path, "ls-files"); strings.Contains(got, "debug.log") || strings.Contains(got, "out.bin") {
		t.Errorf("ignored files were committed: %v", got)
	}
	msg := runGit(t, ws.Path, "log", "-1", "--format=%an <%ae>%n%B")
	for _, want := range []string{"Reasonix <reasonix@localhost>", "Document widgets", "Co-authored-by: Ada Lovelace <ada@example.com>"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit: got %q, want it to contain %q", msg, want)
		}
	}
	if got := runGit(t, ws.Path, "status", "--porcelain"); got != "" {
		t.Errorf("status after commit: got %q, want clean", got)
	}

	again, err := m.Commit(ctx, ws, "nothing", Author{})
	if err != nil || again.Committed {
		t.Errorf("second commit: got %+v, %v, want no-op", again, err)
	}

	// Uncommitted work shows in Diff alongside the commit.
	writeFile(t, ws.Path, "notes.txt", "draft\n")
	diff, err := m.Diff(ctx, ws)
	if err != nil {
		t.Fatalf("Diff: %v", err)
	}
	for _, want := range []string{"+Now with docs.", "pkg/new.go", "notes.txt", "-to be deleted"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff: want %q in:\n%s", want, diff)
		}
	}
	if got := runGit(t, ws.Path, "status", "--porcelain"); got != "?? notes.txt" {
		t.Errorf("Diff changed the index: status %q", got)
	}

	if err := m.Push(ctx, ws); err != nil {
		t.Fatalf("Push: %v", err)
	}
	if got, want := runGit(t, bare, "rev-parse", ws.Branch), res.Hash; got != want {
		t.Errorf("remote branch: got %v, want %v", got, want)
	}

	list, err := m.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ThreadID != ws.ThreadID || list[0].Size <= 0 {
		t.Fatalf("List: got %+v, want the one workspace with a size", list)
	}

	if err := m.Release(ctx, ws); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if exists(ws.Path) || exists(m.metaPath(ws.ID)) {
		t.Errorf("Release left %s or its metadata", ws.Path)
	}
	if got, want := runGit(t, m.mirrorPath("widgets"), "rev-parse", ws.Branch), res.Hash; got != want {
		t.Errorf("mirror branch after release: got %v, want %v", got, want)
	}
	if got := runGit(t, m.mirrorPath("widgets"), "worktree", "list", "--porcelain"); strings.Contains(got, ws.Path) {
		t.Errorf("mirror still lists the worktree: %s", got)
	}
	if list, _ := m.List(ctx); len(list) != 0 {
		t.Errorf("List after release: got %d, want 0", len(list))
	}
	if err := m.Release(ctx, ws); err != nil {
		t.Errorf("second Release: got %v, want nil", err)
	}
	if _, err := m.Commit(ctx, ws, "late", Author{}); !errors.Is(err, ErrWorkspaceGone) {
		t.Errorf("Commit after release: got %v, want ErrWorkspaceGone", err)
	}

	// The thread comes back: its branch continues.
	back := prepare(t, m, "widgets", ws.ThreadID)
	if got, want := runGit(t, back.Path, "rev-parse", "HEAD"), res.Hash; got != want {
		t.Errorf("re-prepared HEAD: got %v, want %v", got, want)
	}
	if diff, err := m.Diff(ctx, back); err != nil || !strings.Contains(diff, "pkg/new.go") {
		t.Errorf("diff of continued branch: got %v, err %v", diff, err)
	}
}

func TestPrepareSameThreadTwice(t *testing.T) {
	t.Parallel()
	bare := newRemote(t)
	m := newTestManager(t, Options{}, fileRepo("widgets", bare))
	first := prepare(t, m, "widgets", "thread-a")
	setIdle(t, m, first, time.Hour)
	second := prepare(t, m, "widgets", "thread-a")
	if second.Path != first.Path || second.Branch != first.Branch || !second.Created.Equal(first.Created) {
		t.Errorf("got %+v, want the same workspace as %+v", second, first)
	}
	if idle := time.Since(second.LastUsed); idle > time.Minute {
		t.Errorf("last used not touched: idle %v", idle)
	}
	other := prepare(t, m, "widgets", "thread-b")
	if other.Path == first.Path || other.Branch == first.Branch {
		t.Errorf("two threads share %s / %s", other.Path, other.Branch)
	}
}

func TestPrepareBase(t *testing.T) {
	t.Parallel()
	bare := newRemote(t)
	m := newTestManager(t, Options{}, fileRepo("widgets", bare))
	ws, err := m.Prepare(context.Background(), "widgets", "t", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ws.BaseCommit, runGit(t, bare, "rev-parse", "dev"); got != want || ws.Base != "dev" {
		t.Errorf("base: got %v %v, want dev %v", ws.Base, got, want)
	}
}

func TestFetchInterval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		interval   time.Duration
		wantLatest bool
	}{
		{"always fetch", 0, true},
		{"fresh mirror is reused", time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			bare := newRemote(t)
			m := newTestManager(t, Options{FetchInterval: tt.interval}, fileRepo("widgets", bare))
			old := prepare(t, m, "widgets", "first")
			latest := addRemoteCommit(t, bare, "later.txt")
			ws := prepare(t, m, "widgets", "second")
			got := runGit(t, ws.Path, "rev-parse", "HEAD")
			want := old.BaseCommit
			if tt.wantLatest {
				want = latest
			}
			if got != want {
				t.Errorf("second thread starts at %v, want %v", got, want)
			}
		})
	}
}

func TestSetupRunsOnce(t *testing.T) {
	t.Parallel()
	bare := newRemote(t)
	r := fileRepo("widgets", bare)
	r.Setup = "echo ran >> setup.log && test -f main.go"
	m := newTestManager(t, Options{}, r)
	ws := prepare(t, m, "widgets", "t")
	prepare(t, m, "widgets", "t")
	b, err := os.ReadFile(filepath.Join(ws.Path, "setup.log"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "ran\n"; got != want {
		t.Errorf("setup.log: got %q, want %q", got, want)
	}
}

func TestCommitMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		message string
		author  Author
		want    string
	}{
		{"with author", "Fix it", Author{"Ada", "ada@example.com"}, "Fix it\n\nCo-authored-by: Ada <ada@example.com>\n"},
		{"no email", "Fix it", Author{Name: "Ada"}, "Fix it\n"},
		{"empty message", "  ", Author{}, defaultCommitMessage + "\n"},
		{"hostile name", "Fix", Author{"A <x>", "a@b"}, "Fix\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := commitMessage(tt.message, tt.author); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
