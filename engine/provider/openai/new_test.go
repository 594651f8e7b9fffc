package openai

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider"
)

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name    string
		cfg     provider.Config
		wantErr string
	}{
		{name: "ok", cfg: provider.Config{Name: "ds", BaseURL: "https://api.deepseek.com", Model: "deepseek-chat"}},
		{name: "ok with v1", cfg: provider.Config{Name: "ds", BaseURL: "http://localhost:8080/v1/", Model: "m"}},
		{name: "missing base url", cfg: provider.Config{Name: "ds", Model: "m"}, wantErr: "base_url"},
		{name: "relative base url", cfg: provider.Config{Name: "ds", BaseURL: "api.deepseek.com", Model: "m"}, wantErr: "base_url"},
		{name: "missing model", cfg: provider.Config{Name: "ds", BaseURL: "https://api.deepseek.com"}, wantErr: "model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg)
			if tt.wantErr == "" {
				if err != nil || p == nil {
					t.Fatalf("got %v, want a provider", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), `"ds"`) {
				t.Errorf("got %v, want an error naming ds and %s", err, tt.wantErr)
			}
		})
	}
}

func TestEndpointJoin(t *testing.T) {
	tests := []struct{ base, want string }{
		{"https://api.deepseek.com", "https://api.deepseek.com/chat/completions"},
		{"https://api.deepseek.com/", "https://api.deepseek.com/chat/completions"},
		{"https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"},
		{"http://127.0.0.1:9/v1/", "http://127.0.0.1:9/v1/chat/completions"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			c, _ := newTestClient(t, tt.base, nil)
			if c.endpoint != tt.want {
				t.Errorf("got %s, want %s", c.endpoint, tt.want)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	if !slices.Contains(provider.Kinds(), "openai") {
		t.Fatalf("got kinds %v, want openai among them", provider.Kinds())
	}
	p, err := provider.New(provider.Config{Name: "ds", Kind: "openai", BaseURL: "https://api.deepseek.com", Model: "deepseek-chat"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Client); !ok {
		t.Errorf("got %T, want *Client", p)
	}
}
