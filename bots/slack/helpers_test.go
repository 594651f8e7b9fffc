package slack

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/slack/fakeslack"
)

// recorder is a bots.Handler that keeps what it was given. It refuses
// events whose text is in failOn, as a gateway whose store is down would.
type recorder struct {
	mu     sync.Mutex // guards the fields below
	events []bots.Event
	failOn map[string]bool
	calls  int
}

func (r *recorder) Handle(_ context.Context, ev bots.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.failOn[ev.Text] {
		return errors.New("store unavailable")
	}
	r.events = append(r.events, ev)
	return nil
}

// failText makes Handle refuse events with this text (or accept them again).
func (r *recorder) failText(text string, fail bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failOn == nil {
		r.failOn = map[string]bool{}
	}
	r.failOn[text] = fail
}

func (r *recorder) handleCalls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

func (r *recorder) got() []bots.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]bots.Event(nil), r.events...)
}

// testCtx bounds a test; nothing here should take more than a few seconds.
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newFake starts a fake Slack with two known people.
func newFake(t *testing.T, opts fakeslack.Options) *fakeslack.Server {
	t.Helper()
	fake := fakeslack.New(opts)
	t.Cleanup(fake.Close)
	fake.AddUser("U1", "Alice")
	fake.AddUser("U2", "Bob")
	return fake
}

// newAdapter builds an adapter for the fake in the given mode.
func newAdapter(t *testing.T, fake *fakeslack.Server, mode string) *Adapter {
	t.Helper()
	a, err := New(Options{
		BotToken: fake.BotToken(), AppToken: fake.AppToken(), SigningSecret: fake.SigningSecret(),
		Mode: mode, APIURL: fake.APIURL(), Listen: "127.0.0.1:0",
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// startSocket runs an adapter in Socket Mode against a fresh fake and
// waits for its connection.
func startSocket(t *testing.T, opts fakeslack.Options) (*fakeslack.Server, *Adapter, *recorder) {
	t.Helper()
	fake := newFake(t, opts)
	a := newAdapter(t, fake, ModeSocket)
	h := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, h) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: got %v, want nil after cancel", err)
		}
	})
	waitFor(t, fake, func() bool { return fake.OpenConnections() == 1 })
	return fake, a, h
}

// waitFor waits for cond on the fake's changes, failing the test on timeout.
func waitFor(t *testing.T, fake *fakeslack.Server, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := fake.WaitFor(ctx, cond); err != nil {
		t.Fatal(err)
	}
}

// allAcked reports whether every envelope the fake issued was acked.
func allAcked(fake *fakeslack.Server) bool {
	envs := fake.Envelopes()
	for _, id := range envs {
		if !fake.Acked(id) {
			return false
		}
	}
	return len(envs) > 0
}
