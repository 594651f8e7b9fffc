package workspaces

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// kinds lists the kinds of actions, sorted, for comparison.
func kinds(actions []GCAction) string {
	var k []string
	for _, a := range actions {
		if a.Err != nil {
			k = append(k, string(a.Kind)+"!")
			continue
		}
		k = append(k, string(a.Kind))
	}
	sort.Strings(k)
	return strings.Join(k, ",")
}

func TestGCExpiresIdle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newTestManager(t, Options{TTL: time.Hour}, fileRepo("widgets", newRemote(t)))
	stale := prepare(t, m, "widgets", "stale")
	fresh := prepare(t, m, "widgets", "fresh")
	setIdle(t, m, stale, 2*time.Hour)

	dry, err := m.GC(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(dry), "expired"; got != want {
		t.Fatalf("dry run: got %v, want %v", got, want)
	}
	if !exists(stale.Path) {
		t.Fatalf("dry run removed %s", stale.Path)
	}

	done, err := m.GC(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(done), "expired"; got != want || done[0].ThreadID != "stale" {
		t.Fatalf("gc: got %v %+v, want %v of thread stale", got, done, want)
	}
	if exists(stale.Path) || exists(m.metaPath(stale.ID)) || !exists(fresh.Path) {
		t.Errorf("gc removed the wrong workspaces")
	}
	if got := runGit(t, m.mirrorPath("widgets"), "branch", "--list", stale.Branch); got == "" {
		t.Errorf("gc deleted the branch of the expired workspace")
	}

	again, err := m.GC(ctx, false)
	if err != nil || len(again) != 0 {
		t.Errorf("second gc: got %v, %v, want nothing to do", kinds(again), err)
	}
}

func TestGCMaxDisk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bare := newRemote(t)
	probe := newTestManager(t, Options{}, fileRepo("widgets", bare))
	one := dirSize(prepare(t, probe, "widgets", "probe").Path)

	m := newTestManager(t, Options{MaxDisk: one + one/2}, fileRepo("widgets", bare))
	ages := map[string]time.Duration{"oldest": 3 * time.Hour, "middle": 2 * time.Hour, "newest": time.Hour}
	spaces := map[string]*Workspace{}
	for thread, idle := range ages {
		spaces[thread] = prepare(t, m, "widgets", thread)
		setIdle(t, m, spaces[thread], idle)
	}
	actions, err := m.GC(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	for _, a := range actions {
		if a.Kind == GCOverDisk {
			removed = append(removed, a.ThreadID)
		}
	}
	if got, want := strings.Join(removed, ","), "oldest,middle"; got != want {
		t.Errorf("removed: got %v, want %v", got, want)
	}
	if !exists(spaces["newest"].Path) || exists(spaces["oldest"].Path) || exists(spaces["middle"].Path) {
		t.Errorf("gc kept the wrong workspace")
	}
}

func TestGCRepairsLeftovers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newTestManager(t, Options{}, fileRepo("widgets", newRemote(t)))
	kept := prepare(t, m, "widgets", "kept")
	mirror := m.mirrorPath("widgets")

	// A crash mid-Prepare: the worktree exists, the metadata was never written.
	noMeta := prepare(t, m, "widgets", "no-meta")
	os.Remove(m.metaPath(noMeta.ID))
	// A crash mid-Release: worktree removed, metadata not yet.
	noDir := prepare(t, m, "widgets", "no-dir")
	runGit(t, mirror, "worktree", "remove", "--force", noDir.Path)
	// A directory deleted by hand: metadata and the mirror's record remain.
	gone := prepare(t, m, "widgets", "gone")
	os.RemoveAll(gone.Path)
	// A crash mid-removal: the directory lost its .git file.
	broken := prepare(t, m, "widgets", "broken")
	os.Remove(filepath.Join(broken.Path, ".git"))
	// Junk from interrupted writes and clones.
	writeFile(t, m.threadsDir(), "0123456789ab/partial", "x")
	writeFile(t, m.threadsDir(), "0123456789ab.json.tmp-42", "{")
	writeFile(t, m.mirrorsDir(), "other.git.tmp/HEAD", "ref: refs/heads/main\n")

	actions, err := m.GC(ctx, false)
	if err != nil {
		t.Fatalf("gc: %v (%v)", err, kinds(actions))
	}
	want := "broken,orphan-dir,orphan-dir,orphan-metadata,orphan-metadata,prune,prune,temp-file,temp-file"
	if got := kinds(actions); got != want {
		t.Errorf("actions: got %v, want %v", got, want)
	}
	entries, _ := os.ReadDir(m.threadsDir())
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, ","), kept.ID+","+kept.ID+".json"; got != want {
		t.Errorf("threads dir: got %v, want %v", got, want)
	}
	if got := runGit(t, mirror, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 2 {
		t.Errorf("mirror worktrees: got\n%s\nwant the mirror and %s only", got, kept.Path)
	}
	if exists(filepath.Join(m.mirrorsDir(), "other.git.tmp")) {
		t.Errorf("half-cloned mirror kept")
	}

	again, err := m.GC(ctx, false)
	if err != nil || len(again) != 0 {
		t.Errorf("second gc: got %v, %v, want nothing to do", kinds(again), err)
	}
	for _, thread := range []string{"no-meta", "no-dir", "gone", "broken"} {
		prepare(t, m, "widgets", thread)
	}
}

func TestGCSkipsBusyWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newTestManager(t, Options{TTL: time.Minute}, fileRepo("widgets", newRemote(t)))
	ws := prepare(t, m, "widgets", "busy")
	setIdle(t, m, ws, time.Hour)
	unlock, err := m.threadLocks.lock(ctx, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := m.GC(ctx, false)
	unlock()
	if err != nil || len(actions) != 0 || !exists(ws.Path) {
		t.Errorf("gc of a busy workspace: got %v, %v, want it skipped", kinds(actions), err)
	}
}
