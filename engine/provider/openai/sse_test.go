package openai

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider"
)

func TestReadStream(t *testing.T) {
	bigArgs := `{"content":"` + strings.Repeat("x", 5<<20) + `"}`
	tests := []struct {
		name      string
		body      string
		wantErr   error // nil: clean
		anyErr    bool
		want      provider.Response
		wantDelta []provider.Delta
	}{
		{
			name: "text reasoning comments and crlf",
			body: ": keep-alive\r\n\r\n" +
				`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}` + "\r\n\r\n" +
				`data: {"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}` + "\n\n" +
				"event: ignored\nid: 7\n" +
				`data:{"choices":[{"index":0,"delta":{"content":"Hi"}}]}` + "\n\n" +
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
				"data: [DONE]\n\n",
			want: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Content: "Hi", ReasoningContent: "think"}, FinishReason: "stop"},
			wantDelta: []provider.Delta{
				{Kind: provider.DeltaReasoning, Text: "think"},
				{Kind: provider.DeltaText, Text: "Hi"},
			},
		},
		{
			name: "tool calls by index",
			body: `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"ls","arguments":""}}]}}]}` + "\n" +
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}` + "\n" +
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":1}"}}]}}]}` + "\n" +
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{}"}}]}}]}` + "\n" +
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\n" +
				"data: [DONE]\n",
			want: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
				{ID: "a", Name: "read_file", Arguments: `{"path":1}`},
				{ID: "b", Name: "ls", Arguments: `{}`},
			}}, FinishReason: "tool_calls"},
		},
		{
			name: "finish without done is clean",
			body: `data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":10}}` + "\n\n",
			want: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Content: "ok"}, FinishReason: "stop",
				Usage: provider.Usage{PromptTokens: 10, CompletionTokens: 2, CacheMissTokens: 10}},
			wantDelta: []provider.Delta{{Kind: provider.DeltaText, Text: "ok"}},
		},
		{
			name: "line of several megabytes",
			body: `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"w","function":{"name":"write_file","arguments":` + quoteJSON(bigArgs) + `}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
			want: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
				{ID: "w", Name: "write_file", Arguments: bigArgs},
			}}, FinishReason: "tool_calls"},
		},
		{
			name:    "ends without done or finish",
			body:    `data: {"choices":[{"index":0,"delta":{"content":"par"}}]}` + "\n\n",
			wantErr: errIncomplete,
		},
		{
			name:    "empty body",
			body:    "",
			wantErr: errIncomplete,
		},
		{
			name:   "garbage chunk",
			body:   "data: {not json\n\n",
			anyErr: true,
		},
		{
			name:   "error event",
			body:   `data: {"error":{"message":"overloaded"}}` + "\n\n",
			anyErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var deltas []provider.Delta
			acc, err := readStream(strings.NewReader(tt.body), func(d provider.Delta) { deltas = append(deltas, d) })
			switch {
			case tt.wantErr != nil || tt.anyErr:
				if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
					t.Fatalf("got error %v, want %v", err, tt.wantErr)
				}
				return
			case err != nil:
				t.Fatalf("got error %v, want none", err)
			}
			if got := acc.response(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if !reflect.DeepEqual(deltas, tt.wantDelta) {
				t.Errorf("got deltas %+v, want %+v", deltas, tt.wantDelta)
			}
		})
	}
}

func TestReadStreamReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`data: {"choices":[{"index":0,"delta":{"content":"a"}}]}`+"\n"), errReader{})
	_, err := readStream(r, func(provider.Delta) {})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want %v", err, io.ErrUnexpectedEOF)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestUsageShapes(t *testing.T) {
	tests := []struct {
		name string
		json string
		want provider.Usage
	}{
		{
			name: "deepseek",
			json: `{"prompt_tokens":100,"completion_tokens":20,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":36,"completion_tokens_details":{"reasoning_tokens":7}}`,
			want: provider.Usage{PromptTokens: 100, CacheHitTokens: 64, CacheMissTokens: 36, CompletionTokens: 20, ReasoningTokens: 7},
		},
		{
			name: "openai cached tokens fallback",
			json: `{"prompt_tokens":100,"completion_tokens":20,"prompt_tokens_details":{"cached_tokens":40}}`,
			want: provider.Usage{PromptTokens: 100, CacheHitTokens: 40, CacheMissTokens: 60, CompletionTokens: 20},
		},
		{
			name: "hits only",
			json: `{"prompt_tokens":100,"completion_tokens":1,"prompt_cache_hit_tokens":90}`,
			want: provider.Usage{PromptTokens: 100, CacheHitTokens: 90, CacheMissTokens: 10, CompletionTokens: 1},
		},
		{
			name: "no split",
			json: `{"prompt_tokens":100,"completion_tokens":1}`,
			want: provider.Usage{PromptTokens: 100, CompletionTokens: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `data: {"choices":[],"usage":` + tt.json + "}\n\n" + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
			acc, err := readStream(strings.NewReader(body), func(provider.Delta) {})
			if err != nil {
				t.Fatal(err)
			}
			if got := acc.usage; got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(s, `"`, `\"`))
	b.WriteByte('"')
	return b.String()
}
