package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

// wantDefaults is the built-in configuration with home as $HOME.
func wantDefaults(home string) *Config {
	return &Config{
		DefaultModel: "deepseek",
		Providers: []Provider{{
			Name:          "deepseek",
			Kind:          "openai",
			BaseURL:       "https://api.deepseek.com",
			Models:        []string{"deepseek-flash", "deepseek-v4-pro"},
			Default:       "deepseek-flash",
			APIKeyEnv:     "DEEPSEEK_API_KEY",
			ContextWindow: 1000000,
			IdleTimeout:   Duration{300 * time.Second},
			MaxAttempts:   5,
			Prices: map[string]provider.Prices{
				"deepseek-flash":  {CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6},
				"deepseek-v4-pro": {CacheHit: 0.014, CacheMiss: 0.55, Output: 2.2},
			},
		}},
		Agent: Agent{
			MaxSteps:      50,
			BashTimeout:   Duration{120 * time.Second},
			CompactRatio:  0.9,
			ParallelReads: 8,
			TranscriptDir: filepath.Join(home, ".reasonix", "sessions"),
		},
		Permissions: Permissions{Mode: "ask"},
		Sandbox:     Sandbox{Bash: "enforce"},
		Workspaces: Workspaces{
			Dir:           filepath.Join(home, ".reasonix", "workspaces"),
			TTL:           Duration{168 * time.Hour},
			FetchInterval: Duration{5 * time.Minute},
		},
		Bot: Bot{
			MaxConcurrentTurns: 8,
			EditInterval:       Duration{time.Second},
			ApprovalTimeout:    Duration{30 * time.Minute},
			ShutdownGrace:      Duration{20 * time.Second},
			Posture:            "ask",
		},
		Access: Access{RequesterCanApprove: true},
		Store:  Store{Dir: filepath.Join(home, ".reasonix", "data")},
		Slack: Slack{
			Mode: "socket", APIURL: "https://slack.com/api/", BotTokenEnv: "SLACK_BOT_TOKEN",
			AppTokenEnv: "SLACK_APP_TOKEN", SigningSecretEnv: "SLACK_SIGNING_SECRET", Listen: ":8080",
		},
	}
}

