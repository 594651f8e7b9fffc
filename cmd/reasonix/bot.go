package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/jetstream"
	"github.com/reasonix/teams/bots/slack"
	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/workspaces"
)

func init() {
	register(command{name: "bot", summary: "run the chat gateway (Slack) until interrupted", run: runBot})
}

func runBot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default ./reasonix.toml, then ~/.reasonix/config.toml)")
	verbose := fs.Bool("v", false, "log debug detail")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix bot:", err)
		return exitUsage
	}
	// Fail at start, not at the first message, when the model is unusable.
	if _, err := cfg.ResolveModel(""); err != nil {
		fmt.Fprintln(stderr, "reasonix bot:", err)
		return exitUsage
	}
	adapters, err := botAdapters(cfg, log)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix bot:", err)
		return exitUsage
	}

	store, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix bot: state store:", err)
		return exitFailed
	}
	defer store.Close()
	ws, err := workspaces.NewManager(workspaceOptions(cfg, stderr), workspaceRepos(cfg))
	if err != nil {
		fmt.Fprintln(stderr, "reasonix bot: workspaces:", err)
		return exitUsage
	}
	if _, err := ws.GC(ctx, false); err != nil {
		log.Warn("workspace garbage collection at start-up failed", "err", err)
	}
	g, err := bots.New(bots.Options{
		Store: store, Workspaces: ws, Sessions: botSessions{cfg: cfg},
		Repos: repoInfos(cfg), ChannelRepos: channelRepos(cfg),
		Access: bots.Access{
			Users: cfg.Access.Users, Channels: cfg.Access.Channels, Approvers: cfg.Access.Approvers,
			Admins: cfg.Access.Admins, RequesterCanApprove: cfg.Access.RequesterCanApprove,
		},
		MaxConcurrentTurns: cfg.Bot.MaxConcurrentTurns, EditInterval: cfg.Bot.EditInterval.Duration,
		ApprovalTimeout: cfg.Bot.ApprovalTimeout.Duration, ShutdownGrace: cfg.Bot.ShutdownGrace.Duration,
		Logger: log,
	}, adapters...)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix bot:", err)
		return exitUsage
	}
	names := make([]string, len(adapters))
	for i, a := range adapters {
		names[i] = a.Platform()
	}
	log.Info("reasonix bot running", "version", version, "adapters", strings.Join(names, ","), "repos", len(cfg.Repos))
	if err := g.Run(ctx); err != nil {
		fmt.Fprintln(stderr, "reasonix bot:", err)
		return exitFailed
	}
	log.Info("reasonix bot stopped")
	return exitOK
}

// botAdapters builds the enabled chat adapters.
func botAdapters(cfg *config.Config, log *slog.Logger) ([]bots.Adapter, error) {
	var out []bots.Adapter
	if cfg.Slack.Enabled {
		s := cfg.Slack
		botToken, err := requireEnv("slack.bot_token_env", s.BotTokenEnv, "the bot token (xoxb-...)")
		if err != nil {
			return nil, err
		}
		opts := slack.Options{BotToken: botToken, Mode: s.Mode, APIURL: s.APIURL, Listen: s.Listen, Logger: log.With("adapter", "slack")}
		if s.Mode == "socket" {
			if opts.AppToken, err = requireEnv("slack.app_token_env", s.AppTokenEnv, "the app-level token (xapp-...)"); err != nil {
				return nil, err
			}
		} else if opts.SigningSecret, err = requireEnv("slack.signing_secret_env", s.SigningSecretEnv, "the signing secret"); err != nil {
			return nil, err
		}
		a, err := slack.New(opts)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, errors.New("no chat platform is enabled; set enabled = true in [slack] (see docs/slack.md)")
	}
	return out, nil
}

func requireEnv(key, name, what string) (string, error) {
	v := os.Getenv(name)
	if v == "" {
		return "", fmt.Errorf("%s: environment variable %s is not set; export it with %s", key, name, what)
	}
	return v, nil
}

func openStore(ctx context.Context, cfg *config.Config, log *slog.Logger) (*jetstream.Store, error) {
	opts := jetstream.Options{Dir: cfg.Store.Dir, URL: cfg.Store.URL, Logger: log.With("component", "store")}
	if cfg.Store.CredsEnv != "" {
		opts.CredsFile = os.Getenv(cfg.Store.CredsEnv)
	}
	return jetstream.Open(ctx, opts)
}

// repoInfos tells the gateway what it may do with each repo.
func repoInfos(cfg *config.Config) []bots.RepoInfo {
	out := make([]bots.RepoInfo, 0, len(cfg.Repos))
	for _, r := range cfg.Repos {
		out = append(out, bots.RepoInfo{Name: r.Name, DefaultBranch: r.DefaultBranch, CanPush: canPush(r), AutoPR: r.AutoPR})
	}
	return out
}

// canPush: a token for https, the machine's own keys for ssh, or a local
// path.
func canPush(r config.Repo) bool {
	switch {
	case strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://"):
		return r.TokenEnv != "" && os.Getenv(r.TokenEnv) != ""
	case strings.HasPrefix(r.URL, "file://") || filepath.IsAbs(r.URL):
		return true
	}
	return true // ssh
}

func channelRepos(cfg *config.Config) map[string]string {
	m := map[string]string{}
	for _, c := range cfg.Slack.Channels {
		m["slack:"+c.ID] = c.Repo
	}
	return m
}

// botSessions opens engine sessions in thread workspaces.
type botSessions struct{ cfg *config.Config }

func (s botSessions) OpenSession(_ context.Context, root, resumeID string) (bots.OpenedSession, error) {
	eng, err := openEngine(s.cfg, engineSpec{dir: root, posture: s.cfg.Bot.Posture, resume: resumeID})
	if err != nil {
		return bots.OpenedSession{}, err
	}
	return bots.OpenedSession{Session: eng.session, Close: eng.Close}, nil
}
