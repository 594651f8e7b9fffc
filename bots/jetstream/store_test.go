package jetstream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/reasonix/teams/bots"
)

// waitFor bounds how long a test waits for something that should happen
// within a second or two; it only turns a hang into a failure.
const waitFor = 20 * time.Second

// modes are the two ways to reach JetStream. Each returns the options for
// a fresh store; opening them again reaches the same data.
var modes = []struct {
	name    string
	options func(t testing.TB) Options
}{
	{"embedded", func(t testing.TB) Options { return Options{Dir: t.TempDir()} }},
	{"external", func(t testing.TB) Options { return Options{URL: startServer(t)} }},
}

// startServer runs a real NATS server on a random local port for the
// length of the test and returns its URL.
func startServer(t testing.TB) string {
	t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host:      "127.0.0.1",
		Port:      -1,
		JetStream: true,
		StoreDir:  t.TempDir(),
		NoSigs:    true,
		NoLog:     true,
	})
	if err != nil {
		t.Fatalf("start nats-server: %v", err)
	}
	srv.Start()
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	if !srv.ReadyForConnections(waitFor) {
		t.Fatal("nats-server not ready")
	}
	return srv.ClientURL()
}

// openStore opens a store and closes it when the test ends.
func openStore(t testing.TB, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// consumer runs Store.Consume in the background.
type consumer struct {
	cancel context.CancelFunc
	done   chan error
}

// consume starts Consume with fn; stop ends it.
func consume(t testing.TB, s *Store, fn func(context.Context, bots.Event) error) *consumer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &consumer{cancel: cancel, done: make(chan error, 1)}
	go func() { c.done <- s.Consume(ctx, fn) }()
	t.Cleanup(func() { c.stop(t) })
	return c
}

// stop cancels Consume and waits for it to return nil. It may be called
// more than once.
func (c *consumer) stop(t testing.TB) {
	t.Helper()
	c.cancel()
	select {
	case err, ok := <-c.done:
		if ok && err != nil {
			t.Errorf("Consume: got %v, want nil", err)
		}
		if ok {
			close(c.done)
		}
	case <-time.After(waitFor):
		t.Fatal("Consume did not return after its context ended")
	}
}

// recorder collects the events a consumer saw, in order.
type recorder struct {
	mu     sync.Mutex // guards events
	events []bots.Event
	more   chan struct{} // signalled after each event
}

func newRecorder() *recorder { return &recorder{more: make(chan struct{}, 1)} }

func (r *recorder) handle(_ context.Context, ev bots.Event) error {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	select {
	case r.more <- struct{}{}:
	default:
	}
	return nil
}

// ids returns the ids seen so far.
func (r *recorder) ids() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.events))
	for i, ev := range r.events {
		out[i] = ev.ID
	}
	return out
}

// waitCount waits until n events were seen and returns their ids.
func (r *recorder) waitCount(t testing.TB, n int) []string {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		if ids := r.ids(); len(ids) >= n {
			return ids
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("saw events %v, want at least %d", r.ids(), n)
		}
	}
}

// testEvent is a message event on a Slack thread.
func testEvent(id string) bots.Event {
	return bots.Event{
		Kind: bots.KindMessage,
		ID:   id,
		Ref:  bots.ThreadRef{Platform: "slack", Team: "T1", Channel: "C1", Thread: "1712.0001"},
		User: bots.User{ID: "U1", Name: "ada"},
		Text: "hello " + id,
		At:   time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// addEvents records events e0..e(n-1) with the given id prefix.
func addEvents(t testing.TB, s *Store, prefix string, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("%s%d", prefix, i)
		dup, err := s.Add(context.Background(), testEvent(ids[i]))
		if err != nil || dup {
			t.Fatalf("Add(%s): got dup %v, err %v; want false, nil", ids[i], dup, err)
		}
	}
	return ids
}

// assertInboxEmpty checks that every event was acknowledged: nothing is
// waiting for delivery or for an ack.
func assertInboxEmpty(t testing.TB, s *Store) {
	t.Helper()
	info, err := s.inbox.Info(context.Background())
	if err != nil {
		t.Fatalf("consumer info: %v", err)
	}
	if info.NumPending != 0 || info.NumAckPending != 0 || info.NumRedelivered != 0 {
		t.Errorf("inbox: got pending %d, ack pending %d, redelivered %d; want 0, 0, 0",
			info.NumPending, info.NumAckPending, info.NumRedelivered)
	}
}

func TestOpenNeedsDirOrURL(t *testing.T) {
	_, err := Open(context.Background(), Options{})
	if err == nil {
		t.Fatal("Open with neither Dir nor URL: got nil error, want one")
	}
}

func TestOpenWithoutJetStream(t *testing.T) {
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatalf("start nats-server: %v", err)
	}
	srv.Start()
	defer func() { srv.Shutdown(); srv.WaitForShutdown() }()
	if !srv.ReadyForConnections(waitFor) {
		t.Fatal("nats-server not ready")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if _, err := Open(ctx, Options{URL: srv.ClientURL()}); err == nil {
		t.Fatal("Open against a server without JetStream: got nil error, want one")
	}
}

func TestCloseIsIdempotent(t *testing.T) {
	s, err := Open(context.Background(), Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	for i := range 2 {
		if err := s.Close(); err != nil {
			t.Errorf("Close #%d: got %v, want nil", i+1, err)
		}
	}
	if _, err := s.Add(context.Background(), testEvent("late")); err == nil {
		t.Error("Add after Close: got nil error, want one")
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"embedded", "", "embedded server"},
		{"plain", "nats://127.0.0.1:4222", "nats://127.0.0.1:4222"},
		{"password", "nats://u:secret@h:4222", "nats://u:xxxxx@h:4222"},
		{"token", "nats://tok@h:4222", "nats://redacted@h:4222"},
		{"cluster", "nats://a:1, nats://u:p@b:2", "nats://a:1,nats://u:xxxxx@b:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redactURL(tt.in); got != tt.want {
				t.Errorf("redactURL(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// isErr reports whether err matches want, for table tests where want may
// be nil.
func isErr(err, want error) bool {
	if want == nil {
		return err == nil
	}
	return errors.Is(err, want)
}
