package openai

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
)

func TestRetries(t *testing.T) {
	t.Parallel()
	ok := providertest.Turn{Text: []string{"recovered"}}
	tests := []struct {
		name      string
		faults    []providertest.Turn
		wantWaits func(t *testing.T, waits []time.Duration)
	}{
		{
			name:   "429 with retry-after seconds",
			faults: []providertest.Turn{{Fault: &providertest.Fault{Status: 429, RetryAfter: "7"}}},
			wantWaits: func(t *testing.T, waits []time.Duration) {
				if !reflect.DeepEqual(waits, []time.Duration{7 * time.Second}) {
					t.Errorf("got waits %v, want [7s]", waits)
				}
			},
		},
		{
			name:   "500 then success",
			faults: []providertest.Turn{{Fault: &providertest.Fault{Status: 500, Body: "oops"}}},
			wantWaits: func(t *testing.T, waits []time.Duration) {
				if len(waits) != 1 || waits[0] < backoffBase/2 || waits[0] > backoffBase {
					t.Errorf("got waits %v, want one in [%v, %v]", waits, backoffBase/2, backoffBase)
				}
			},
		},
		{
			name: "408 and 503 back off exponentially",
			faults: []providertest.Turn{
				{Fault: &providertest.Fault{Status: 408}},
				{Fault: &providertest.Fault{Status: 503}},
			},
			wantWaits: func(t *testing.T, waits []time.Duration) {
				if len(waits) != 2 || waits[1] < backoffBase {
					t.Errorf("got waits %v, want two, the second at least %v", waits, backoffBase)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t)
			fake.Enqueue(tt.faults...)
			fake.Enqueue(ok)
			c, sleeps := newTestClient(t, fake.URL(), nil)
			resp, err := c.Stream(context.Background(), userRequest("hi"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != "recovered" || resp.Attempts != len(tt.faults)+1 {
				t.Errorf("got %q after %d attempts, want recovered after %d", resp.Message.Content, resp.Attempts, len(tt.faults)+1)
			}
			tt.wantWaits(t, sleeps.all())
		})
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	fault := func(status int, retryAfter, body string) providertest.Turn {
		return providertest.Turn{Fault: &providertest.Fault{Status: status, RetryAfter: retryAfter, Body: body}}
	}
	var (
		auth      = isA[*provider.AuthError]
		quota     = isA[*provider.QuotaError]
		tooLong   = isA[*provider.ContextTooLongError]
		rejected  = isA[*provider.RequestError]
		rateLimit = isA[*provider.RateLimitError]
		transport = isA[*provider.TransportError]
	)
	tests := []struct {
		name         string
		turns        []providertest.Turn
		wantAs       func(error) (bool, string)
		wantRequests int
		wantInError  string
	}{
		{name: "auth", turns: []providertest.Turn{fault(401, "", `{"error":{"message":"Authentication Fails, key `+testKey+`"}}`)},
			wantAs: auth, wantRequests: 1, wantInError: "Authentication Fails"},
		{name: "quota 402", turns: []providertest.Turn{fault(402, "", `{"error":{"message":"Insufficient Balance"}}`)},
			wantAs: quota, wantRequests: 1, wantInError: "Insufficient Balance"},
		{name: "quota 429", turns: []providertest.Turn{fault(429, "1", `{"error":{"message":"insufficient balance on account"}}`)},
			wantAs: quota, wantRequests: 1},
		{name: "context too long", turns: []providertest.Turn{fault(400, "", `{"error":{"message":"This model's maximum context length is 65536 tokens. However, you requested 70000 tokens"}}`)},
			wantAs: tooLong, wantRequests: 1, wantInError: "65536"},
		{name: "bad request", turns: []providertest.Turn{fault(422, "", `{"error":{"message":"invalid tool schema"}}`)},
			wantAs: rejected, wantRequests: 1, wantInError: "invalid tool schema"},
		{name: "rate limited out of attempts", turns: []providertest.Turn{fault(429, "2", ""), fault(429, "3", ""), fault(429, "4", "")},
			wantAs: rateLimit, wantRequests: 3},
		{name: "server errors out of attempts", turns: []providertest.Turn{fault(502, "", ""), fault(502, "", ""), fault(502, "", "")},
			wantAs: transport, wantRequests: 3},
		{name: "retry-after too long", turns: []providertest.Turn{fault(503, "3600", "")},
			wantAs: transport, wantRequests: 1},
		{name: "no turn left", turns: nil, wantAs: transport, wantRequests: 3, wantInError: providertest.NoTurnLeft},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t)
			fake.Enqueue(tt.turns...)
			c, _ := newTestClient(t, fake.URL(), func(cfg *provider.Config) { cfg.MaxAttempts = 3 })
			_, err := c.Stream(context.Background(), userRequest("hi"), nil)
			if ok, want := tt.wantAs(err); !ok {
				t.Fatalf("got %v (%T), want %s", err, err, want)
			}
			if got := len(fake.Requests()); got != tt.wantRequests {
				t.Errorf("got %d requests, want %d", got, tt.wantRequests)
			}
			msg := err.Error()
			if !strings.Contains(msg, "deepseek") || !strings.Contains(msg, tt.wantInError) {
				t.Errorf("got %q, want the provider name and %q", msg, tt.wantInError)
			}
			if strings.Contains(msg, testKey) {
				t.Errorf("got %q, want no API key in errors", msg)
			}
		})
	}
	t.Run("rate limit keeps retry-after", func(t *testing.T) {
		t.Parallel()
		fake := newFake(t)
		fake.Enqueue(fault(429, "9", `{"error":{"message":"slow down"}}`))
		c, _ := newTestClient(t, fake.URL(), func(cfg *provider.Config) { cfg.MaxAttempts = 1 })
		_, err := c.Stream(context.Background(), userRequest("hi"), nil)
		var rl *provider.RateLimitError
		if !errors.As(err, &rl) || rl.RetryAfter != 9*time.Second || rl.Message != "slow down" {
			t.Errorf("got %v, want a rate limit error with retry after 9s", err)
		}
	})
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	fake := providertest.New()
	url := fake.URL()
	fake.Close()
	c, sleeps := newTestClient(t, url, func(cfg *provider.Config) { cfg.MaxAttempts = 2 })
	_, err := c.Stream(context.Background(), userRequest("hi"), nil)
	var te *provider.TransportError
	if !errors.As(err, &te) || te.Status != 0 {
		t.Fatalf("got %v, want a transport error without status", err)
	}
	if got := len(sleeps.all()); got != 1 {
		t.Errorf("got %d sleeps, want 1", got)
	}
}
