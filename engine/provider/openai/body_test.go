package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider"
)

func sampleRequest() provider.Request {
	return provider.Request{
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Content: "sys <b> & co"},
			{Role: provider.RoleUser, Content: "read a.go"},
			{Role: provider.RoleAssistant, ReasoningContent: "I should read it",
				ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "package a"},
			{Role: provider.RoleAssistant, Content: "done", ReasoningContent: "summarize"},
		},
		Tools: []provider.ToolSpec{
			{Name: "read_file", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
			{Name: "ls", Description: "List"},
		},
	}
}

func TestEncodeRequestIsDeterministic(t *testing.T) {
	req := sampleRequest()
	first, err := encodeRequest("m", req, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		again, err := encodeRequest("m", req, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("got %s, want %s", again, first)
		}
	}
}

func TestEncodeRequestShape(t *testing.T) {
	full, err := encodeRequest("deepseek-chat", sampleRequest(), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"deepseek-chat","messages":[` +
		`{"role":"system","content":"sys <b> & co"},` +
		`{"role":"user","content":"read a.go"},` +
		`{"role":"assistant","content":"","reasoning_content":"I should read it","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]},` +
		`{"role":"tool","content":"package a","tool_call_id":"c1"},` +
		`{"role":"assistant","content":"done"}],` +
		`"tools":[{"type":"function","function":{"name":"read_file","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"ls","description":"List","parameters":{"type":"object","properties":{}}}}],` +
		`"stream":true,"stream_options":{"include_usage":true}}`
	if string(full) != want {
		t.Errorf("got  %s\nwant %s", full, want)
	}

	tests := []struct {
		name        string
		req         provider.Request
		maxOut      int
		contains    []string
		notContains []string
	}{
		{name: "no tools omits tools", req: userRequest("hi"), notContains: []string{`"tools"`, `"tool_choice"`, `"max_tokens"`}},
		{name: "no tools flag", req: provider.Request{NoTools: true, Tools: sampleRequest().Tools},
			contains: []string{`"tool_choice":"none"`, `"tools":[`}},
		{name: "config max tokens", req: userRequest("hi"), maxOut: 4096, contains: []string{`"max_tokens":4096`}},
		{name: "request max tokens wins", req: provider.Request{MaxTokens: 100}, maxOut: 4096,
			contains: []string{`"max_tokens":100`, `"messages":[]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := encodeRequest("m", tt.req, tt.maxOut)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.contains {
				if !strings.Contains(string(b), s) {
					t.Errorf("got %s, want it to contain %s", b, s)
				}
			}
			for _, s := range tt.notContains {
				if strings.Contains(string(b), s) {
					t.Errorf("got %s, want it without %s", b, s)
				}
			}
		})
	}
}
