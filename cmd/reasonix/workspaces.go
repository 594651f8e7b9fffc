package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/workspaces"
)

func init() {
	register(command{name: "workspaces", summary: "list or garbage-collect per-thread workspaces", run: runWorkspaces})
}

func runWorkspaces(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: reasonix workspaces list [--config FILE]")
		fmt.Fprintln(stderr, "       reasonix workspaces gc [--config FILE] [--dry-run]")
	}
	if len(args) == 0 {
		usage()
		return exitUsage
	}
	sub, args := args[0], args[1:]
	if sub == "-h" || sub == "--help" || sub == "help" {
		usage()
		return exitOK
	}
	if sub != "list" && sub != "gc" {
		fmt.Fprintf(stderr, "reasonix workspaces: unknown subcommand %q; use list or gc\n", sub)
		return exitUsage
	}

	fs := flag.NewFlagSet("workspaces "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default ./reasonix.toml, then ~/.reasonix/config.toml)")
	var dryRun *bool
	if sub == "gc" {
		dryRun = fs.Bool("dry-run", false, "only print what would be removed")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reasonix workspaces %s: unexpected arguments %q\n", sub, fs.Args())
		return exitUsage
	}

	m, code := openWorkspaces(*cfgPath, stderr)
	if m == nil {
		return code
	}
	if sub == "list" {
		return listWorkspaces(ctx, m, stdout, stderr)
	}
	return gcWorkspaces(ctx, m, *dryRun, stdout, stderr)
}

// openWorkspaces loads the config and builds the workspaces manager from its
// [[repos]] and [workspaces] sections. On failure it reports and returns nil
// with the exit code.
func openWorkspaces(path string, stderr io.Writer) (*workspaces.Manager, int) {
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix workspaces:", err)
		var cerr *config.Error
		if errors.As(err, &cerr) {
			return nil, exitUsage
		}
		return nil, exitFailed
	}
	m, err := workspaces.NewManager(workspaceOptions(cfg, stderr), workspaceRepos(cfg))
	if err != nil {
		fmt.Fprintln(stderr, "reasonix workspaces:", err)
		return nil, exitUsage
	}
	return m, exitOK
}

// workspaceOptions maps [workspaces] onto the package's options.
func workspaceOptions(cfg *config.Config, logTo io.Writer) workspaces.Options {
	return workspaces.Options{
		Dir:           cfg.Workspaces.Dir,
		TTL:           cfg.Workspaces.TTL.Duration,
		MaxDisk:       int64(cfg.Workspaces.MaxDisk),
		FetchInterval: cfg.Workspaces.FetchInterval.Duration,
		Logger:        slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
}

// workspaceRepos maps [[repos]] onto the package's repos, reading each
// token from the environment variable the config names.
func workspaceRepos(cfg *config.Config) []workspaces.Repo {
	repos := make([]workspaces.Repo, 0, len(cfg.Repos))
	for _, r := range cfg.Repos {
		var token string
		if r.TokenEnv != "" {
			token = os.Getenv(r.TokenEnv)
		}
		repos = append(repos, workspaces.Repo{
			Name:          r.Name,
			URL:           r.URL,
			DefaultBranch: r.DefaultBranch,
			Token:         token,
			Forge:         r.Forge,
			ForgeAPIURL:   r.ForgeAPIURL,
			Setup:         r.Setup,
		})
	}
	return repos
}

func listWorkspaces(ctx context.Context, m *workspaces.Manager, stdout, stderr io.Writer) int {
	list, err := m.List(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix workspaces list:", err)
		return exitFailed
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no workspaces")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "THREAD\tREPO\tBRANCH\tPATH\tSIZE\tIDLE")
	for _, ws := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", ws.ThreadID, ws.Repo, ws.Branch, ws.Path, humanBytes(ws.Size), humanIdle(ws.Idle))
	}
	tw.Flush()
	return exitOK
}

func gcWorkspaces(ctx context.Context, m *workspaces.Manager, dryRun bool, stdout, stderr io.Writer) int {
	actions, err := m.GC(ctx, dryRun)
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	if len(actions) == 0 {
		fmt.Fprintln(stdout, "nothing to remove")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, a := range actions {
		what := verb
		if a.Err != nil {
			what = "failed to remove"
		}
		thread := a.ThreadID
		if thread == "" {
			thread = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\tthread %s\t%s\t%s\tidle %s\n", what, a.Kind, thread, a.Path, humanBytes(a.Size), humanIdle(a.Idle))
	}
	tw.Flush()
	if err != nil {
		fmt.Fprintln(stderr, "reasonix workspaces gc:", err)
		return exitFailed
	}
	return exitOK
}

// humanBytes prints a size with a binary unit.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for v := n / unit; v >= unit; v /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// humanIdle prints an idle time to the minute (seconds under a minute).
func humanIdle(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
