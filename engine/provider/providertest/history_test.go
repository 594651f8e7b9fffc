package providertest

import (
	"strings"
	"testing"
)

func TestCheckToolResults(t *testing.T) {
	call := func(ids ...string) Message {
		m := Message{Role: "assistant"}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, MessageToolCall{ID: id, Type: "function"})
		}
		return m
	}
	result := func(id string) Message { return Message{Role: "tool", ToolCallID: id} }
	user := Message{Role: "user", Content: "go"}
	tests := []struct {
		name string
		msgs []Message
		want string
	}{
		{"valid", []Message{user, call("a", "b"), result("a"), result("b"), user}, ""},
		{"unanswered at the end", []Message{user, call("a", "b"), result("a")}, "unanswered"},
		{"unanswered before a user message", []Message{user, call("a"), user}, "unanswered"},
		{"orphan result", []Message{user, result("x")}, "must be a response"},
	}
	for _, tt := range tests {
		got := checkToolResults(tt.msgs)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
