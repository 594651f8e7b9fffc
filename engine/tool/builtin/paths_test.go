package builtin

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.txt": "s"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a/b.txt": "b", "top.txt": "t"})
	mustSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "out-file"))
	mustSymlink(t, outside, filepath.Join(root, "out-dir"))
	mustSymlink(t, filepath.Join(outside, "missing.txt"), filepath.Join(root, "dangling-out"))
	mustSymlink(t, "a/b.txt", filepath.Join(root, "in-file"))
	mustSymlink(t, "a", filepath.Join(root, "in-dir"))
	mustSymlink(t, "loop", filepath.Join(root, "loop"))
	ws, err := newWorkspace(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)

	tests := []struct {
		name    string
		arg     string
		wantRel string
		wantErr error
	}{
		{"relative", "a/b.txt", "a/b.txt", nil},
		{"root itself", ".", ".", nil},
		{"cleaned inside", "a/../top.txt", "top.txt", nil},
		{"absolute inside", filepath.Join(root, "a"), "a", nil},
		{"not yet existing", "new/dir/file.txt", "new/dir/file.txt", nil},
		{"symlink inside", "in-file", "in-file", nil},
		{"under symlinked dir inside", "in-dir/b.txt", "in-dir/b.txt", nil},
		{"dotdot escape", "../x", "", ErrOutsideWorkspace},
		{"deep dotdot escape", "a/../../x", "", ErrOutsideWorkspace},
		{"absolute outside", filepath.Join(outside, "secret.txt"), "", ErrOutsideWorkspace},
		{"absolute system path", "/etc/passwd", "", ErrOutsideWorkspace},
		{"symlinked file pointing out", "out-file", "", ErrOutsideWorkspace},
		{"symlinked parent pointing out", "out-dir/secret.txt", "", ErrOutsideWorkspace},
		{"new file under symlinked parent", "out-dir/new.txt", "", ErrOutsideWorkspace},
		{"dangling symlink pointing out", "dangling-out", "", ErrOutsideWorkspace},
		{"empty", "", "", fs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ws.resolve(tt.arg)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got err %v, want %v", err, tt.wantErr)
				}
				var pe *PathError
				if !errors.As(err, &pe) || pe.Path != tt.arg {
					t.Fatalf("got %#v, want a *PathError for %q", err, tt.arg)
				}
				return
			}
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			if got.rel != tt.wantRel {
				t.Errorf("got rel %q, want %q", got.rel, tt.wantRel)
			}
			if !within(realRoot, got.real) {
				t.Errorf("got real %q, want it inside %q", got.real, realRoot)
			}
		})
	}

	t.Run("symlink loop", func(t *testing.T) {
		if _, err := ws.resolve("loop"); err == nil {
			t.Fatalf("got nil error, want one for a symlink loop")
		}
	})
	t.Run("outside message", func(t *testing.T) {
		_, err := ws.resolve("../x")
		want := `path "../x" is outside the workspace ` + root
		if err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	})
}

func TestResolveViaSymlinkedRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	writeTree(t, real, map[string]string{"f.txt": "x"})
	link := filepath.Join(dir, "link")
	mustSymlink(t, real, link)
	ws, err := newWorkspace(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{filepath.Join(link, "f.txt"), filepath.Join(real, "f.txt"), "f.txt"} {
		got, err := ws.resolve(arg)
		if err != nil {
			t.Fatalf("resolve(%q): got err %v, want nil", arg, err)
		}
		if got.rel != "f.txt" {
			t.Errorf("resolve(%q): got rel %q, want f.txt", arg, got.rel)
		}
	}
}

func TestForbidRead(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".env":              "TOKEN=x",
		"secrets/key.pem":   "k",
		"secrets/sub/x.txt": "x",
		"secretsafe.txt":    "fine",
		"ok.txt":            "ok",
	})
	mustSymlink(t, ".env", filepath.Join(root, "env-link"))
	ws, err := newWorkspace(root, []string{".env", filepath.Join(root, "secrets")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg       string
		forbidden bool
	}{
		{".env", true},
		{"env-link", true},
		{"secrets", true},
		{"secrets/sub/x.txt", true},
		{filepath.Join(root, "secrets/key.pem"), true},
		{"secretsafe.txt", false},
		{"ok.txt", false},
		{".", false},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			_, err := ws.resolveRead(tt.arg)
			if got := errors.Is(err, ErrForbiddenRead); got != tt.forbidden {
				t.Fatalf("got forbidden %v (err %v), want %v", got, err, tt.forbidden)
			}
			if tt.forbidden {
				want := `path "` + tt.arg + `" is forbidden by sandbox.forbid_read`
				if err.Error() != want {
					t.Errorf("got %q, want %q", err.Error(), want)
				}
			}
			// Writers resolve without the read check.
			if _, err := ws.resolve(tt.arg); err != nil {
				t.Errorf("resolve: got %v, want nil", err)
			}
		})
	}
}

func TestNewRejectsBadRoot(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, root string }{
		{"relative", "some/dir"},
		{"missing", filepath.Join(t.TempDir(), "nope")},
		{"a file", file},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(Options{Root: tt.root}); err == nil {
				t.Fatalf("got nil error, want one for root %q", tt.root)
			}
		})
	}
}
