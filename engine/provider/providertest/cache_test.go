package providertest

import (
	"strings"
	"testing"
)

func TestPrefixCacheMeasure(t *testing.T) {
	base := strings.Repeat("a", 1000) // 250 tokens
	tests := []struct {
		name       string
		cache      prefixCache
		prompts    []string
		wantPrompt []int
		wantHit    []int
	}{
		{
			name:    "growing conversation hits whole blocks",
			cache:   prefixCache{enabled: true, bytesPerToken: 4, blockTokens: 64},
			prompts: []string{base, base + strings.Repeat("b", 600), base + strings.Repeat("b", 600) + "c"},
			// 1000 bytes = 250 tokens, 192 in whole blocks; 1600 bytes = 400
			// tokens, 384 in whole blocks; 1601 bytes = 401 tokens.
			wantPrompt: []int{250, 400, 401},
			wantHit:    []int{0, 192, 384},
		},
		{
			name:       "longest prefix of any earlier prompt",
			cache:      prefixCache{enabled: true, bytesPerToken: 4, blockTokens: 64},
			prompts:    []string{base + "x", "zzz", base + "y"},
			wantPrompt: []int{251, 1, 251},
			wantHit:    []int{0, 0, 192},
		},
		{
			name:       "smaller blocks and tokens",
			cache:      prefixCache{enabled: true, bytesPerToken: 2, blockTokens: 10},
			prompts:    []string{base, base},
			wantPrompt: []int{500, 500},
			wantHit:    []int{0, 500},
		},
		{
			name:       "disabled",
			cache:      prefixCache{bytesPerToken: 4, blockTokens: 64},
			prompts:    []string{base, base},
			wantPrompt: []int{250, 250},
			wantHit:    []int{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cache
			for i, p := range tt.prompts {
				prompt, hit := c.measure([]byte(p))
				if prompt != tt.wantPrompt[i] || hit != tt.wantHit[i] {
					t.Errorf("prompt %d: got %d/%d tokens, want %d/%d", i, hit, prompt, tt.wantHit[i], tt.wantPrompt[i])
				}
			}
		})
	}
}

func TestPromptBytesPutsToolsBeforeConversation(t *testing.T) {
	cr := chatRequest{
		Model: "m",
		Messages: []Message{
			{Role: "system", Content: "S"},
			{Role: "user", Content: "U"},
		},
		Tools: []Tool{{Type: "function", Function: FunctionSpec{Name: "ls", Parameters: []byte(`{"type":"object"}`)}}},
	}
	got, err := promptBytes(cr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","system":[{"role":"system","content":"S"}],` +
		`"tools":[{"type":"function","function":{"name":"ls","description":"","parameters":{"type":"object"}}}],` +
		`"messages":[{"role":"user","content":"U"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
