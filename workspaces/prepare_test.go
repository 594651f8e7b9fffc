package workspaces

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrepareErrors(t *testing.T) {
	t.Parallel()
	bare := newRemote(t)
	failingSetup := fileRepo("setupfails", bare)
	failingSetup.Setup = "echo installing deps; echo boom >&2; exit 3"
	tests := []struct {
		name      string
		repo      string
		base      string
		wantStage string
		wantKind  Kind
		wantText  string
	}{
		{"unknown branch", "widgets", "no-such-branch", "worktree", KindUnknownBranch, "no-such-branch"},
		{"unreachable remote", "missing", "", "mirror", KindOther, "does not appear to be a git repository"},
		{"failing setup", "setupfails", "", "setup", KindOther, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestManager(t, Options{},
				fileRepo("widgets", bare),
				fileRepo("missing", filepath.Join(t.TempDir(), "nope.git")),
				failingSetup)
			_, err := m.Prepare(context.Background(), tt.repo, "thread-1", tt.base)
			var pe *PrepareError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *PrepareError", err)
			}
			if pe.Stage != tt.wantStage || pe.Kind != tt.wantKind {
				t.Errorf("got stage %q kind %q, want %q %q (%v)", pe.Stage, pe.Kind, tt.wantStage, tt.wantKind, err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("got %q, want it to mention %q", err, tt.wantText)
			}
			assertNothingLeft(t, m, tt.repo, "thread-1")
		})
	}
}

// assertNothingLeft checks a failed Prepare left no directory, metadata,
// branch or worktree record.
func assertNothingLeft(t *testing.T, m *Manager, repo, thread string) {
	t.Helper()
	entries, err := os.ReadDir(m.threadsDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("threads dir holds %d entries after a failed prepare", len(entries))
	}
	mirror := m.mirrorPath(repo)
	if !exists(mirror) {
		return
	}
	if got := runGit(t, mirror, "branch", "--list", BranchName(thread)); got != "" {
		t.Errorf("branch left behind: %q", got)
	}
	if got := runGit(t, mirror, "worktree", "list"); strings.Count(got, "\n") != 0 {
		t.Errorf("worktree records left behind: %s", got)
	}
}

func TestPrepareSetupFailureSetupErrorOutput(t *testing.T) {
	t.Parallel()
	r := fileRepo("widgets", newRemote(t))
	r.Setup = "for i in $(seq 1 5000); do echo line $i; done; exit 1"
	m := newTestManager(t, Options{}, r)
	_, err := m.Prepare(context.Background(), "widgets", "t", "")
	var se *SetupError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want a *SetupError", err)
	}
	if len(se.Output) > maxErrText+len("…") || !strings.Contains(se.Output, "line 5000") {
		t.Errorf("setup output: got %d bytes ending %q, want the bounded tail", len(se.Output), tail(se.Output, 20))
	}
}

func TestPrepareUnknownRepo(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, Options{}, fileRepo("widgets", "/nowhere"), fileRepo("gadgets", "/nowhere"))
	_, err := m.Prepare(context.Background(), "sprockets", "t", "")
	if !errors.Is(err, ErrUnknownRepo) {
		t.Fatalf("got %v, want ErrUnknownRepo", err)
	}
	if got, want := err.Error(), `unknown repo "sprockets" (known: gadgets, widgets)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPrepareRepairsInterrupted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		damage func(t *testing.T, m *Manager, ws *Workspace)
	}{
		{"half-made directory without metadata", func(t *testing.T, m *Manager, ws *Workspace) {
			if err := m.Release(context.Background(), ws); err != nil {
				t.Fatal(err)
			}
			writeFile(t, ws.Path, "partial.txt", "half a checkout\n")
		}},
		{"worktree made, metadata never written", func(t *testing.T, m *Manager, ws *Workspace) {
			if err := os.Remove(m.metaPath(ws.ID)); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory deleted behind its back", func(t *testing.T, m *Manager, ws *Workspace) {
			if err := os.RemoveAll(ws.Path); err != nil {
				t.Fatal(err)
			}
		}},
		{"worktree record pruned, directory kept", func(t *testing.T, m *Manager, ws *Workspace) {
			if err := os.RemoveAll(filepath.Join(m.mirrorPath(ws.Repo), "worktrees", ws.ID)); err != nil {
				t.Fatal(err)
			}
		}},
		{"torn metadata", func(t *testing.T, m *Manager, ws *Workspace) {
			writeFile(t, m.threadsDir(), ws.ID+".json", `{"id":`)
		}},
		{"temporary metadata file left", func(t *testing.T, m *Manager, ws *Workspace) {
			writeFile(t, m.threadsDir(), ws.ID+".json.tmp-123", `{}`)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestManager(t, Options{}, fileRepo("widgets", newRemote(t)))
			ws := prepare(t, m, "widgets", "thread-x")
			tt.damage(t, m, ws)
			again := prepare(t, m, "widgets", "thread-x")
			if again.Path != ws.Path || again.Branch != ws.Branch {
				t.Errorf("got %s on %s, want %s on %s", again.Path, again.Branch, ws.Path, ws.Branch)
			}
			if !worktreeIntact(again.Path) || !exists(filepath.Join(again.Path, "main.go")) {
				t.Errorf("repaired workspace is not a full worktree")
			}
			if got := runGit(t, again.Path, "status", "--porcelain"); got != "" {
				t.Errorf("repaired workspace is dirty: %q", got)
			}
			writeFile(t, again.Path, "x.txt", "x\n")
			if res, err := m.Commit(context.Background(), again, "x", Author{}); err != nil || !res.Committed {
				t.Errorf("commit in repaired workspace: got %+v, %v", res, err)
			}
		})
	}
}
