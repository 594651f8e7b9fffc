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
}

// Workspaces is [workspaces]: where per-thread working copies live.
type Workspaces struct {
	Dir           string   `toml:"dir"`
	TTL           Duration `toml:"ttl"`
	MaxDisk       ByteSize `toml:"max_disk"`
	FetchInterval Duration `toml:"fetch_interval"`
}
