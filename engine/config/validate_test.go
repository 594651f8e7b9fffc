package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// provider0 is a valid provider entry; cases append keys to it or start
// their own.
const provider0 = "[[providers]]\nname = \"a\"\nbase_url = \"https://a.example\"\nmodel = \"m\"\n"

func TestParseRejectsBadValues(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	tests := []struct {
		name    string
		src     string
		key     string
		line    int
		msgPart string
	}{
		{"no providers", "providers = []\n", "providers", 1, "no provider is declared"},
		{"provider name missing", "[[providers]]\nbase_url = \"https://a\"\nmodel = \"m\"\n", "providers[0].name", 1, "is required"},
		{"provider name with slash", "[[providers]]\nname = \"a/b\"\nbase_url = \"https://a\"\nmodel = \"m\"\n", "providers[0].name", 2, "must not contain '/'"},
		{"provider name duplicate", provider0 + provider0, "providers[1].name", 6, `"a" is already used by providers[0]`},
		{"unknown kind", provider0 + "kind = \"foo\"\n", "providers[0].kind", 5, `unknown kind "foo"; use "openai"`},
		{"base_url missing", "[[providers]]\nname = \"a\"\nmodel = \"m\"\n", "providers[0].base_url", 1, "is required"},
		{"base_url not http", "[[providers]]\nname = \"a\"\nbase_url = \"ftp://a\"\nmodel = \"m\"\n", "providers[0].base_url", 3, "not an http:// or https:// URL"},
		{"base_url without host", "[[providers]]\nname = \"a\"\nbase_url = \"https:///v1\"\nmodel = \"m\"\n", "providers[0].base_url", 3, "has no host"},
		{"no model", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\n", "providers[0].models", 1, "no model is declared"},
		{"model and models", provider0 + "models = [\"n\"]\n", "providers[0].model", 4, "keep one of them"},
		{"empty model in list", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodels = [\"m\", \"\"]\n", "providers[0].models[1]", 4, "is empty"},
		{"model listed twice", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodels = [\"m\", \"m\"]\n", "providers[0].models[1]", 4, "listed twice"},
		{"default not a model", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodels = [\"m\", \"n\"]\ndefault = \"x\"\n", "providers[0].default", 5, `"x" is not one of this provider's models; use one of "m", "n"`},
		{"api_key_env holds a key", provider0 + "api_key_env = \"sk-123\"\n", "providers[0].api_key_env", 5, "not an environment variable name"},
		{"negative context_window", provider0 + "context_window = -1\n", "providers[0].context_window", 5, "negative"},
		{"negative max_output_tokens", provider0 + "max_output_tokens = -1\n", "providers[0].max_output_tokens", 5, "negative"},
		{"zero max_attempts", provider0 + "max_attempts = 0\n", "providers[0].max_attempts", 5, "at least 1"},
		{"zero idle_timeout", provider0 + "idle_timeout = \"0s\"\n", "providers[0].idle_timeout", 5, "greater than 0"},
		{"prices for unknown model", provider0 + "[providers.prices.zz]\noutput = 1.0\n", "providers[0].prices.zz", 5, `"zz" is not one of this provider's models; use "m"`},
		{"negative price", provider0 + "[providers.prices.m]\noutput = -1.0\n", "providers[0].prices.m", 5, "cannot be negative"},
		{"unknown default_model", "default_model = \"nope\"\n", "default_model", 1, `unknown model "nope"; use one of "deepseek", "deepseek/deepseek-flash", "deepseek/deepseek-v4-pro"`},
		{"empty default_model", "default_model = \"\"\n", "default_model", 1, "no model given"},
		{"max_steps zero", "[agent]\nmax_steps = 0\n", "agent.max_steps", 2, "at least 1"},
		{"bash_timeout zero", "[agent]\nbash_timeout = \"0s\"\n", "agent.bash_timeout", 2, "greater than 0"},
		{"compact_ratio zero", "[agent]\ncompact_ratio = 0\n", "agent.compact_ratio", 2, "between 0 and 1"},
		{"max_concurrent_turns zero", "[bot]\nmax_concurrent_turns = 0\n", "bot.max_concurrent_turns", 2, "at least 1"},
		{"bot posture", "[bot]\nposture = \"wild\"\n", "bot.posture", 2, "must be one of"},
		{"edit_interval zero", "[bot]\nedit_interval = \"0s\"\n", "bot.edit_interval", 2, "positive"},
		{"access entry without platform", "[access]\napprovers = [\"U123\"]\n", "access.approvers[0]", 2, "platform:id"},
		{"store url scheme", "[store]\nurl = \"http://x\"\n", "store.url", 2, "nats://"},
		{"slack mode", "[slack]\nmode = \"rtm\"\n", "slack.mode", 2, "must be one of"},
		{"slack channel unknown repo", "[slack]\n[[slack.channels]]\nid = \"C1\"\nrepo = \"nope\"\n", "slack.channels[0].repo", 4, "names no [[repos]] entry"},
		{"compact_ratio one", "[agent]\ncompact_ratio = 1.0\n", "agent.compact_ratio", 2, "between 0 and 1"},
		{"compact_ratio negative", "[agent]\ncompact_ratio = -0.5\n", "agent.compact_ratio", 2, "between 0 and 1"},
		{"parallel_reads zero", "[agent]\nparallel_reads = 0\n", "agent.parallel_reads", 2, "at least 1"},
		{"transcript_dir empty", "[agent]\ntranscript_dir = \"\"\n", "agent.transcript_dir", 2, "is empty"},
		{"permissions mode", "[permissions]\nmode = \"yolo\"\n", "permissions.mode", 2, `unknown mode "yolo"; use one of "ask", "allow", "deny"`},
		{"empty rule", "[permissions]\ndeny = [\"Bash(rm:*)\", \" \"]\n", "permissions.deny[1]", 2, "empty rule"},
		{"sandbox bash", "[sandbox]\nbash = \"on\"\n", "sandbox.bash", 2, `unknown value "on"; use one of "enforce", "off"`},
		{"empty allow_write", "[sandbox]\nallow_write = [\"\"]\n", "sandbox.allow_write[0]", 2, "empty path"},
		{"repo name missing", "[[repos]]\nurl = \"https://github.com/o/r\"\n", "repos[0].name", 1, "is required"},
		{"repo name unsafe", "[[repos]]\nname = \"../x\"\nurl = \"https://github.com/o/r\"\n", "repos[0].name", 2, "may only use"},
		{"repo name duplicate", "[[repos]]\nname = \"r\"\nurl = \"/srv/r\"\n[[repos]]\nname = \"r\"\nurl = \"/srv/s\"\n", "repos[1].name", 5, `"r" is already used by repos[0]`},
		{"repo url missing", "[[repos]]\nname = \"r\"\n", "repos[0].url", 1, "is required"},
		{"repo url relative", "[[repos]]\nname = \"r\"\nurl = \"src/r\"\n", "repos[0].url", 3, "not a clone URL"},
		{"repo url scheme", "[[repos]]\nname = \"r\"\nurl = \"svn://host/r\"\n", "repos[0].url", 3, `uses scheme "svn"`},
		{"repo forge", "[[repos]]\nname = \"r\"\nurl = \"/srv/r\"\nforge = \"gitea\"\n", "repos[0].forge", 4, `unknown forge "gitea"; use one of "github", "gitlab", "none"`},
		{"repo forge_api_url", "[[repos]]\nname = \"r\"\nurl = \"/srv/r\"\nforge_api_url = \"api.example\"\n", "repos[0].forge_api_url", 4, "not an http:// or https:// URL"},
		{"repo token_env", "[[repos]]\nname = \"r\"\nurl = \"/srv/r\"\ntoken_env = \"ghp_abc-123\"\n", "repos[0].token_env", 4, "not an environment variable name"},
		{"workspaces dir empty", "[workspaces]\ndir = \"\"\n", "workspaces.dir", 2, "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "reasonix.toml")
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("got %v (%T), want a *config.Error", err, err)
			}
			if cerr.Key != tt.key || cerr.Line != tt.line || cerr.File != "reasonix.toml" {
				t.Errorf("got key %q line %d file %q, want key %q line %d file reasonix.toml (%s)", cerr.Key, cerr.Line, cerr.File, tt.key, tt.line, err)
			}
			if !strings.Contains(cerr.Msg, tt.msgPart) {
				t.Errorf("got message %q, want it to contain %q", cerr.Msg, tt.msgPart)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("got a multi-line error %q, want one line", err)
			}
		})
	}
}

func TestParseAcceptsBoundaryValues(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	src := provider0 + `context_window = 0
max_attempts = 1
[agent]
compact_ratio = 0.01
max_steps = 1
parallel_reads = 1
[workspaces]
ttl = "0s"
fetch_interval = "0s"
max_disk = 0
[[repos]]
name = "a.b_c-1"
url = "git@git.example.com:org/repo.git"
`
	c, err := Parse([]byte(src), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	if c.Workspaces.TTL.Duration != 0 || c.Workspaces.FetchInterval.Duration != 0 {
		t.Errorf("got ttl %v fetch_interval %v, want 0 and 0", c.Workspaces.TTL, c.Workspaces.FetchInterval)
	}
}

func TestKindsOrDefault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		registered []string
		want       []string
	}{
		{"nothing registered accepts openai", nil, []string{"openai"}},
		{"registered kinds are the list", []string{"anthropic", "openai"}, []string{"anthropic", "openai"}},
		{"registered list without openai", []string{"fake"}, []string{"fake"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := kindsOrDefault(tt.registered); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
