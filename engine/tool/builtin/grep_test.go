package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/tool"
)

// grepFixture builds a tree exercising everything both scanners must agree
// on, and returns its grep tool (native) and root.
func grepFixture(t *testing.T) (*grepTool, string) {
	t.Helper()
	root := t.TempDir()
	many := strings.Repeat("needle many\n", 30)
	writeTree(t, root, map[string]string{
		"a.go":                "package a\n// needle here\nfunc Needle() {}\n",
		"a/b.go":              "needle in a dir\n",
		"a/c.txt":             "no match\nstill nothing\nneedle last line without newline",
		".hidden/h.go":        "needle hidden\n",
		".git/config":         "needle in git\n",
		"sub/.git":            "gitdir: needle\n",
		"bin.dat":             "needle\x00binary\n",
		"crlf.txt":            "needle crlf\r\nother\r\n",
		"secret/token":        "needle secret\n",
		"docs/guide.md":       "A Needle in docs\n",
		"docs/deep/notes.md":  "needle deep\n",
		"many/m.txt":          many,
		"colon:name.txt":      "needle: with colons: inside\n",
		"unicode/ünï.txt":     "needle ünïcode ✓\n",
		"long/line.txt":       "needle " + strings.Repeat("x", 1000) + "\n",
		"[weird]/brackets.go": "needle brackets\n",
	})
	mustSymlink(t, "a.go", filepath.Join(root, "link.go"))
	tools, _ := newTestTools(t, Options{Root: root, ForbidRead: []string{"secret", "[weird]"}})
	g := tools["grep"].(*grepTool)
	return &grepTool{ws: g.ws}, root
}

var grepCases = []struct {
	name string
	args map[string]any
	want string // for the native scanner; rg must give the same
}{
	{name: "everything", args: map[string]any{"pattern": "needle", "max_results": 5},
		want: ".hidden/h.go:1:needle hidden\n" +
			"a/b.go:1:needle in a dir\n" +
			"a/c.txt:3:needle last line without newline\n" +
			"a.go:2:// needle here\n" +
			"colon:name.txt:1:needle: with colons: inside\n" +
			"... results stop at 5 matching lines; narrow the pattern, path or glob, or raise max_results\n"},
	{name: "ignore case under path", args: map[string]any{"pattern": "needle", "ignore_case": true, "path": "docs"},
		want: "docs/deep/notes.md:1:needle deep\ndocs/guide.md:1:A Needle in docs\n"},
	{name: "name glob", args: map[string]any{"pattern": "needle", "glob": "*.go"},
		want: ".hidden/h.go:1:needle hidden\na/b.go:1:needle in a dir\na.go:2:// needle here\n"},
	{name: "path glob", args: map[string]any{"pattern": "needle", "glob": "deep/**", "path": "docs"},
		want: "docs/deep/notes.md:1:needle deep\n"},
	{name: "regexp", args: map[string]any{"pattern": `^func \w+\(\)`},
		want: "a.go:3:func Needle() {}\n"},
	{name: "unicode", args: map[string]any{"pattern": "ünï.*✓"},
		want: "unicode/ünï.txt:1:needle ünïcode ✓\n"},
	{name: "long line cut", args: map[string]any{"pattern": "needle x+", "path": "long"},
		want: "long/line.txt:1:needle " + strings.Repeat("x", 293) + " [... line cut, 1007 bytes total]\n"},
	{name: "truncated at max", args: map[string]any{"pattern": "many", "max_results": 2},
		want: "many/m.txt:1:needle many\nmany/m.txt:2:needle many\n" +
			"... results stop at 2 matching lines; narrow the pattern, path or glob, or raise max_results\n"},
	{name: "all of it", args: map[string]any{"pattern": "needle", "max_results": 100},
		want: ".hidden/h.go:1:needle hidden\n" +
			"a/b.go:1:needle in a dir\n" +
			"a/c.txt:3:needle last line without newline\n" +
			"a.go:2:// needle here\n" +
			"colon:name.txt:1:needle: with colons: inside\n" +
			"crlf.txt:1:needle crlf\n" +
			"docs/deep/notes.md:1:needle deep\n" +
			"long/line.txt:1:needle " + strings.Repeat("x", 293) + " [... line cut, 1007 bytes total]\n" +
			manyLines(30) +
			"unicode/ünï.txt:1:needle ünïcode ✓\n"},
	{name: "no match", args: map[string]any{"pattern": "absent"}, want: "no matches for absent\n"},
	{name: "dash pattern", args: map[string]any{"pattern": "-x"}, want: "no matches for -x\n"},
	{name: "single file", args: map[string]any{"pattern": "needle", "path": "a/c.txt"},
		want: "a/c.txt:3:needle last line without newline\n"},
}

// manyLines is the expected output for many/m.txt's first n lines.
func manyLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "many/m.txt:%d:needle many\n", i)
	}
	return b.String()
}

func runGrep(t *testing.T, g *grepTool, args map[string]any) (string, error) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Execute(context.Background(), b)
	return res.Output, err
}

func TestGrepNative(t *testing.T) {
	t.Parallel()
	g, _ := grepFixture(t)
	for _, tt := range grepCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runGrep(t, g, tt.args)
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestGrepRipgrepMatchesNative(t *testing.T) {
	t.Parallel()
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	native, _ := grepFixture(t)
	withRg := &grepTool{ws: native.ws, rgPath: rg}
	for _, tt := range grepCases {
		t.Run(tt.name, func(t *testing.T) {
			want, err := runGrep(t, native, tt.args)
			if err != nil {
				t.Fatalf("native: %v", err)
			}
			got, err := runGrep(t, withRg, tt.args)
			if err != nil {
				t.Fatalf("rg: %v", err)
			}
			if got != want {
				t.Errorf("rg gave\n%s\nnative gave\n%s", got, want)
			}
		})
	}
}

func TestGrepErrors(t *testing.T) {
	t.Parallel()
	g, _ := grepFixture(t)
	tests := []struct {
		name     string
		args     map[string]any
		wantErr  error
		wantArgs bool
	}{
		{name: "bad regexp", args: map[string]any{"pattern": "a("}, wantArgs: true},
		{name: "empty pattern", args: map[string]any{"pattern": ""}, wantArgs: true},
		{name: "missing pattern", args: map[string]any{"path": "."}, wantArgs: true},
		{name: "negative max", args: map[string]any{"pattern": "a", "max_results": -1}, wantArgs: true},
		{name: "bad glob", args: map[string]any{"pattern": "a", "glob": "[x"}, wantArgs: true},
		{name: "forbidden path", args: map[string]any{"pattern": "a", "path": "secret/token"}, wantErr: ErrForbiddenRead},
		{name: "outside", args: map[string]any{"pattern": "a", "path": "../.."}, wantErr: ErrOutsideWorkspace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runGrep(t, g, tt.args)
			if tt.wantArgs {
				var ae *tool.ArgsError
				if !errors.As(err, &ae) {
					t.Fatalf("got %v, want a *tool.ArgsError", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestPathLess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"a/b", "a.go", true},
		{"a.go", "a/b", false},
		{"a", "a/b", true},
		{"a/b", "a/c", true},
		{"B", "a", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s<%s", tt.a, tt.b), func(t *testing.T) {
			if got := pathLess(tt.a, tt.b); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
