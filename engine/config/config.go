// Package config loads and validates reasonix.toml: the file's schema, its
// defaults, where it is looked up, and the one-line errors that tell an
// operator exactly which key to fix.
//
// It is plain data: cmd/ reads it and hands each package the options that
// package declares for itself. Any package may import config; config imports
// only engine/provider (for Prices).
package config

import (
	"github.com/reasonix/teams/engine/provider"
)

// Config is the whole reasonix.toml.
type Config struct {
	// DefaultModel picks the model: a provider name, a model name, or
	// "provider/model".
	DefaultModel string      `toml:"default_model"`
	Providers    []Provider  `toml:"providers"`
	Agent        Agent       `toml:"agent"`
	Permissions  Permissions `toml:"permissions"`
	Sandbox      Sandbox     `toml:"sandbox"`
	Repos        []Repo      `toml:"repos"`
	Workspaces   Workspaces  `toml:"workspaces"`
	Bot          Bot         `toml:"bot"`
	Access       Access      `toml:"access"`
	Store        Store       `toml:"store"`
	Slack        Slack       `toml:"slack"`

	// Source is the file the config came from, "" for built-in defaults.
	Source string `toml:"-"`
}

// Provider is one [[providers]] entry: an OpenAI-compatible endpoint.
type Provider struct {
	Name    string `toml:"name"`
	Kind    string `toml:"kind"`
	BaseURL string `toml:"base_url"`
	// Model is the single model of this endpoint; or list Models and pick a
	// Default among them.
	Model           string                     `toml:"model"`
	Models          []string                   `toml:"models"`
	Default         string                     `toml:"default"`
	APIKeyEnv       string                     `toml:"api_key_env"`
	ContextWindow   int                        `toml:"context_window"`
	MaxOutputTokens int                        `toml:"max_output_tokens"`
	IdleTimeout     Duration                   `toml:"idle_timeout"`
	MaxAttempts     int                        `toml:"max_attempts"`
	Prices          map[string]provider.Prices `toml:"prices"` // keyed by model name
}

// Agent is [agent]: the run loop's bounds.
type Agent struct {
	MaxSteps     int      `toml:"max_steps"`
	BashTimeout  Duration `toml:"bash_timeout"`
	CompactRatio float64  `toml:"compact_ratio"`
	// ParallelReads bounds how many read-only calls run at once.
	ParallelReads int `toml:"parallel_reads"`
	// TranscriptDir holds the append-only session transcripts.
	TranscriptDir string `toml:"transcript_dir"`
}

// Permissions is [permissions]: the rule lists and the writer fallback.
type Permissions struct {
	Mode  string   `toml:"mode"` // ask | allow | deny (writer fallback)
	Allow []string `toml:"allow"`
	Ask   []string `toml:"ask"`
	Deny  []string `toml:"deny"`
}

// Sandbox is [sandbox]: how bash is confined.
type Sandbox struct {
	Bash       string   `toml:"bash"` // enforce | off
	Network    bool     `toml:"network"`
	AllowWrite []string `toml:"allow_write"`
	ForbidRead []string `toml:"forbid_read"`
}

// Repo is one [[repos]] entry: a repository threads can work on.
type Repo struct {
	Name          string `toml:"name"`
	URL           string `toml:"url"`
	DefaultBranch string `toml:"default_branch"`
	TokenEnv      string `toml:"token_env"`
	Forge         string `toml:"forge"` // github | gitlab | none
	ForgeAPIURL   string `toml:"forge_api_url"`
	Setup         string `toml:"setup"`
	// AutoPR opens (or updates) a pull request after every turn that
	// changed files; otherwise people ask for one with the `pr` command.
	AutoPR bool `toml:"auto_pr"`
}

// Workspaces is [workspaces]: where per-thread working copies live.
type Workspaces struct {
	Dir           string   `toml:"dir"`
	TTL           Duration `toml:"ttl"`
	MaxDisk       ByteSize `toml:"max_disk"`
	FetchInterval Duration `toml:"fetch_interval"`
}

// Bot is [bot]: how the chat gateway runs turns and renders them.
type Bot struct {
	// MaxConcurrentTurns bounds turns running at once across all threads;
	// more queue with a visible position.
	MaxConcurrentTurns int `toml:"max_concurrent_turns"`
	// EditInterval is the least time between two edits of one message.
	EditInterval Duration `toml:"edit_interval"`
	// ApprovalTimeout denies an unanswered approval after this long.
	ApprovalTimeout Duration `toml:"approval_timeout"`
	// ShutdownGrace bounds a graceful stop on SIGTERM.
	ShutdownGrace Duration `toml:"shutdown_grace"`
	// Posture is the permission posture of chat sessions: ask | auto | yolo.
	Posture string `toml:"posture"`
}

// Access is [access]: who may use the bot and who may approve. Entries are
// "platform:id" ("slack:U123", "discord:1234").
type Access struct {
	Users               []string `toml:"users"`    // empty: anyone in an allowed channel
	Channels            []string `toml:"channels"` // empty: any channel the bot is in
	Approvers           []string `toml:"approvers"`
	Admins              []string `toml:"admins"`
	RequesterCanApprove bool     `toml:"requester_can_approve"`
}

// Store is [store]: where the gateway keeps durable state.
type Store struct {
	// Dir holds the embedded NATS JetStream server's data.
	Dir string `toml:"dir"`
	// URL points at an external NATS cluster instead ("nats://host:4222");
	// empty runs the embedded server.
	URL string `toml:"url"`
	// CredsEnv names an env var holding a NATS credentials file path.
	CredsEnv string `toml:"creds_env"`
}

// Slack is [slack]: the Slack adapter.
type Slack struct {
	Enabled bool `toml:"enabled"`
	// Mode is "socket" (Socket Mode, no public URL) or "http" (Events API).
	Mode string `toml:"mode"`
	// APIURL is Slack's Web API root; change it for GovSlack or tests.
	APIURL           string `toml:"api_url"`
	BotTokenEnv      string `toml:"bot_token_env"`
	AppTokenEnv      string `toml:"app_token_env"`
	SigningSecretEnv string `toml:"signing_secret_env"`
	// Listen is the address of the Events API endpoint in http mode.
	Listen   string         `toml:"listen"`
	Channels []SlackChannel `toml:"channels"`
}

// SlackChannel binds a Slack channel to a default repo.
type SlackChannel struct {
	ID   string `toml:"id"`
	Repo string `toml:"repo"`
}
