// Package openai is the OpenAI-compatible streaming provider kind
// ("openai"); DeepSeek is its default instance.
//
// It registers itself with the provider registry from init(), so only cmd/
// imports it (for that side effect). A Client sends one frozen request body
// per Stream call, retries connection failures, 408, 429 and 5xx with
// jittered exponential backoff (honouring Retry-After), replays a stream
// that breaks mid-way with the same bytes, and maps everything else to the
// typed errors of package provider.
package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

func init() { provider.Register("openai", New) }

// Defaults for the Config fields left zero.
const (
	DefaultIdleTimeout = 300 * time.Second
	DefaultMaxAttempts = 5
)

// Client streams chat completions from one OpenAI-compatible endpoint. It is
// safe for concurrent use.
type Client struct {
	name        string
	endpoint    string
	model       string
	apiKey      string
	maxOutput   int
	idleTimeout time.Duration
	maxAttempts int
	httpClient  *http.Client
	// sleep waits between attempts; tests in this package replace it.
	sleep func(ctx context.Context, d time.Duration) error
	// jitter returns a random value in [0, max) for backoff.
	jitter func(max int64) int64
}

var _ provider.Provider = (*Client)(nil)

// New builds a Client from cfg; BaseURL (an absolute http or https URL, with
// or without a trailing /v1) and Model are required.
func New(cfg provider.Config) (provider.Provider, error) {
	return newClient(cfg)
}

func newClient(cfg provider.Config) (*Client, error) {
	name := cfg.Name
	if name == "" {
		name = "openai"
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("provider %q: base_url %q must be an absolute http(s) URL, e.g. https://api.deepseek.com", name, cfg.BaseURL)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("provider %q: model is required, e.g. deepseek-chat", name)
	}
	c := &Client{
		name:        name,
		endpoint:    u.JoinPath("chat", "completions").String(),
		model:       cfg.Model,
		apiKey:      cfg.APIKey,
		maxOutput:   max(cfg.MaxOutputTokens, 0),
		idleTimeout: cfg.IdleTimeout,
		maxAttempts: cfg.MaxAttempts,
		httpClient:  cfg.HTTPClient,
		sleep:       sleepContext,
		jitter:      randomJitter,
	}
	if c.idleTimeout <= 0 {
		c.idleTimeout = DefaultIdleTimeout
	}
	if c.maxAttempts <= 0 {
		c.maxAttempts = DefaultMaxAttempts
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{}
	}
	return c, nil
}

// Stream sends req and streams the answer to onDelta (which may be nil).
// Retries and replays share the cfg.MaxAttempts budget; before a replay of
// a stream that broke mid-way onDelta receives a DeltaReset. The Response
// holds only the clean attempt's content.
func (c *Client) Stream(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	if onDelta == nil {
		onDelta = func(provider.Delta) {}
	}
	model := req.Model
	if model == "" {
		model = c.model
	}
	body, err := encodeRequest(model, req, c.maxOutput)
	if err != nil {
		return provider.Response{}, fmt.Errorf("%s: encode request: %w", c.name, err)
	}
	for n := 1; ; n++ {
		resp, f := c.attempt(ctx, body, onDelta)
		if f == nil {
			resp.Attempts = n
			return resp, nil
		}
		if f.fatal != nil {
			return provider.Response{}, f.fatal
		}
		wait := backoff(n, c.jitter)
		if f.hasRetryAfter {
			wait = f.retryAfter
		}
		if n >= c.maxAttempts || wait > maxRetryAfter {
			return provider.Response{}, c.exhausted(f)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return provider.Response{}, fmt.Errorf("%s: %w", c.name, err)
		}
		if f.streamed {
			onDelta(provider.Delta{Kind: provider.DeltaReset})
		}
	}
}

// exhausted is the error for a retryable failure that ran out of attempts.
func (c *Client) exhausted(f *failure) error {
	if f.status == http.StatusTooManyRequests {
		return &provider.RateLimitError{Provider: c.name, RetryAfter: f.retryAfter, Message: f.cause.Error()}
	}
	return &provider.TransportError{Provider: c.name, Status: f.status, Err: f.cause}
}
