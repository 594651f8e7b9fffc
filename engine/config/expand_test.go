package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandEnv(t *testing.T) {
	t.Setenv("RX_SET", "value")
	t.Setenv("RX_EMPTY", "")
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"no variables", "https://api.example.com", "https://api.example.com", ""},
		{"set", "${RX_SET}", "value", ""},
		{"embedded twice", "a/${RX_SET}/b/${RX_SET}", "a/value/b/value", ""},
		{"default unused", "${RX_SET:-other}", "value", ""},
		{"default when unset", "${RX_UNSET_XYZ:-http://localhost:8000/v1}", "http://localhost:8000/v1", ""},
		{"default when empty", "${RX_EMPTY:-fallback}", "fallback", ""},
		{"empty default", "x${RX_UNSET_XYZ:-}y", "xy", ""},
		{"set but empty", "x${RX_EMPTY}y", "xy", ""},
		{"lone dollar kept", "$HOME and $5", "$HOME and $5", ""},
		{"unset is an error", "${RX_UNSET_XYZ}", "", "environment variable RX_UNSET_XYZ is not set"},
		{"unterminated", "${RX_SET", "", "unterminated"},
		{"bad name", "${1ABC}", "", "not a valid variable name"},
		{"empty name", "${}", "", "not a valid variable name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expandEnv(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExpandHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct {
		in, want string
	}{
		{"~", home},
		{"~/", home},
		{"~/.reasonix/sessions", filepath.Join(home, ".reasonix/sessions")},
		{"/abs/path", "/abs/path"},
		{"relative/~/x", "relative/~/x"},
		{"~bob/x", "~bob/x"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := expandHome(tt.in)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExpandHomeWithoutHome(t *testing.T) {
	t.Setenv("HOME", "")
	if _, err := expandHome("~/x"); err == nil {
		t.Errorf("got no error, want one asking to set HOME")
	}
	if got, err := expandHome("/x"); err != nil || got != "/x" {
		t.Errorf("got %q, %v, want /x, nil", got, err)
	}
}

func TestParseExpandsURLAndPathKeys(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("RX_HOST", "llm.internal")
	t.Setenv("RX_ROOT", "/srv/rx")
	src := `
[[providers]]
name = "p"
base_url = "https://${RX_HOST}/v1"
model = "m"
api_key_env = "${NOT_EXPANDED}"

[agent]
transcript_dir = "${RX_ROOT}/sessions"

[sandbox]
allow_write = ["~/cache", "${RX_ROOT}/tmp"]
forbid_read = ["${RX_SECRET_DIR:-~/.ssh}"]

[[repos]]
name = "r"
url = "https://${RX_HOST}/org/r.git"
forge_api_url = "${RX_FORGE:-https://git.internal/api/v4}"
setup = "echo ${KEEP}"

[workspaces]
dir = "~/ws"
`
	// api_key_env must stay verbatim, and it is not a valid variable name.
	if _, err := Parse([]byte(src), "reasonix.toml"); err == nil || !strings.Contains(err.Error(), "providers[0].api_key_env") {
		t.Fatalf("got %v, want an api_key_env error", err)
	}
	src = strings.Replace(src, `api_key_env = "${NOT_EXPANDED}"`, `api_key_env = "P_KEY"`, 1)
	c, err := Parse([]byte(src), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	checks := []struct {
		name, got, want string
	}{
		{"base_url", c.Providers[0].BaseURL, "https://llm.internal/v1"},
		{"transcript_dir", c.Agent.TranscriptDir, "/srv/rx/sessions"},
		{"allow_write[0]", c.Sandbox.AllowWrite[0], filepath.Join(home, "cache")},
		{"allow_write[1]", c.Sandbox.AllowWrite[1], "/srv/rx/tmp"},
		{"forbid_read[0]", c.Sandbox.ForbidRead[0], filepath.Join(home, ".ssh")},
		{"repos url", c.Repos[0].URL, "https://llm.internal/org/r.git"},
		{"forge_api_url", c.Repos[0].ForgeAPIURL, "https://git.internal/api/v4"},
		{"setup verbatim", c.Repos[0].Setup, "echo ${KEEP}"},
		{"workspaces dir", c.Workspaces.Dir, filepath.Join(home, "ws")},
	}
	for _, tt := range checks {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestParseUnsetVariableNamesKeyAndLine(t *testing.T) {
	src := "[workspaces]\n\ndir = \"${RX_SURELY_UNSET_VAR}/ws\"\n"
	_, err := Parse([]byte(src), "reasonix.toml")
	want := "reasonix.toml:3: workspaces.dir: environment variable RX_SURELY_UNSET_VAR is not set; export it or write ${RX_SURELY_UNSET_VAR:-default}"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
