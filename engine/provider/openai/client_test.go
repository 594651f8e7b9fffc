package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
)

func TestStreamTextAndReasoning(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	fake.Enqueue(providertest.Turn{
		Reasoning: []string{"Let me ", "think."},
		Text:      []string{"Hello", ", ", "world"},
		KeepAlive: true,
	})
	c, sleeps := newTestClient(t, fake.URL(), nil)
	var deltas deltaLog
	resp, err := c.Stream(context.Background(), userRequest("hi"), deltas.add)
	if err != nil {
		t.Fatal(err)
	}
	want := provider.Message{Role: provider.RoleAssistant, Content: "Hello, world", ReasoningContent: "Let me think."}
	if !reflect.DeepEqual(resp.Message, want) {
		t.Errorf("got %+v, want %+v", resp.Message, want)
	}
	if resp.FinishReason != "stop" || resp.Attempts != 1 {
		t.Errorf("got finish %q attempts %d, want stop 1", resp.FinishReason, resp.Attempts)
	}
	wantDeltas := []provider.Delta{
		{Kind: provider.DeltaReasoning, Text: "Let me "}, {Kind: provider.DeltaReasoning, Text: "think."},
		{Kind: provider.DeltaText, Text: "Hello"}, {Kind: provider.DeltaText, Text: ", "}, {Kind: provider.DeltaText, Text: "world"},
	}
	if got := deltas.all(); !reflect.DeepEqual(got, wantDeltas) {
		t.Errorf("got deltas %+v, want %+v", got, wantDeltas)
	}
	if resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens != 7 || resp.Usage.ReasoningTokens != 4 {
		t.Errorf("got usage %+v, want prompt > 0, completion 7 (25 bytes), reasoning 4", resp.Usage)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("got Authorization %q, want the bearer key", got)
	}
	if r.Path != "/v1/chat/completions" || r.Model != "deepseek-chat" || !r.Stream || !r.IncludeUsage {
		t.Errorf("got path %q model %q stream %v usage %v", r.Path, r.Model, r.Stream, r.IncludeUsage)
	}
	if len(sleeps.all()) != 0 {
		t.Errorf("got sleeps %v, want none", sleeps.all())
	}
}

func TestStreamToolCalls(t *testing.T) {
	t.Parallel()
	calls := []providertest.ToolCall{
		{ID: "call_1", Name: "read_file", Arguments: `{"path":"engine/provider/provider.go","limit":200}`},
		{ID: "call_2", Name: "grep", Arguments: `{"pattern":"func (c \*Client)","glob":"**/*.go","note":"naïve ünïcode"}`},
	}
	tests := []struct {
		name      string
		malformed bool
		wantArgs  []string
	}{
		{name: "split arguments", wantArgs: []string{calls[0].Arguments, calls[1].Arguments}},
		{name: "malformed arguments verbatim", malformed: true,
			wantArgs: []string{strings.TrimSuffix(calls[0].Arguments, "}"), strings.TrimSuffix(calls[1].Arguments, "}")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t)
			fake.Enqueue(providertest.Turn{Reasoning: []string{"need files"}, ToolCalls: calls, MalformedArgs: tt.malformed})
			c, _ := newTestClient(t, fake.URL(), nil)
			resp, err := c.Stream(context.Background(), userRequest("look"), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []provider.ToolCall
			for i, want := range tt.wantArgs {
				got = append(got, provider.ToolCall{ID: calls[i].ID, Name: calls[i].Name, Arguments: want})
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls, got) {
				t.Errorf("got %+v, want %+v", resp.Message.ToolCalls, got)
			}
			if resp.FinishReason != "tool_calls" {
				t.Errorf("got finish %q, want tool_calls", resp.FinishReason)
			}
			if valid := json.Valid([]byte(resp.Message.ToolCalls[0].Arguments)); valid == tt.malformed {
				t.Errorf("got valid JSON %v, want %v", valid, !tt.malformed)
			}
		})
	}
}