func TestParseDefaults(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct {
		name string
		src  string
	}{
		{"no data", ""},
		{"only comments", "# nothing here\n\n"},
		{"empty tables", "[agent]\n[permissions]\n[sandbox]\n[workspaces]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.src), "")
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if want := wantDefaults(home); !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestParseSetsSource(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	c, err := Parse([]byte("[agent]\nmax_steps = 3\n"), "/etc/reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	if c.Source != "/etc/reasonix.toml" || c.Agent.MaxSteps != 3 {
		t.Errorf("got source %q, max_steps %d, want /etc/reasonix.toml, 3", c.Source, c.Agent.MaxSteps)
	}
}

func TestParseDeclaredProvidersReplaceDefault(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	src := `
[[providers]]
name = "local"
base_url = "http://127.0.0.1:8000/v1"
model = "coder"

[[providers]]
name = "big"
base_url = "https://llm.example.com/v1"
models = ["fast", "slow"]
api_key_env = "BIG_KEY"
context_window = 128000
max_attempts = 2
idle_timeout = "1m"
`
	c, err := Parse([]byte(src), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	want := []Provider{
		{Name: "local", Kind: "openai", BaseURL: "http://127.0.0.1:8000/v1", Model: "coder", Default: "coder",
			IdleTimeout: Duration{300 * time.Second}, MaxAttempts: 5},
		{Name: "big", Kind: "openai", BaseURL: "https://llm.example.com/v1", Models: []string{"fast", "slow"}, Default: "fast",
			APIKeyEnv: "BIG_KEY", ContextWindow: 128000, IdleTimeout: Duration{time.Minute}, MaxAttempts: 2},
	}
	if !reflect.DeepEqual(c.Providers, want) {
		t.Errorf("got %+v, want %+v", c.Providers, want)
	}
	if c.DefaultModel != "local" {
		t.Errorf("default_model: got %q, want %q (the first provider)", c.DefaultModel, "local")
	}
}

func TestParseStructuralErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unknown top-level key", "default_model = \"deepseek\"\ncolour = \"blue\"\n",
			"reasonix.toml:2: colour: unknown key; see reasonix.example.toml for the keys"},
		{"unknown table", "\n[slak]\ntoken = \"x\"\n",
			"reasonix.toml:2: slak: unknown key; see reasonix.example.toml for the keys"},
		{"unknown key in table", "[agent]\nmax_steps = 5\nmax_step = 6\n",
			"reasonix.toml:3: agent.max_step: unknown key; see reasonix.example.toml for the keys"},
		{"unknown key in second provider", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodel = \"m\"\n[[providers]]\nname = \"b\"\nbaseurl = \"https://b\"\n",
			"reasonix.toml:7: providers[1].baseurl: unknown key; see reasonix.example.toml for the keys"},
		{"unknown price field", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodel = \"m\"\n[providers.prices.m]\ninput = 1.0\n",
			"reasonix.toml:6: providers[0].prices.m.input: unknown key; see reasonix.example.toml for the keys"},
		{"key differing only in case", "[agent]\nMax_Steps = 5\n",
			"reasonix.toml:2: agent.Max_Steps: unknown key; see reasonix.example.toml for the keys"},
		{"source is not a key", "Source = \"x\"\n",
			"reasonix.toml:1: Source: unknown key; see reasonix.example.toml for the keys"},
		{"first problem in file order wins", "[workspaces]\nzzz = 1\n[agent]\naaa = 2\n",
			"reasonix.toml:2: workspaces.zzz: unknown key; see reasonix.example.toml for the keys"},
		{"string for integer", "[agent]\nmax_steps = \"50\"\n",
			"reasonix.toml:2: agent.max_steps: must be an integer, not a string"},
		{"float for integer", "[agent]\nparallel_reads = 2.5\n",
			"reasonix.toml:2: agent.parallel_reads: must be an integer, not a float"},
		{"string for number", "[agent]\ncompact_ratio = \"0.5\"\n",
			"reasonix.toml:2: agent.compact_ratio: must be a number, not a string"},
		{"string for boolean", "[sandbox]\nnetwork = \"yes\"\n",
			"reasonix.toml:2: sandbox.network: must be true or false, not a string"},
		{"integer for string", "default_model = 5\n",
			"reasonix.toml:1: default_model: must be a string, not an integer"},
		{"string for list", "[sandbox]\nallow_write = \"/tmp\"\n",
			`reasonix.toml:2: sandbox.allow_write: must be a list like ["a", "b"], not a string`},
		{"wrong list element", "[permissions]\nallow = [\"Bash\", 3]\n",
			"reasonix.toml:2: permissions.allow[1]: must be a string, not an integer"},
		{"table for array of tables", "[providers]\nname = \"x\"\n",
			"reasonix.toml:1: providers: must be an array of tables ([[providers]]), not a table"},
		{"value for table", "agent = 5\n",
			"reasonix.toml:1: agent: must be a table, not an integer"},
		{"integer duration", "[agent]\nbash_timeout = 120\n",
			`reasonix.toml:2: agent.bash_timeout: must be a duration string like "90s" or "30m", not an integer`},
		{"bad duration", "[workspaces]\nttl = \"a week\"\n",
			`reasonix.toml:2: workspaces.ttl: "a week" is not a duration; write it like "90s", "30m" or "2h"`},
		{"negative duration", "[[providers]]\nname = \"a\"\nbase_url = \"https://a\"\nmodel = \"m\"\nidle_timeout = \"-5s\"\n",
			`reasonix.toml:5: providers[0].idle_timeout: "-5s": a duration cannot be negative`},
		{"bad size", "[workspaces]\nmax_disk = \"lots\"\n",
			`reasonix.toml:2: workspaces.max_disk: "lots" is not a size; write it like "500MB" or "20GiB"`},
		{"table for size", "[workspaces]\nmax_disk = {}\n",
			`reasonix.toml:2: workspaces.max_disk: must be a size like "500MB" or "20GiB", or a number of bytes, not a table`},
		{"syntax error", "[agent]\nmax_steps = \n",
			`reasonix.toml:2: invalid TOML: expected value but found '\n' instead`},
		{"duplicate key", "[agent]\nmax_steps = 1\nmax_steps = 2\n",
			`reasonix.toml:3: invalid TOML: Key 'agent.max_steps' has already been defined.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "reasonix.toml")
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

func TestParseExplicitZeroIsValidated(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	_, err := Parse([]byte("[agent]\nmax_steps = 0\n"), "reasonix.toml")
	want := "reasonix.toml:2: agent.max_steps: 0 must be at least 1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
