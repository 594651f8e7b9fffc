package config

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

const modelsSource = `default_model = "b/shared"

[[providers]]
name = "a"
base_url = "https://a.example/v1"
models = ["solo-a", "shared"]
default = "shared"
api_key_env = "RX_TEST_KEY_A"
context_window = 64000
max_output_tokens = 4096
idle_timeout = "30s"
max_attempts = 2
[providers.prices.shared]
cache_hit = 0.1
cache_miss = 1.0
output = 2.0

[[providers]]
name = "b"
base_url = "https://b.example/v1"
models = ["shared", "vendor/slashed"]
api_key_env = "RX_TEST_KEY_B"

[[providers]]
name = "local"
base_url = "http://127.0.0.1:8000/v1"
model = "coder"
`

func TestResolveModel(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("RX_TEST_KEY_A", "key-a")
	t.Setenv("RX_TEST_KEY_B", "key-b")
	c, err := Parse([]byte(modelsSource), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	a := Model{
		Provider: provider.Config{
			Name: "a", Kind: "openai", BaseURL: "https://a.example/v1", APIKey: "key-a",
			MaxOutputTokens: 4096, IdleTimeout: 30 * time.Second, MaxAttempts: 2,
		},
		ContextWindow: 64000,
	}
	withModel := func(m Model, name string, prices provider.Prices) Model {
		m.Provider.Model, m.Provider.Prices = name, prices
		return m
	}
	b := Model{Provider: provider.Config{
		Name: "b", Kind: "openai", BaseURL: "https://b.example/v1", APIKey: "key-b",
		IdleTimeout: 300 * time.Second, MaxAttempts: 5,
	}}
	local := Model{Provider: provider.Config{
		Name: "local", Kind: "openai", BaseURL: "http://127.0.0.1:8000/v1", Model: "coder",
		IdleTimeout: 300 * time.Second, MaxAttempts: 5,
	}}
	sharedPrices := provider.Prices{CacheHit: 0.1, CacheMiss: 1.0, Output: 2.0}
	tests := []struct {
		name string
		ref  string
		want Model
	}{
		{"empty means default_model", "", withModel(b, "shared", provider.Prices{})},
		{"provider name picks its default", "a", withModel(a, "shared", sharedPrices)},
		{"provider with models and no default picks the first", "b", withModel(b, "shared", provider.Prices{})},
		{"single-model provider without a key", "local", local},
		{"model offered once", "solo-a", withModel(a, "solo-a", provider.Prices{})},
		{"model name of a single-model provider", "coder", local},
		{"provider/model", "a/shared", withModel(a, "shared", sharedPrices)},
		{"provider/model with a slash in the model", "b/vendor/slashed", withModel(b, "vendor/slashed", provider.Prices{})},
		{"model name containing a slash", "vendor/slashed", withModel(b, "vendor/slashed", provider.Prices{})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.ResolveModel(tt.ref)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestResolveModelErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("RX_TEST_KEY_A", "key-a")
	t.Setenv("RX_TEST_KEY_B", "")
	c, err := Parse([]byte(modelsSource), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	tests := []struct {
		name string
		ref  string
		want string
	}{
		{"ambiguous model", "shared", `model "shared" is offered by several providers; use one of "a/shared", "b/shared"`},
		{"unknown model", "gpt-9", `unknown model "gpt-9"; use one of "a", "a/solo-a", "a/shared", "b", "b/shared", "b/vendor/slashed", "local", "local/coder"`},
		{"provider without that model", "a/coder", `provider "a" has no model "coder"; use one of "solo-a", "shared"`},
		{"empty key env var", "b", `reasonix.toml: providers[1].api_key_env: environment variable RX_TEST_KEY_B is not set; export it with your API key`},
		{"default_model with empty key env var", "", `reasonix.toml: providers[1].api_key_env: environment variable RX_TEST_KEY_B is not set; export it with your API key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.ResolveModel(tt.ref)
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("got %v (%T), want a *config.Error", err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestResolveModelDefaultsNeedDeepSeekKey(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	c, err := Parse(nil, "")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}

	t.Setenv("DEEPSEEK_API_KEY", "")
	_, err = c.ResolveModel("")
	want := "providers[0].api_key_env: environment variable DEEPSEEK_API_KEY is not set; export it with your API key"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}

	t.Setenv("DEEPSEEK_API_KEY", "sk-test")
	got, err := c.ResolveModel("deepseek-v4-pro")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	wantModel := Model{
		Provider: provider.Config{
			Name: "deepseek", Kind: "openai", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4-pro",
			APIKey: "sk-test", Prices: provider.Prices{CacheHit: 0.014, CacheMiss: 0.55, Output: 2.2},
			IdleTimeout: 300 * time.Second, MaxAttempts: 5,
		},
		ContextWindow: 1000000,
	}
	if !reflect.DeepEqual(got, wantModel) {
		t.Errorf("got %+v, want %+v", got, wantModel)
	}
}

func TestParseRejectsAmbiguousDefaultModel(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	src := "default_model = \"shared\"\n" + modelsSource[len("default_model = \"b/shared\"\n"):]
	_, err := Parse([]byte(src), "reasonix.toml")
	want := `reasonix.toml:1: default_model: model "shared" is offered by several providers; use one of "a/shared", "b/shared"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
