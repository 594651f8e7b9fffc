package providertest

import (
	"reflect"
	"strings"
	"testing"
)

func TestScriptFromJSON(t *testing.T) {
	tests := []struct {
		name    string
		script  string
		want    []Turn
		wantErr string
	}{
		{
			name: "all kinds",
			script: `[
				{"fault":{"status":429,"retry_after":"1"}},
				{"text":["Hi"],"reasoning":["hm"],"keep_alive":true},
				{"tool_calls":[{"id":"c","name":"ls","arguments":"{}"}],"cut_after":3},
				{"text":["x"],"usage":{"prompt_tokens":5}}
			]`,
			want: []Turn{
				{Fault: &Fault{Status: 429, RetryAfter: "1"}},
				{Text: []string{"Hi"}, Reasoning: []string{"hm"}, KeepAlive: true},
				{ToolCalls: []ToolCall{{ID: "c", Name: "ls", Arguments: "{}"}}, CutAfter: 3},
				{Text: []string{"x"}, Usage: []byte(`{"prompt_tokens":5}`)},
			},
		},
		{name: "unknown field", script: `[{"txt":["typo"]}]`, wantErr: "txt"},
		{name: "bad fault status", script: `[{"fault":{"status":200}}]`, wantErr: "turn 0"},
		{name: "cut and idle", script: `[{"cut_after":1,"idle_after":2}]`, wantErr: "at most one"},
		{name: "trailing data", script: `[] []`, wantErr: "trailing"},
		{name: "not an array", script: `{"text":["x"]}`, wantErr: "decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ScriptFromJSON(strings.NewReader(tt.script))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSplitPieces(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "empty", in: "", want: nil},
		{name: "short", in: "ab", want: []string{"a", "b"}},
		{name: "even", in: "abcdefgh", want: []string{"ab", "cd", "ef", "gh"}},
		{name: "runes kept whole", in: "ééé", want: []string{"é", "é", "é"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitPieces(tt.in, 4)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if strings.Join(got, "") != tt.in {
				t.Errorf("got %q joined, want %q", strings.Join(got, ""), tt.in)
			}
		})
	}
}