func TestStreamUsageOverride(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		usage string
		want  provider.Usage
	}{
		{name: "deepseek fields", usage: `{"prompt_tokens":500,"completion_tokens":9,"prompt_cache_hit_tokens":448,"prompt_cache_miss_tokens":52}`,
			want: provider.Usage{PromptTokens: 500, CacheHitTokens: 448, CacheMissTokens: 52, CompletionTokens: 9}},
		{name: "cached tokens fallback", usage: `{"prompt_tokens":500,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":384},"completion_tokens_details":{"reasoning_tokens":3}}`,
			want: provider.Usage{PromptTokens: 500, CacheHitTokens: 384, CacheMissTokens: 116, CompletionTokens: 9, ReasoningTokens: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t)
			fake.Enqueue(providertest.Turn{Text: []string{"ok"}, Usage: json.RawMessage(tt.usage)})
			c, _ := newTestClient(t, fake.URL(), nil)
			resp, err := c.Stream(context.Background(), userRequest("hi"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Usage != tt.want {
				t.Errorf("got %+v, want %+v", resp.Usage, tt.want)
			}
		})
	}
}

func TestRequestBodiesAreByteIdentical(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	fake.Enqueue(providertest.Turn{Text: []string{"a"}}, providertest.Turn{Text: []string{"b"}})
	c, _ := newTestClient(t, fake.URL(), func(cfg *provider.Config) { cfg.MaxOutputTokens = 8192 })
	req := sampleRequest()
	for i := 0; i < 2; i++ {
		if _, err := c.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := fake.Requests()
	if !bytes.Equal(reqs[0].Body, reqs[1].Body) {
		t.Errorf("got different bodies:\n%s\n%s", reqs[0].Body, reqs[1].Body)
	}
	if reqs[0].MaxTokens != 8192 {
		t.Errorf("got max_tokens %d, want 8192", reqs[0].MaxTokens)
	}
	msgs := reqs[0].Messages
	if got := msgs[2].ReasoningContent; got != "I should read it" {
		t.Errorf("got reasoning %q on the tool-calling turn, want it replayed", got)
	}
	if got := msgs[2].ToolCalls; len(got) != 1 || got[0].Type != "function" || got[0].Function.Name != "read_file" {
		t.Errorf("got tool calls %+v, want one read_file function call", got)
	}
	if got := msgs[3].ToolCallID; got != "c1" {
		t.Errorf("got tool_call_id %q, want c1", got)
	}
	if got := msgs[4].ReasoningContent; got != "" {
		t.Errorf("got reasoning %q on a plain answer, want none", got)
	}
	if tools := reqs[0].Tools; len(tools) != 2 || tools[0].Type != "function" || tools[0].Function.Name != "read_file" {
		t.Errorf("got tools %+v, want read_file and ls", tools)
	}
}

func TestCacheSimulatorThroughClient(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	fake.Enqueue(
		providertest.Turn{Text: []string{"first answer"}},
		providertest.Turn{Text: []string{"second answer"}},
		providertest.Turn{Text: []string{"third answer"}},
	)
	c, _ := newTestClient(t, fake.URL(), nil)
	req := provider.Request{
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Content: strings.Repeat("You are a careful coding agent. ", 40)},
			{Role: provider.RoleUser, Content: "fix the flaky TestLogin"},
		},
		Tools: sampleRequest().Tools,
	}
	var usages []provider.Usage
	for i, answer := range []string{"first answer", "second answer", "third answer"} {
		resp, err := c.Stream(context.Background(), req, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		usages = append(usages, resp.Usage)
		req.Messages = append(req.Messages,
			provider.Message{Role: provider.RoleAssistant, Content: answer},
			provider.Message{Role: provider.RoleUser, Content: "and now?"})
	}
	for i, u := range usages {
		if u.CacheHitTokens+u.CacheMissTokens != u.PromptTokens || u.CacheHitTokens%64 != 0 {
			t.Errorf("request %d: got %+v, want hit+miss = prompt and hits in 64-token blocks", i, u)
		}
	}
	if usages[0].CacheHitTokens != 0 {
		t.Errorf("got first hit %d, want 0", usages[0].CacheHitTokens)
	}
	// The second request extends the first, so the first's whole prompt
	// (less the closing brackets and a partial block) is a hit.
	if got, floor := usages[1].CacheHitTokens, usages[0].PromptTokens-64; got < floor || got > usages[0].PromptTokens {
		t.Errorf("got second hit %d, want within a block of %d", got, usages[0].PromptTokens)
	}
	if got, floor := usages[2].CacheHitTokens, usages[1].PromptTokens-64; got < floor || got > usages[1].PromptTokens {
		t.Errorf("got third hit %d, want within a block of %d", got, usages[1].PromptTokens)
	}
}
