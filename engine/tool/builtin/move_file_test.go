package builtin

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestMoveFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		src, dst string
		want     string
		gone     string // must not exist afterwards
		exists   string // must exist afterwards
		wantErr  error
	}{
		{name: "rename", src: "a.txt", dst: "b.txt", want: "moved a.txt to b.txt", gone: "a.txt", exists: "b.txt"},
		{name: "into new dirs", src: "a.txt", dst: "x/y/a.txt", want: "moved a.txt to x/y/a.txt", gone: "a.txt", exists: "x/y/a.txt"},
		{name: "directory", src: "dir", dst: "moved", want: "moved dir to moved", gone: "dir", exists: "moved/f.txt"},
		{name: "symlink moves itself", src: "link", dst: "link2", want: "moved link to link2", gone: "link", exists: "a.txt"},
		{name: "refuse overwrite", src: "a.txt", dst: "other.txt", wantErr: fs.ErrExist},
		{name: "refuse existing dir", src: "a.txt", dst: "dir", wantErr: fs.ErrExist},
		{name: "missing source", src: "nope", dst: "z", wantErr: fs.ErrNotExist},
		{name: "destination outside", src: "a.txt", dst: "../a.txt", wantErr: ErrOutsideWorkspace},
		{name: "source outside", src: "/etc/hostname", dst: "h", wantErr: ErrOutsideWorkspace},
		{name: "forbidden source", src: "secret/key", dst: "key", wantErr: ErrForbiddenRead},
		{name: "dir holding forbidden", src: "holder", dst: "h2", wantErr: ErrForbiddenRead},
		{name: "into itself", src: "dir", dst: "dir/sub/dir", wantErr: fs.ErrInvalid},
		{name: "root", src: ".", dst: "r", wantErr: fs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tools, root := newTestTools(t, Options{ForbidRead: []string{"secret", "holder/inner/.env"}})
			writeTree(t, root, map[string]string{
				"a.txt": "a", "other.txt": "o", "dir/f.txt": "f", "secret/key": "k", "holder/inner/.env": "e",
			})
			mustSymlink(t, "a.txt", filepath.Join(root, "link"))
			res, err := call(t, tools["move_file"], jsonArgs(t, map[string]any{"source": tt.src, "destination": tt.dst}))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got err %v, want %v", err, tt.wantErr)
				}
				if got := readString(t, filepath.Join(root, "other.txt")); got != "o" {
					t.Errorf("got other.txt %q, want it untouched", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			if res.Output != tt.want {
				t.Errorf("got %q, want %q", res.Output, tt.want)
			}
			if _, err := os.Lstat(filepath.Join(root, tt.gone)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("got %v for %s, want it gone", err, tt.gone)
			}
			if _, err := os.Lstat(filepath.Join(root, tt.exists)); err != nil {
				t.Errorf("got %v for %s, want it present", err, tt.exists)
			}
		})
	}
}
