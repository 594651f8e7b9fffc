package bots_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reasonix/teams/bots"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		max  int
		want []string
	}{
		{name: "empty", text: "", max: 10, want: nil},
		{name: "fits", text: "hello", max: 10, want: []string{"hello"}},
		{name: "no limit", text: "hello", max: 0, want: []string{"hello"}},
		{name: "paragraphs", text: "aaaa\n\nbbbb\n\ncccc", max: 10, want: []string{"aaaa\n\nbbbb", "cccc"}},
		{name: "lines", text: "one\ntwo\nthree\nfour", max: 9, want: []string{"one\ntwo", "three", "four"}},
		{name: "words", text: "the quick brown fox", max: 10, want: []string{"the quick", "brown fox"}},
		{name: "hard", text: "abcdefghij", max: 4, want: []string{"abcd", "efgh", "ij"}},
		{name: "multi-byte runes", text: "ééééé", max: 5, want: []string{"éé", "éé", "é"}},
		{name: "four-byte runes under a tiny max", text: "😀😀", max: 2, want: []string{"😀", "😀"}},
		{
			name: "paragraph preferred over a later line break",
			text: "intro line\n\nsecond para line one\nline two",
			max:  36,
			want: []string{"intro line\n\nsecond para line one", "line two"},
		},
		{
			name: "code block reopened with its info string",
			text: "```go\nfunc a() {}\nfunc b() {}\nfunc c() {}\n```",
			max:  34,
			want: []string{"```go\nfunc a() {}\nfunc b() {}\n```", "```go\nfunc c() {}\n```"},
		},
		{
			name: "cut before a code block rather than after its opening line",
			text: "some words here\n```\n" + strings.Repeat("z", 40) + "\n```",
			max:  30,
			want: []string{"some words here", "```\n" + strings.Repeat("z", 22) + "\n```", "```\n" + strings.Repeat("z", 18) + "\n```"},
		},
		{
			name: "closing fence at a cut is not repeated",
			text: "```\n" + strings.Repeat("a", 20) + "\n```\nafter the block",
			max:  30,
			want: []string{"```\n" + strings.Repeat("a", 20) + "\n```", "after the block"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := bots.Split(tt.text, tt.max)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSplitProperties checks on bigger texts that every chunk fits, is
// valid UTF-8, keeps its code fences balanced, and that nothing but
// whitespace and fence lines is lost or added.
func TestSplitProperties(t *testing.T) {
	t.Parallel()
	var code strings.Builder
	code.WriteString("Here is the fix:\n\n```go\n")
	for i := range 300 {
		fmt.Fprintf(&code, "\tx%d := compute(%d) // ünïcödé\n", i, i)
		if i%40 == 39 {
			code.WriteString("\n")
		}
	}
	code.WriteString("```\n\nAnd the log:\n\n```\n" + strings.Repeat("log line with words\n", 100) + "```\nDone.")

	tests := []struct {
		name string
		text string
		max  int
	}{
		{name: "long code blocks", text: code.String(), max: 500},
		{name: "long code blocks, discord limit", text: code.String(), max: 2000},
		{name: "single giant line", text: strings.Repeat("x", 10000), max: 2000},
		{name: "giant line of multi-byte runes", text: strings.Repeat("日本語", 3000), max: 1000},
		{name: "giant line inside a code block", text: "```text\n" + strings.Repeat("y", 5000) + "\n```", max: 700},
		{name: "paragraphs of prose", text: strings.Repeat("A sentence with some words. Another one here.\n\n", 200), max: 300},
		{name: "unclosed code block", text: "```sh\n" + strings.Repeat("echo hi\n", 200), max: 256},
		{name: "four backtick fence", text: "````md\n```go\nx\n```\n" + strings.Repeat("text\n", 100) + "````", max: 64},
		{name: "leading blank lines", text: strings.Repeat("\n", 50) + strings.Repeat("word ", 100), max: 64},
		{name: "tiny max with a fence", text: "```go\n" + strings.Repeat("ab\n", 20) + "```", max: 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			chunks := bots.Split(tt.text, tt.max)
			if len(chunks) < 2 {
				t.Fatalf("got %d chunks, want a split", len(chunks))
			}
			for i, c := range chunks {
				if len(c) > tt.max {
					t.Errorf("chunk %d: got %d bytes, want at most %d", i, len(c), tt.max)
				}
				if !utf8.ValidString(c) {
					t.Errorf("chunk %d: invalid UTF-8", i)
				}
				if strings.TrimSpace(c) == "" {
					t.Errorf("chunk %d: blank", i)
				}
			}
			if got, want := stripFences(strings.Join(chunks, "\n")), stripFences(tt.text); got != want {
				t.Errorf("content changed:\ngot  %.200q\nwant %.200q", got, want)
			}
		})
	}
}

func TestSplitBalancesFences(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("intro\n\n```go\n")
	for i := range 200 {
		fmt.Fprintf(&b, "fmt.Println(%d)\n", i)
	}
	b.WriteString("```\n\noutro")
	chunks := bots.Split(b.String(), 400)
	for i, c := range chunks {
		lines := strings.Split(c, "\n")
		fences := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "```") {
				fences++
			}
		}
		if fences%2 != 0 {
			t.Errorf("chunk %d: got %d fence lines, want an even number:\n%s", i, fences, c)
		}
		inCode := i > 0 && i < len(chunks)-1
		if inCode && !strings.HasPrefix(c, "```go\n") {
			t.Errorf("chunk %d: got %.20q, want it to reopen the go block", i, c)
		}
		if inCode && !strings.HasSuffix(c, "\n```") {
			t.Errorf("chunk %d: got ending %q, want a closing fence", i, c[max(0, len(c)-20):])
		}
	}
}

// stripFences drops fence lines and all whitespace, leaving the content
// that splitting must keep.
func stripFences(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		for _, f := range strings.Fields(line) {
			b.WriteString(f)
		}
	}
	return b.String()
}
