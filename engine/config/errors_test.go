package config

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorRendersOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"file line key", &Error{File: "reasonix.toml", Line: 12, Key: "providers[0].kind", Msg: `unknown kind "foo"; use "openai"`},
			`reasonix.toml:12: providers[0].kind: unknown kind "foo"; use "openai"`},
		{"no line", &Error{File: "reasonix.toml", Key: "agent.max_steps", Msg: "0 must be at least 1"},
			"reasonix.toml: agent.max_steps: 0 must be at least 1"},
		{"no file", &Error{Key: "providers[0].api_key_env", Msg: "environment variable DEEPSEEK_API_KEY is not set; export it with your API key"},
			"providers[0].api_key_env: environment variable DEEPSEEK_API_KEY is not set; export it with your API key"},
		{"no key", &Error{File: "x.toml", Line: 3, Msg: "invalid TOML: bad"}, "x.toml:3: invalid TOML: bad"},
		{"line without file is dropped", &Error{Line: 3, Msg: "m"}, "m"},
		{"multi-line message folded", &Error{File: "f", Msg: "first\nsecond\r\n third\n"}, "f: first; second; third"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestErrorUnwraps(t *testing.T) {
	t.Parallel()
	err := error(&Error{File: "f", Msg: "m", Err: fs.ErrNotExist})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got errors.Is(err, fs.ErrNotExist) = false, want true")
	}
}
