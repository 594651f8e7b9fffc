package builtin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{})
	outside := t.TempDir()
	writeTree(t, root, map[string]string{"exists.sh": "old", "target.txt": "old", "dir/keep": ""})
	if err := os.Chmod(filepath.Join(root, "exists.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "target.txt", filepath.Join(root, "link.txt"))
	mustSymlink(t, outside, filepath.Join(root, "out"))
	write := tools["write_file"]

	tests := []struct {
		name     string
		path     string
		content  string
		want     string
		wantMode os.FileMode
		check    string // file whose content must equal content afterwards
		wantErr  error
	}{
		{name: "create with parents", path: "new/deep/file.txt", content: "hello",
			want: "created new/deep/file.txt (5 bytes)", wantMode: 0o644, check: "new/deep/file.txt"},
		{name: "overwrite keeps mode", path: "exists.sh", content: "#!/bin/sh\n",
			want: "overwrote exists.sh (10 bytes)", wantMode: 0o750, check: "exists.sh"},
		{name: "empty content", path: "empty.txt", content: "", want: "created empty.txt (0 bytes)", wantMode: 0o644, check: "empty.txt"},
		{name: "through symlink inside writes the target", path: "link.txt", content: "via link",
			want: "overwrote link.txt (8 bytes)", wantMode: 0o644, check: "target.txt"},
		{name: "directory", path: "dir", content: "x", wantErr: ErrIsDir},
		{name: "escape", path: "../evil.txt", content: "x", wantErr: ErrOutsideWorkspace},
		{name: "symlinked parent out", path: "out/evil.txt", content: "x", wantErr: ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, write, jsonArgs(t, map[string]any{"path": tt.path, "content": tt.content}))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got err %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			if res.Output != tt.want {
				t.Errorf("got %q, want %q", res.Output, tt.want)
			}
			p := filepath.Join(root, tt.check)
			if got := readString(t, p); got != tt.content {
				t.Errorf("got content %q, want %q", got, tt.content)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tt.wantMode {
				t.Errorf("got mode %v, want %v", got, tt.wantMode)
			}
		})
	}

	t.Run("symlink stays a symlink", func(t *testing.T) {
		fi, err := os.Lstat(filepath.Join(root, "link.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("got mode %v, want a symlink", fi.Mode())
		}
	})
	t.Run("no temporary files left", func(t *testing.T) {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), ".tmp-") {
				t.Errorf("got leftover %q, want none", p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("got %d files outside, want 0", len(entries))
		}
	})
	t.Run("missing content", func(t *testing.T) {
		if _, err := call(t, write, `{"path":"x.txt"}`); err == nil {
			t.Fatal("got nil error, want an ArgsError")
		}
	})
}
