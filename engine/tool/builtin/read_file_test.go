package builtin

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/tool"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	tools, root := newTestTools(t, Options{ForbidRead: []string{"private"}})
	writeTree(t, root, map[string]string{
		"five.txt":          "one\ntwo\nthree\nfour\nfive\n",
		"crlf.txt":          "a\r\nb",
		"empty.txt":         "",
		"long.txt":          long.String(),
		"bin.dat":           "text\x00more",
		"private/token.txt": "secret",
	})
	read := tools["read_file"]

	tests := []struct {
		name    string
		args    string
		want    string // exact output
		prefix  string // or output prefix
		suffix  string // and suffix
		wantErr error
		errText string
	}{
		{name: "whole file", args: `{"path":"five.txt"}`,
			want: "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive\n"},
		{name: "offset and limit", args: `{"path":"five.txt","offset":2,"limit":2}`,
			want: "     2\ttwo\n     3\tthree\n... 2 more lines; call again with offset=4\n"},
		{name: "offset to the end", args: `{"path":"five.txt","offset":5}`, want: "     5\tfive\n"},
		{name: "crlf and no final newline", args: `{"path":"crlf.txt"}`, want: "     1\ta\n     2\tb\n"},
		{name: "empty file", args: `{"path":"empty.txt"}`, want: "(empty file)\n"},
		{name: "default limit", args: `{"path":"long.txt"}`,
			prefix: "     1\tline 1\n", suffix: "  2000\tline 2000\n... 500 more lines; call again with offset=2001\n"},
		{name: "offset past end", args: `{"path":"five.txt","offset":9}`, errText: "offset 9 is past the end of five.txt (5 lines)"},
		{name: "binary", args: `{"path":"bin.dat"}`, wantErr: ErrBinaryFile},
		{name: "directory", args: `{"path":"private/.."}`, wantErr: ErrIsDir},
		{name: "missing", args: `{"path":"nope.txt"}`, errText: `path "nope.txt" does not exist`},
		{name: "forbidden", args: `{"path":"private/token.txt"}`, wantErr: ErrForbiddenRead},
		{name: "outside", args: `{"path":"../x"}`, wantErr: ErrOutsideWorkspace},
		{name: "absolute inside", args: jsonArgs(t, map[string]any{"path": filepath.Join(root, "five.txt"), "limit": 1}),
			want: "     1\tone\n... 4 more lines; call again with offset=2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, read, tt.args)
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got err %v, want %v", err, tt.wantErr)
				}
				return
			case tt.errText != "":
				if err == nil || err.Error() != tt.errText {
					t.Fatalf("got err %v, want %s", err, tt.errText)
				}
				return
			case err != nil:
				t.Fatalf("got err %v, want nil", err)
			}
			if tt.want != "" && res.Output != tt.want {
				t.Errorf("got %q, want %q", res.Output, tt.want)
			}
			if !strings.HasPrefix(res.Output, tt.prefix) || !strings.HasSuffix(res.Output, tt.suffix) {
				t.Errorf("got %q..%q, want prefix %q and suffix %q", head(res.Output), tail(res.Output), tt.prefix, tt.suffix)
			}
		})
	}
}

func TestReadFileArgs(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{})
	tests := []struct{ name, args string }{
		{"missing path", `{}`},
		{"null path", `{"path":null}`},
		{"unknown field", `{"path":"a","lines":3}`},
		{"wrong type", `{"path":"a","offset":"2"}`},
		{"negative limit", `{"path":"a","limit":-1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, tools["read_file"], tt.args)
			var ae *tool.ArgsError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want a *tool.ArgsError", err)
			}
			if ae.Tool != "read_file" {
				t.Errorf("got tool %q, want read_file", ae.Tool)
			}
		})
	}
}

func TestCutLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"héllo wörld", 5, "héllo [... line cut, 13 bytes total]"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := cutLine(tt.in, tt.n); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func head(s string) string { return s[:min(len(s), 40)] }
func tail(s string) string { return s[max(len(s)-80, 0):] }
