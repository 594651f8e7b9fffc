package permission

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		kind    ruleKind
		form    bashForm
		words   []string
		literal string
		glob    []string
		tool    string
	}{
		{in: "Bash", kind: kindBash, form: bashAny},
		{in: "Bash(go test:*)", kind: kindBash, form: bashPrefix, words: []string{"go", "test"}},
		{in: "Bash(npm  run build)", kind: kindBash, form: bashExact, words: []string{"npm", "run", "build"}},
		{in: "Bash(npm run test:unit:*)", kind: kindBash, form: bashPrefix, words: []string{"npm", "run", "test:unit"}},
		{in: "Bash=make a && make b", kind: kindBash, form: bashLiteral, literal: "make a && make b"},
		{in: "  Bash= ls | wc  ", kind: kindBash, form: bashLiteral, literal: "ls | wc"},
		{in: "Edit", kind: kindEdit},
		{in: "Edit(docs/**)", kind: kindEdit, glob: []string{"docs", "**"}},
		{in: "Edit(./src//a.go)", kind: kindEdit, glob: []string{"src", "a.go"}},
		{in: "Read(src/*.go)", kind: kindRead, glob: []string{"src", "*.go"}},
		{in: "Read", kind: kindRead},
		{in: "mcp__github__create_pr", kind: kindTool, tool: "mcp__github__create_pr"},
		{in: "deploy", kind: kindTool, tool: "deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			r, err := parseRule(tt.in)
			if err != nil {
				t.Fatalf("parseRule(%q): %v", tt.in, err)
			}
			if r.kind != tt.kind || r.form != tt.form || !reflect.DeepEqual(r.words, tt.words) ||
				r.literal != tt.literal || !reflect.DeepEqual(r.glob, tt.glob) || r.tool != tt.tool {
				t.Errorf("got %+v", r)
			}
		})
	}
}

func TestParseRuleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in  string
		msg string // substring of the message
	}{
		{in: "", msg: "empty rule"},
		{in: "Bash(", msg: "closing"},
		{in: "Bash()", msg: "empty parentheses"},
		{in: "Bash(:*)", msg: "no command"},
		{in: "Bash(rm -rf*)", msg: "wildcards"},
		{in: "Bash(go test *)", msg: "wildcards"},
		{in: "Bash(ls; rm)", msg: "Bash=<command>"},
		{in: "Bash($(x):*)", msg: "Bash=<command>"},
		{in: "Bash=", msg: "exact command"},
		{in: "Edit(../x)", msg: "'..'"},
		{in: "Edit(docs/../../x)", msg: "'..'"},
		{in: "Edit(/etc/passwd)", msg: "relative"},
		{in: "Read(~/.ssh)", msg: "relative"},
		{in: "Edit(./)", msg: "empty path"},
		{in: "Edit(a**/b)", msg: "whole path segment"},
		{in: "Edit([)", msg: "bad pattern"},
		{in: "deploy(prod)", msg: "only Bash, Edit and Read"},
		{in: "bash", msg: "capital B"},
		{in: "write_file", msg: "Edit family"},
		{in: "grep", msg: "Read family"},
		{in: "Bash rm", msg: "unknown rule form"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			_, err := parseRule(tt.in)
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RuleError", err)
			}
			if re.Rule != tt.in || !strings.Contains(re.Msg, tt.msg) {
				t.Errorf("got %q (rule %q), want a message containing %q", re.Msg, re.Rule, tt.msg)
			}
		})
	}
}

func TestGlobMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, path string
		want       bool
	}{
		{"Edit(docs/**)", "docs", true},
		{"Edit(docs/**)", "docs/a/b.md", true},
		{"Edit(docs/**)", "docsx/a", false},
		{"Edit(**/*.go)", "a.go", true},
		{"Edit(**/*.go)", "x/y/a.go", true},
		{"Edit(**/*.go)", "x/y/a.md", false},
		{"Edit(src/**/test/*.go)", "src/test/a.go", true},
		{"Edit(src/**/test/*.go)", "src/a/b/test/a.go", true},
		{"Edit(*.md)", "a/b.md", false},
		{`Edit(a\*.md)`, "a*.md", true},
		{`Edit(a\*.md)`, "ab.md", false},
		{"Edit(a?.md)", "ab.md", true},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			r, err := parseRule(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.matchPath(resolvePath(testRoot, tt.path)); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
