package builtin

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/tool"
)

func TestGlobMatcher(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"*.go", "main.go", true},
		{"*.go", "cmd/main.go", false},
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/c/main.go", true},
		{"**/*.go", "a/b/c/main.rs", false},
		{"cmd/**", "cmd/a/b", true},
		{"cmd/**", "cmd", false},
		{"cmd/**/main.go", "cmd/main.go", true},
		{"cmd/**/main.go", "cmd/x/y/main.go", true},
		{"cmd/*/main.go", "cmd/x/y/main.go", false},
		{"a/**/**/b", "a/x/b", true},
		{"**/*.{ts,tsx}", "web/app.tsx", true},
		{"**/*.{ts,tsx}", "web/app.js", false},
		{"{cmd,engine}/**/*_test.go", "engine/tool/x_test.go", true},
		{"src/{a,b{c,d}}.txt", "src/bd.txt", true},
		{"src/{a,b{c,d}}.txt", "src/b.txt", false},
		{"*", ".env", true},
		{"file[0-9].txt", "file7.txt", true},
		{"{unclosed", "{unclosed", true},
		{`\*.txt`, "*.txt", true},
		{`\*.txt`, "a.txt", false},
		{"./a/*.go", "a/b.go", true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.path, func(t *testing.T) {
			m, err := compileGlob(tt.pattern)
			if err != nil {
				t.Fatalf("compileGlob: %v", err)
			}
			if got := m.Match(tt.path); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGlobMatcherErrors(t *testing.T) {
	t.Parallel()
	for _, pattern := range []string{"", "/etc/*", "../*", "a/[", strings.Repeat("{a,b}", 10)} {
		t.Run(pattern, func(t *testing.T) {
			if _, err := compileGlob(pattern); err == nil {
				t.Errorf("got nil error, want one")
			}
		})
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{ForbidRead: []string{"vendor/secret"}})
	writeTree(t, root, map[string]string{
		"main.go":             "",
		"a.go":                "",
		"a/z.go":              "",
		"cmd/tool/main.go":    "",
		"cmd/tool/README.md":  "",
		"vendor/lib/x.go":     "",
		"vendor/secret/s.go":  "",
		".git/hooks/pre.go":   "",
		"sub/.git/obj.go":     "",
		"web/app.tsx":         "",
		"web/deep/util.ts":    "",
		"web/deep/util.css":   "",
		"web/node/.hidden.ts": "",
		"dir.go/inside.txt":   "",
		"spaces in/name x.go": "",
		"unicode/héllo.go":    "",
	})
	mustSymlink(t, t.TempDir(), filepath.Join(root, "linked"))
	glob := tools["glob"]
	tests := []struct {
		name    string
		args    map[string]any
		want    []string
		wantErr bool
	}{
		{name: "top level", args: map[string]any{"pattern": "*.go"}, want: []string{"a.go", "main.go"}},
		{name: "recursive", args: map[string]any{"pattern": "**/*.go"}, want: []string{
			"a/z.go", "a.go", "cmd/tool/main.go", "main.go", "spaces in/name x.go", "unicode/héllo.go", "vendor/lib/x.go"}},
		{name: "under path", args: map[string]any{"pattern": "**/*.ts", "path": "web"}, want: []string{"web/deep/util.ts", "web/node/.hidden.ts"}},
		{name: "braces", args: map[string]any{"pattern": "web/**/*.{ts,tsx}"}, want: []string{"web/app.tsx", "web/deep/util.ts", "web/node/.hidden.ts"}},
		{name: "literal prefix", args: map[string]any{"pattern": "cmd/*/main.go"}, want: []string{"cmd/tool/main.go"}},
		{name: "forbidden subtree skipped", args: map[string]any{"pattern": "vendor/**"}, want: []string{"vendor/lib/x.go"}},
		{name: "walk from forbidden prefix falls back", args: map[string]any{"pattern": "vendor/secret/*"}, want: nil},
		{name: ".git never listed", args: map[string]any{"pattern": ".git/**"}, want: nil},
		{name: "no match", args: map[string]any{"pattern": "**/*.rs"}, want: nil},
		{name: "symlinked dir not followed", args: map[string]any{"pattern": "linked/**"}, want: nil},
		{name: "bad pattern", args: map[string]any{"pattern": "a/["}, wantErr: true},
		{name: "path outside", args: map[string]any{"pattern": "*", "path": "/"}, wantErr: true},
		{name: "path is a file", args: map[string]any{"pattern": "*", "path": "main.go"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, glob, jsonArgs(t, tt.args))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("got %q, want an error", res.Output)
				}
				return
			}
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			want := strings.Join(tt.want, "\n") + "\n"
			if tt.want == nil {
				want = fmt.Sprintf("no files match %s\n", tt.args["pattern"])
			}
			if res.Output != want {
				t.Errorf("got %q, want %q", res.Output, want)
			}
		})
	}
	t.Run("missing pattern", func(t *testing.T) {
		_, err := call(t, glob, `{"path":"."}`)
		var ae *tool.ArgsError
		if !errors.As(err, &ae) {
			t.Fatalf("got %v, want a *tool.ArgsError", err)
		}
	})
}

func TestGlobBounded(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{})
	files := map[string]string{}
	for i := range maxGlobResults + 1 {
		files[fmt.Sprintf("d%d/f%04d.txt", i%3, i)] = ""
	}
	writeTree(t, root, files)
	res, err := call(t, tools["glob"], `{"pattern":"**/*.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n")
	if got, want := len(lines), maxGlobResults+1; got != want {
		t.Fatalf("got %d lines, want %d", got, want)
	}
	if got, want := lines[0], "d0/f0000.txt"; got != want {
		t.Errorf("got first %q, want %q", got, want)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "... more than 1000 files match") {
		t.Errorf("got last line %q, want the truncation note", lines[len(lines)-1])
	}
}
