package openai

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
)

func TestBrokenStreamIsReplayed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		broken providertest.Turn
		idle   time.Duration
	}{
		{name: "connection cut", broken: providertest.Turn{Reasoning: []string{"hmm"}, Text: []string{"Hel", "lo"}, CutAfter: 3}},
		{name: "idle stream", broken: providertest.Turn{Reasoning: []string{"hmm"}, Text: []string{"Hel", "lo"}, IdleAfter: 3}, idle: 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t)
			fake.Enqueue(tt.broken, providertest.Turn{Text: []string{"Hello", " again"}})
			c, _ := newTestClient(t, fake.URL(), func(cfg *provider.Config) { cfg.IdleTimeout = tt.idle })
			var deltas deltaLog
			resp, err := c.Stream(context.Background(), userRequest("hi"), deltas.add)
			if err != nil {
				t.Fatal(err)
			}
			want := provider.Message{Role: provider.RoleAssistant, Content: "Hello again"}
			if !reflect.DeepEqual(resp.Message, want) || resp.Attempts != 2 {
				t.Errorf("got %+v after %d attempts, want %+v after 2", resp.Message, resp.Attempts, want)
			}
			wantDeltas := []provider.Delta{
				{Kind: provider.DeltaReasoning, Text: "hmm"},
				{Kind: provider.DeltaText, Text: "Hel"},
				{Kind: provider.DeltaReset},
				{Kind: provider.DeltaText, Text: "Hello"},
				{Kind: provider.DeltaText, Text: " again"},
			}
			if got := deltas.all(); !reflect.DeepEqual(got, wantDeltas) {
				t.Errorf("got deltas %+v, want %+v", got, wantDeltas)
			}
			reqs := fake.Requests()
			if len(reqs) != 2 || !bytes.Equal(reqs[0].Body, reqs[1].Body) {
				t.Errorf("got %d requests, want 2 with identical bodies", len(reqs))
			}
		})
	}
}

func TestBrokenStreamsExhaustAttempts(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	cut := providertest.Turn{Text: []string{"a", "b"}, CutAfter: 2}
	fake.Enqueue(cut, cut)
	c, _ := newTestClient(t, fake.URL(), func(cfg *provider.Config) { cfg.MaxAttempts = 2 })
	var deltas deltaLog
	_, err := c.Stream(context.Background(), userRequest("hi"), deltas.add)
	var te *provider.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want a transport error", err)
	}
	resets := 0
	for _, d := range deltas.all() {
		if d.Kind == provider.DeltaReset {
			resets++
		}
	}
	if resets != 1 {
		t.Errorf("got %d resets, want 1", resets)
	}
}

func TestContextCancel(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	fake.Enqueue(providertest.Turn{Text: []string{"first", "never"}, IdleAfter: 2})
	c, _ := newTestClient(t, fake.URL(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.Stream(ctx, userRequest("hi"), func(d provider.Delta) {
		if d.Text == "first" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if got := len(fake.Requests()); got != 1 {
		t.Errorf("got %d requests, want 1", got)
	}
}

// The fake always sends headers at once, so the watchdog's other half
// (silence before the response headers) is tested against a bare handler.
func TestIdleBeforeHeaders(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(`data: {"choices":[{"index":0,"delta":{"content":"late"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c, _ := newTestClient(t, srv.URL, func(cfg *provider.Config) { cfg.IdleTimeout = 100 * time.Millisecond })
	var deltas deltaLog
	resp, err := c.Stream(context.Background(), userRequest("hi"), deltas.add)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "late" || resp.Attempts != 2 {
		t.Errorf("got %q after %d attempts, want late after 2", resp.Message.Content, resp.Attempts)
	}
	if got := deltas.all(); len(got) != 1 || got[0].Kind != provider.DeltaText {
		t.Errorf("got deltas %+v, want only the text (no reset: nothing had streamed)", got)
	}
}

func TestIdleErrorAfterAttempts(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c, _ := newTestClient(t, srv.URL, func(cfg *provider.Config) {
		cfg.IdleTimeout = 50 * time.Millisecond
		cfg.MaxAttempts = 1
	})
	_, err := c.Stream(context.Background(), userRequest("hi"), nil)
	var te *provider.TransportError
	if !errors.As(err, &te) || !errors.Is(err, errIdle) {
		t.Errorf("got %v, want a transport error wrapping the idle cause", err)
	}
}
