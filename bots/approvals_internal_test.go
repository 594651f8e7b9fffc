package bots

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChangePreview(t *testing.T) {
	tests := []struct {
		name, tool, args, want string
	}{
		{"edit", "edit_file", `{"path":"a.go","old_string":"x := 1\ny := 2","new_string":"x := 3"}`, "-x := 1\n-y := 2\n+x := 3"},
		{"write", "write_file", `{"path":"a.txt","content":"hi\n"}`, "+hi"},
		{"bash has none", "bash", `{"command":"ls"}`, ""},
		{"malformed", "edit_file", `{"path":`, ""},
	}
	for _, tt := range tests {
		if got := changePreview(tt.tool, tt.args); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	long := changePreview("write_file", `{"path":"a","content":"`+strings.Repeat("x", 5000)+`"}`)
	if len(long) > maxPreview+100 || !strings.Contains(long, "more characters") {
		t.Errorf("long preview not bounded: %d bytes", len(long))
	}
}

func TestPreviewsNeverSplitACharacter(t *testing.T) {
	long := "a" + strings.Repeat("é", 400) // odd offset: a byte cut would split a character
	for name, got := range map[string]string{
		"previewLine": previewLine(long),
		"firstLine":   firstLine(long, 72),
		"approval":    approvalText(Approval{Tool: "bash", Subject: "a" + strings.Repeat("日本", 1000), Rule: "r"}, ""),
	} {
		if !utf8.ValidString(got) || !strings.Contains(got, "…") {
			t.Errorf("%s: %q is not valid UTF-8 or was not clipped", name, got)
		}
	}
}
