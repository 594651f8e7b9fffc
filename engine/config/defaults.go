package config

import (
	"time"

	"github.com/reasonix/teams/engine/provider"
)

// Built-in defaults. They apply to keys the file leaves out; a key written
// explicitly, even as zero, is validated as written.
const (
	DefaultProviderName  = "deepseek"
	DefaultKind          = "openai"
	DefaultBaseURL       = "https://api.deepseek.com"
	DefaultAPIKeyEnv     = "DEEPSEEK_API_KEY"
	DefaultContextWindow = 1_000_000
	DefaultIdleTimeout   = 300 * time.Second
	DefaultMaxAttempts   = 5

	DefaultMaxSteps      = 50
	DefaultBashTimeout   = 120 * time.Second
	DefaultCompactRatio  = 0.9
	DefaultParallelReads = 8
	DefaultTranscriptDir = "~/.reasonix/sessions"

	DefaultPermissionMode = "ask"
	DefaultSandboxBash    = "enforce"

	DefaultWorkspacesDir = "~/.reasonix/workspaces"
	DefaultWorkspaceTTL  = 168 * time.Hour
	DefaultFetchInterval = 5 * time.Minute

	DefaultBranch = "main"

	DefaultMaxConcurrentTurns = 8
	DefaultEditInterval       = time.Second
	DefaultApprovalTimeout    = 30 * time.Minute
	DefaultShutdownGrace      = 20 * time.Second
	DefaultBotPosture         = "ask"
	DefaultStoreDir           = "~/.reasonix/data"
	DefaultSlackMode          = "socket"
	DefaultSlackAPIURL        = "https://slack.com/api/"
	DefaultSlackBotTokenEnv   = "SLACK_BOT_TOKEN"
	DefaultSlackAppTokenEnv   = "SLACK_APP_TOKEN"
	DefaultSlackSigningEnv    = "SLACK_SIGNING_SECRET"
	DefaultSlackListen        = ":8080"
)

// defaultProvider is the [[providers]] entry used when the file declares
// none: DeepSeek's OpenAI-compatible API with its 2026 price list (USD per
// million tokens).
func defaultProvider() Provider {
	return Provider{
		Name:          DefaultProviderName,
		Kind:          DefaultKind,
		BaseURL:       DefaultBaseURL,
		Models:        []string{"deepseek-flash", "deepseek-v4-pro"},
		Default:       "deepseek-flash",
		APIKeyEnv:     DefaultAPIKeyEnv,
		ContextWindow: DefaultContextWindow,
		IdleTimeout:   Duration{DefaultIdleTimeout},
		MaxAttempts:   DefaultMaxAttempts,
		Prices: map[string]provider.Prices{
			"deepseek-flash":  {CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6},
			"deepseek-v4-pro": {CacheHit: 0.014, CacheMiss: 0.55, Output: 2.2},
		},
	}
}

