package slack

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

func TestSplitSections(t *testing.T) {
	t.Parallel()
	para := strings.Repeat("word ", 19) + "end" // 98 chars
	tests := []struct {
		name  string
		in    string
		limit int
		want  []string
	}{
		{"empty", "  \n", 100, nil},
		{"fits", "short", 100, []string{"short"}},
		{"paragraphs", para + "\n\n" + para, 150, []string{para + "\n", para}},
		{"lines", "aaaaaaaa\nbbbbbbbb\ncccccccc", 20, []string{"aaaaaaaa", "bbbbbbbb", "cccccccc"}},
		{"long line cut hard", strings.Repeat("x", 25), 20, []string{strings.Repeat("x", 11), strings.Repeat("x", 11), "xxx"}},
		{"fence reopened", "```\n" + strings.Repeat("l\n", 10) + "```", 20,
			[]string{"```\nl\nl\nl\nl\n```", "```\nl\nl\nl\nl\nl\nl\n```"}},
		{"fence closed in the next piece", "```\n" + strings.Repeat("l\n", 4) + "```\nafter", 20,
			[]string{"```\nl\nl\nl\nl\n```", "after"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := splitSections(tt.in, tt.limit)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("splitSections: got %q, want %q", got, tt.want)
			}
			for _, p := range got {
				if textLen(p) > tt.limit {
					t.Errorf("piece of %d chars over the limit %d: %q", textLen(p), tt.limit, p)
				}
			}
		})
	}
}

func TestTruncateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		limit int
		want  string
	}{
		{"short", "abc", 5, "abc"},
		{"cut", "abcdef", 4, "abcd"},
		{"not inside an entity", "ab&amp;cd", 5, "ab"},
		{"astral counts two", "a😀b", 2, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := truncateText(tt.in, tt.limit); got != tt.want {
				t.Errorf("truncateText(%q, %d): got %q, want %q", tt.in, tt.limit, got, tt.want)
			}
		})
	}
}

func TestRenderStaysWithinBlockLimits(t *testing.T) {
	t.Parallel()
	var buttons []bots.Button
	for i := range 30 {
		buttons = append(buttons, bots.Button{ActionID: "a" + strings.Repeat("x", i), Label: strings.Repeat("L", 100), Value: "v"})
	}
	r := render(bots.Message{Text: strings.Repeat("<&>", 60000), Buttons: buttons})
	if len(r.blocks) != 50 {
		t.Errorf("blocks: got %d, want exactly 50 (48 sections, 2 actions)", len(r.blocks))
	}
	for i, b := range r.blocks {
		switch blk := b.(type) {
		case *slack.SectionBlock:
			if n := textLen(blk.Text.Text); n > 3000 {
				t.Errorf("section %d: got %d chars, want at most 3000", i, n)
			}
		case *slack.ActionBlock:
			if n := len(blk.Elements.ElementSet); n > 25 {
				t.Errorf("actions %d: got %d elements, want at most 25", i, n)
			}
			for _, e := range blk.Elements.ElementSet {
				if n := textLen(e.(*slack.ButtonBlockElement).Text.Text); n > 75 {
					t.Errorf("button label: got %d chars, want at most 75", n)
				}
			}
		}
	}
	last := r.blocks[47].(*slack.SectionBlock).Text.Text
	if !strings.HasSuffix(last, truncatedNote) {
		t.Errorf("last section: got ...%q, want the truncation note", last[len(last)-30:])
	}
	if textLen(r.fallback) > 3000 {
		t.Errorf("fallback: got %d chars, want at most 3000", textLen(r.fallback))
	}
}
