package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reasonix/teams/bots/jetstream"
	"github.com/reasonix/teams/engine/config"
)

// checkStore reports where the gateway keeps its durable state and whether
// it can: an external NATS is dialled; the embedded store's directory must
// be creatable (it is not opened, so a running bot keeps its lock).
func checkStore(ctx context.Context, cfg *config.Config) checkResult {
	if cfg == nil {
		return checkResult{statusFail, "store", "skipped: the configuration is invalid"}
	}
	if cfg.Store.URL != "" {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		opts := jetstream.Options{URL: cfg.Store.URL}
		if cfg.Store.CredsEnv != "" {
			opts.CredsFile = os.Getenv(cfg.Store.CredsEnv)
		}
		s, err := jetstream.Open(ctx, opts)
		if err != nil {
			return checkResult{statusFail, "store", fmt.Sprintf("cannot use the NATS server in [store] url: %v", err)}
		}
		s.Close()
		return checkResult{statusOK, "store", "external NATS JetStream reachable (run one bot process per store)"}
	}
	dir := cfg.Store.Dir
	probe := dir
	for {
		if _, err := os.Stat(probe); err == nil {
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	f, err := os.CreateTemp(probe, ".reasonix-doctor-*")
	if err != nil {
		return checkResult{statusFail, "store", fmt.Sprintf("[store] dir %s is not writable (%v); the bot keeps its state there", dir, err)}
	}
	f.Close()
	os.Remove(f.Name())
	return checkResult{statusOK, "store", "embedded NATS JetStream in " + dir}
}

// checkRepos reports the repositories threads can work on and which of
// them can be pushed.
func checkRepos(cfg *config.Config) checkResult {
	if cfg == nil {
		return checkResult{statusFail, "repos", "skipped: the configuration is invalid"}
	}
	if len(cfg.Repos) == 0 {
		return checkResult{statusWarn, "repos", "no [[repos]] configured: chat threads have nothing to work on (reasonix run still works)"}
	}
	var noPush []string
	for _, r := range cfg.Repos {
		if !canPush(r) {
			noPush = append(noPush, r.Name)
		}
	}
	if len(noPush) > 0 {
		return checkResult{statusWarn, "repos", fmt.Sprintf("%d configured; %s cannot be pushed (token_env unset or empty): work stays on local branches", len(cfg.Repos), strings.Join(noPush, ", "))}
	}
	return checkResult{statusOK, "repos", fmt.Sprintf("%d configured, all pushable", len(cfg.Repos))}
}
