package builtin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLs(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{ForbidRead: []string{"secret", "src/.env"}})
	writeTree(t, root, map[string]string{
		"b.txt":        "12345",
		"a/x.go":       "",
		".hidden":      "h",
		".git/HEAD":    "ref",
		"secret/key":   "k",
		"src/.env":     "T=1",
		"src/main.go":  "package main\n",
		"empty/.git/x": "",
	})
	mustSymlink(t, "b.txt", filepath.Join(root, "link"))
	ls := tools["ls"]
	tests := []struct {
		name    string
		args    string
		want    string
		wantErr error
	}{
		{"root by default", `{}`, ".hidden (1 bytes)\na/\nb.txt (5 bytes)\nempty/\nlink -> b.txt\nsrc/\n", nil},
		{"root as dot", `{"path":"."}`, ".hidden (1 bytes)\na/\nb.txt (5 bytes)\nempty/\nlink -> b.txt\nsrc/\n", nil},
		{"subdirectory skips forbidden file", `{"path":"src"}`, "main.go (13 bytes)\n", nil},
		{"only .git inside", `{"path":"empty"}`, "(empty directory)\n", nil},
		{"a file", `{"path":"b.txt"}`, "b.txt (5 bytes)\n", nil},
		{"forbidden directory", `{"path":"secret"}`, "", ErrForbiddenRead},
		{"outside", `{"path":".."}`, "", ErrOutsideWorkspace},
		{"missing", `{"path":"nope"}`, "", os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, ls, tt.args)
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
		})
	}
}

func TestLsBounded(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{})
	files := map[string]string{}
	for i := range maxListEntries + 5 {
		files[fmt.Sprintf("f%04d", i)] = ""
	}
	writeTree(t, root, files)
	res, err := call(t, tools["ls"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n")
	if got, want := len(lines), maxListEntries+1; got != want {
		t.Fatalf("got %d lines, want %d", got, want)
	}
	if got, want := lines[len(lines)-1], "... 5 more entries not shown; use glob to narrow down"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
