package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	slackbot "github.com/reasonix/teams/bots/slack"
	"github.com/reasonix/teams/engine/config"
)

func init() {
	register(command{name: "slack", summary: "Slack helpers: print the app manifest", run: runSlack})
}

func runSlack(_ context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: reasonix slack manifest [--config FILE] [--name NAME] [--request-url URL]")
		fmt.Fprintln(stderr, "Prints the Slack app manifest for the configured [slack] mode; paste it at api.slack.com/apps → Create New App → From a manifest.")
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
	if sub != "manifest" {
		fmt.Fprintf(stderr, "reasonix slack: unknown subcommand %q; use manifest\n", sub)
		return exitUsage
	}
	fs := flag.NewFlagSet("slack manifest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default ./reasonix.toml, then ~/.reasonix/config.toml)")
	name := fs.String("name", "Reasonix", "the app's name in Slack")
	requestURL := fs.String("request-url", "", "http mode: the public https URL (scheme and host) Slack will POST to")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reasonix slack manifest: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix slack:", err)
		var cerr *config.Error
		if errors.As(err, &cerr) {
			return exitUsage
		}
		return exitFailed
	}
	socket := cfg.Slack.Mode != slackbot.ModeHTTP
	if !socket && *requestURL == "" {
		fmt.Fprintf(stderr, "reasonix slack: http mode and no --request-url; the manifest uses %s, edit it before creating the app\n", slackbot.RequestURLPlaceholder)
	}
	fmt.Fprint(stdout, slackbot.Manifest(*name, socket, *requestURL))
	return exitOK
}

// checkSlack is the doctor's Slack check, run when [slack] is enabled: the
// tokens the mode needs are set, and auth.test accepts the bot token.
func checkSlack(ctx context.Context, cfg *config.Config) (checkResult, bool) {
	if cfg == nil || !cfg.Slack.Enabled {
		return checkResult{}, false
	}
	s := cfg.Slack
	opts := slackbot.Options{
		BotToken: os.Getenv(s.BotTokenEnv), AppToken: os.Getenv(s.AppTokenEnv), SigningSecret: os.Getenv(s.SigningSecretEnv),
		Mode: s.Mode, APIURL: s.APIURL,
	}
	missing := ""
	switch {
	case opts.BotToken == "":
		missing = fmt.Sprintf("$%s is empty; set it to the bot token (xoxb-…) from the app's OAuth & Permissions page", s.BotTokenEnv)
	case s.Mode == slackbot.ModeSocket && opts.AppToken == "":
		missing = fmt.Sprintf("$%s is empty; Socket Mode needs an app-level token (xapp-…) with connections:write", s.AppTokenEnv)
	case s.Mode == slackbot.ModeHTTP && opts.SigningSecret == "":
		missing = fmt.Sprintf("$%s is empty; http mode needs the app's signing secret (Basic Information page)", s.SigningSecretEnv)
	}
	if missing != "" {
		return checkResult{statusFail, "slack", missing}, true
	}
	a, err := slackbot.New(opts)
	if err != nil {
		return checkResult{statusFail, "slack", err.Error()}, true
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	id, err := a.Identify(ctx)
	if err != nil {
		var apiErr *slackbot.APIError
		if errors.As(err, &apiErr) && apiErr.Code() != "" {
			return checkResult{statusFail, "slack", fmt.Sprintf("Slack refused the bot token in $%s (%s); copy it again from the app's OAuth & Permissions page", s.BotTokenEnv, apiErr.Code())}, true
		}
		return checkResult{statusFail, "slack", "cannot reach Slack at " + s.APIURL + ": " + err.Error()}, true
	}
	return checkResult{statusOK, "slack", fmt.Sprintf("bot user %s in team %s (%s mode)", id.UserID, firstNonBlank(id.Team, id.TeamID), s.Mode)}, true
}

func firstNonBlank(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
