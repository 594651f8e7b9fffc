package builtin

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/teams/engine/tool"
)

func TestEditFile(t *testing.T) {
	t.Parallel()
	const original = "package main\n\nfunc a() {}\n\nfunc b() {}\n\nfunc a2() {}\n"
	tests := []struct {
		name       string
		args       map[string]any
		want       string // output
		wantFile   string // content afterwards (unchanged on error)
		wantErr    error
		wantErrMsg string
		wantArgs   bool // a *tool.ArgsError
	}{
		{name: "unique", args: map[string]any{"old_string": "func b() {}", "new_string": "func b() { return }"},
			want:     "edited main.go: replaced 1 occurrence, first at line 5",
			wantFile: "package main\n\nfunc a() {}\n\nfunc b() { return }\n\nfunc a2() {}\n"},
		{name: "multiline", args: map[string]any{"old_string": "func a() {}\n\nfunc b", "new_string": "func b"},
			want:     "edited main.go: replaced 1 occurrence, first at line 3",
			wantFile: "package main\n\nfunc b() {}\n\nfunc a2() {}\n"},
		{name: "not found", args: map[string]any{"old_string": "func c()", "new_string": "x"},
			wantErrMsg: "old_string not found in main.go"},
		{name: "not unique", args: map[string]any{"old_string": "func a", "new_string": "func z"},
			wantErrMsg: "old_string occurs 2 times in main.go; add surrounding lines to make it unique or set replace_all"},
		{name: "replace all", args: map[string]any{"old_string": "func a", "new_string": "func z", "replace_all": true},
			want:     "edited main.go: replaced 2 occurrences, first at line 3",
			wantFile: "package main\n\nfunc z() {}\n\nfunc b() {}\n\nfunc z2() {}\n"},
		{name: "same strings", args: map[string]any{"old_string": "func a", "new_string": "func a"}, wantArgs: true},
		{name: "empty old_string", args: map[string]any{"old_string": "", "new_string": "x"}, wantArgs: true},
		{name: "missing new_string", args: map[string]any{"old_string": "func a"}, wantArgs: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tools, root := newTestTools(t, Options{})
			writeTree(t, root, map[string]string{"main.go": original})
			if err := os.Chmod(filepath.Join(root, "main.go"), 0o600); err != nil {
				t.Fatal(err)
			}
			tt.args["path"] = "main.go"
			res, err := call(t, tools["edit_file"], jsonArgs(t, tt.args))
			got := readString(t, filepath.Join(root, "main.go"))
			switch {
			case tt.wantArgs:
				var ae *tool.ArgsError
				if !errors.As(err, &ae) {
					t.Fatalf("got %v, want a *tool.ArgsError", err)
				}
			case tt.wantErrMsg != "":
				var me *MatchError
				if !errors.As(err, &me) || err.Error() != tt.wantErrMsg {
					t.Fatalf("got %v, want MatchError %q", err, tt.wantErrMsg)
				}
			case err != nil:
				t.Fatalf("got err %v, want nil", err)
			default:
				if res.Output != tt.want {
					t.Errorf("got %q, want %q", res.Output, tt.want)
				}
				if got != tt.wantFile {
					t.Errorf("got file %q, want %q", got, tt.wantFile)
				}
				fi, _ := os.Stat(filepath.Join(root, "main.go"))
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("got mode %v, want 0600", fi.Mode().Perm())
				}
				return
			}
			if got != original {
				t.Errorf("got file %q after a failed edit, want it unchanged", got)
			}
		})
	}
}

func TestEditFileRefusals(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{ForbidRead: []string{".env"}})
	writeTree(t, root, map[string]string{".env": "TOKEN=abc", "bin": "a\x00b"})
	tests := []struct {
		name, path string
		wantErr    error
	}{
		{"forbidden", ".env", ErrForbiddenRead},
		{"binary", "bin", ErrBinaryFile},
		{"missing", "nope.go", os.ErrNotExist},
		{"outside", "/etc/hostname", ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, tools["edit_file"], jsonArgs(t, map[string]any{"path": tt.path, "old_string": "a", "new_string": "b"}))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}