// applyDefaults fills every key that raw (the file as a generic tree) does
// not define. Repo forges are filled later, after ${VAR} expansion, because
// they depend on the URL.
func applyDefaults(c *Config, raw map[string]any) {
	if !has(raw, "providers") {
		c.Providers = []Provider{defaultProvider()}
	}
	for i := range c.Providers {
		p, pm := &c.Providers[i], element(raw, "providers", i)
		if pm == nil {
			continue // the built-in provider is complete
		}
		if !has(pm, "kind") {
			p.Kind = DefaultKind
		}
		if !has(pm, "idle_timeout") {
			p.IdleTimeout = Duration{DefaultIdleTimeout}
		}
		if !has(pm, "max_attempts") {
			p.MaxAttempts = DefaultMaxAttempts
		}
		if p.Default == "" {
			if p.Model != "" {
				p.Default = p.Model
			} else if len(p.Models) > 0 {
				p.Default = p.Models[0]
			}
		}
	}
	if !has(raw, "default_model") && len(c.Providers) > 0 {
		c.DefaultModel = c.Providers[0].Name
	}

	agent := table(raw, "agent")
	if !has(agent, "max_steps") {
		c.Agent.MaxSteps = DefaultMaxSteps
	}
	if !has(agent, "bash_timeout") {
		c.Agent.BashTimeout = Duration{DefaultBashTimeout}
	}
	if !has(agent, "compact_ratio") {
		c.Agent.CompactRatio = DefaultCompactRatio
	}
	if !has(agent, "parallel_reads") {
		c.Agent.ParallelReads = DefaultParallelReads
	}
	if !has(agent, "transcript_dir") {
		c.Agent.TranscriptDir = DefaultTranscriptDir
	}

	if !has(table(raw, "permissions"), "mode") {
		c.Permissions.Mode = DefaultPermissionMode
	}
	if !has(table(raw, "sandbox"), "bash") {
		c.Sandbox.Bash = DefaultSandboxBash
	}

	ws := table(raw, "workspaces")
	if !has(ws, "dir") {
		c.Workspaces.Dir = DefaultWorkspacesDir
	}
	if !has(ws, "ttl") {
		c.Workspaces.TTL = Duration{DefaultWorkspaceTTL}
	}
	if !has(ws, "fetch_interval") {
		c.Workspaces.FetchInterval = Duration{DefaultFetchInterval}
	}

	bot := table(raw, "bot")
	if !has(bot, "max_concurrent_turns") {
		c.Bot.MaxConcurrentTurns = DefaultMaxConcurrentTurns
	}
	if !has(bot, "edit_interval") {
		c.Bot.EditInterval = Duration{DefaultEditInterval}
	}
	if !has(bot, "approval_timeout") {
		c.Bot.ApprovalTimeout = Duration{DefaultApprovalTimeout}
	}
	if !has(bot, "shutdown_grace") {
		c.Bot.ShutdownGrace = Duration{DefaultShutdownGrace}
	}
	if !has(bot, "posture") {
		c.Bot.Posture = DefaultBotPosture
	}
	if !has(table(raw, "access"), "requester_can_approve") {
		c.Access.RequesterCanApprove = true
	}
	if !has(table(raw, "store"), "dir") {
		c.Store.Dir = DefaultStoreDir
	}
	slack := table(raw, "slack")
	for key, dst := range map[string]*string{
		"mode": &c.Slack.Mode, "api_url": &c.Slack.APIURL, "bot_token_env": &c.Slack.BotTokenEnv,
		"app_token_env": &c.Slack.AppTokenEnv, "signing_secret_env": &c.Slack.SigningSecretEnv, "listen": &c.Slack.Listen,
	} {
		if !has(slack, key) {
			*dst = map[string]string{
				"mode": DefaultSlackMode, "api_url": DefaultSlackAPIURL, "bot_token_env": DefaultSlackBotTokenEnv,
				"app_token_env": DefaultSlackAppTokenEnv, "signing_secret_env": DefaultSlackSigningEnv, "listen": DefaultSlackListen,
			}[key]
		}
	}

	for i := range c.Repos {
		if c.Repos[i].DefaultBranch == "" {
			c.Repos[i].DefaultBranch = DefaultBranch
		}
	}
}

// applyRepoForges fills each repo's forge from its (expanded) URL when the
// file leaves it empty.
func applyRepoForges(c *Config) {
	for i := range c.Repos {
		if c.Repos[i].Forge == "" {
			c.Repos[i].Forge = forgeFor(c.Repos[i].URL)
		}
	}
}

func has(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

// table returns the sub-table m[key], or nil.
func table(m map[string]any, key string) map[string]any {
	t, _ := m[key].(map[string]any)
	return t
}

// element returns the i-th table of the array m[key], or nil.
func element(m map[string]any, key string, i int) map[string]any {
	switch list := m[key].(type) {
	case []map[string]any:
		if i < len(list) {
			return list[i]
		}
	case []any:
		if i < len(list) {
			t, _ := list[i].(map[string]any)
			return t
		}
	}
	return nil
}
