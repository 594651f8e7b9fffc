// Package slack is the Slack adapter of the chat gateway: it receives
// mentions, thread replies, direct messages, button presses and the
// /reasonix slash command over Socket Mode (the default) or the HTTP
// Events API, turns them into bots.Event values, and posts, edits, reacts
// and uploads through the Web API with slack-go.
//
// Only cmd/ imports this package; it imports bots for the contract.
// bots/slack/fakeslack is a fake Slack for its tests and end-to-end tests.
package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

// Connection modes.
const (
	ModeSocket = "socket" // Socket Mode: an outbound websocket, no public URL
	ModeHTTP   = "http"   // Events API: Slack POSTs to Options.Listen
)

// DefaultAPIURL is Slack's Web API root.
const DefaultAPIURL = "https://slack.com/api/"

// Options configure an Adapter.
type Options struct {
	BotToken      string // xoxb-…: every Web API call
	AppToken      string // xapp-… with connections:write: Socket Mode only
	SigningSecret string // verifies Slack's requests: HTTP mode only
	Mode          string // ModeSocket (default) or ModeHTTP
	APIURL        string // Web API root; DefaultAPIURL when empty
	Listen        string // HTTP mode: the address Run serves on
	Logger        *slog.Logger
	HTTPClient    *http.Client
}

// OptionError reports an unusable option.
type OptionError struct {
	Field  string
	Reason string
}

func (e *OptionError) Error() string { return "slack: " + e.Field + ": " + e.Reason }

// Identity is who the bot is, as auth.test tells.
type Identity struct {
	UserID string // the bot user, whose mentions address the bot
	BotID  string
	TeamID string
	Team   string
	URL    string
}

// Adapter is the Slack implementation of bots.Adapter. It is safe for
// concurrent use.
type Adapter struct {
	opts  Options
	api   *slack.Client
	log   *slog.Logger
	users *userCache

	mu sync.Mutex // guards self
	// self is the bot's identity once auth.test has answered.
	self *Identity
}

var (
	_ bots.Adapter         = (*Adapter)(nil)
	_ bots.EphemeralPoster = (*Adapter)(nil)
	_ bots.CommandReplier  = (*Adapter)(nil)
	_ bots.Reactor         = (*Adapter)(nil)
	_ bots.Uploader        = (*Adapter)(nil)
)

// New checks the options and builds an adapter; nothing is contacted until
// Run or the first call.
func New(opts Options) (*Adapter, error) {
	if opts.Mode == "" {
		opts.Mode = ModeSocket
	}
	switch {
	case opts.Mode != ModeSocket && opts.Mode != ModeHTTP:
		return nil, &OptionError{"mode", fmt.Sprintf("must be %q or %q, not %q", ModeSocket, ModeHTTP, opts.Mode)}
	case opts.BotToken == "":
		return nil, &OptionError{"bot token", "missing; set the bot token (xoxb-…) from the app's OAuth & Permissions page"}
	case opts.Mode == ModeSocket && opts.AppToken == "":
		return nil, &OptionError{"app token", "missing; Socket Mode needs an app-level token (xapp-…) with connections:write"}
	case opts.Mode == ModeHTTP && opts.SigningSecret == "":
		return nil, &OptionError{"signing secret", "missing; HTTP mode needs the app's signing secret to verify requests"}
	}
	if opts.APIURL == "" {
		opts.APIURL = DefaultAPIURL
	}
	if !strings.HasSuffix(opts.APIURL, "/") {
		opts.APIURL += "/"
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	a := &Adapter{opts: opts, log: opts.Logger}
	a.api = slack.New(opts.BotToken,
		slack.OptionAPIURL(opts.APIURL),
		slack.OptionAppLevelToken(opts.AppToken),
		slack.OptionHTTPClient(opts.HTTPClient),
		slack.OptionLog(slogOutput{a.log}),
	)
	a.users = newUserCache(a.api, userCacheTTL)
	return a, nil
}

// Platform is "slack".
func (a *Adapter) Platform() string { return "slack" }

// Limits: the gateway keeps one message within 12,000 characters, which
// the adapter lays out as sections of at most 3,000; edits at most once a
// second, as Slack's per-channel rate limits allow.
func (a *Adapter) Limits() bots.Limits {
	return bots.Limits{MaxText: 12000, MinEditInterval: time.Second}
}

// Identify calls auth.test once and remembers the answer: the bot's user
// id (to recognise its mentions and its own messages) and its team. It is
// also the check `reasonix doctor` runs.
func (a *Adapter) Identify(ctx context.Context) (Identity, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.self != nil {
		return *a.self, nil
	}
	resp, err := a.api.AuthTestContext(ctx)
	if err != nil {
		return Identity{}, &APIError{Method: "auth.test", Err: err}
	}
	a.self = &Identity{UserID: resp.UserID, BotID: resp.BotID, TeamID: resp.TeamID, Team: resp.Team, URL: resp.URL}
	return *a.self, nil
}

// APIError is a failed Web API call.
type APIError struct {
	Method string
	Err    error
}

func (e *APIError) Error() string { return "slack " + e.Method + ": " + e.Err.Error() }

func (e *APIError) Unwrap() error { return e.Err }

// Code is Slack's error code ("invalid_auth", "channel_not_found"), or ""
// when the failure was not an error answer from Slack.
func (e *APIError) Code() string {
	var se slack.SlackErrorResponse
	if errors.As(e.Err, &se) {
		return se.Err
	}
	return ""
}

// slogOutput gives slack-go's loggers a slog destination: the library
// writes only when its debug option is on, and then at debug level.
type slogOutput struct{ l *slog.Logger }

func (o slogOutput) Output(_ int, s string) error {
	o.l.Debug(strings.TrimSpace(s), "component", "slack-go")
	return nil
}
