package bots_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/bottest"
)

// livePlatform returns a fake platform, a thread and a posted message to
// keep up to date.
func livePlatform(t *testing.T, limits bots.Limits) (*bottest.Platform, bots.ThreadRef, string) {
	t.Helper()
	p := bottest.New(bottest.Options{Limits: limits})
	ref := p.NewThread("C1")
	id, err := p.Post(t.Context(), ref, bots.Message{Text: "starting"})
	if err != nil {
		t.Fatal(err)
	}
	return p, ref, id
}

func waitCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// checkGaps fails the test if any message was written twice within less
// than interval.
func checkGaps(t *testing.T, p *bottest.Platform, interval time.Duration) {
	t.Helper()
	if gap, ok := p.MaxEditRate(); ok && gap < interval {
		t.Errorf("got edits %v apart, want at least %v", gap, interval)
	}
}

func texts(m bottest.Posted) []string {
	out := make([]string, len(m.Edits))
	for i, e := range m.Edits {
		out[i] = e.Message.Text
	}
	return out
}

func TestLiveMessageCoalesces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		interval  time.Duration
		minEdit   time.Duration
		effective time.Duration
	}{
		{name: "own interval", interval: 40 * time.Millisecond, effective: 40 * time.Millisecond},
		{name: "platform minimum wins", interval: 5 * time.Millisecond, minEdit: 40 * time.Millisecond, effective: 40 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, ref, id := livePlatform(t, bots.Limits{MinEditInterval: tt.minEdit})
			start := time.Now()
			lm := bots.NewLiveMessage(p, ref, id, tt.interval)
			const sets = 200
			for i := range sets {
				lm.Set(bots.Message{Text: fmt.Sprintf("state %d", i)})
				time.Sleep(time.Millisecond) // spread the burst over several intervals
			}
			last := fmt.Sprintf("state %d", sets-1)
			if err := p.WaitFor(waitCtx(t), bottest.Reads(ref, id, last)); err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			if err := lm.Close(waitCtx(t)); err != nil {
				t.Fatal(err)
			}
			m, _ := p.Message(ref, id)
			edits := len(m.Edits) - 1
			if limit := 1 + int(elapsed/tt.effective); edits > limit {
				t.Errorf("got %d edits in %v, want at most %d", edits, elapsed, limit)
			}
			if got := m.Text(); got != last {
				t.Errorf("got final text %q, want %q", got, last)
			}
			checkGaps(t, p, tt.effective)
		})
	}
}

// hookedPlatform runs a function during the first Update call, so a test
// can act while the platform is answering it.
type hookedPlatform struct {
	bots.Adapter
	hook func()
}

func (h *hookedPlatform) Update(ctx context.Context, ref bots.ThreadRef, id string, m bots.Message) error {
	if f := h.hook; f != nil {
		h.hook = nil // only the writer goroutine calls Update
		f()
	}
	return h.Adapter.Update(ctx, ref, id, m)
}

func TestLiveMessageBacksOffOnRateLimit(t *testing.T) {
	t.Parallel()
	const interval, retryAfter = 20 * time.Millisecond, 150 * time.Millisecond
	p, ref, id := livePlatform(t, bots.Limits{})
	p.FailNext(bottest.OpUpdate, &bots.RateLimitError{Op: "update", RetryAfter: retryAfter})
	hp := &hookedPlatform{Adapter: p}
	lm := bots.NewLiveMessage(hp, ref, id, interval)
	// The newest state changes while the platform answers 429.
	hp.hook = func() { lm.Set(bots.Message{Text: "newest"}) }
	lm.Set(bots.Message{Text: "first"})

	if err := p.WaitFor(waitCtx(t), bottest.Reads(ref, id, "newest")); err != nil {
		t.Fatal(err)
	}
	if err := lm.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ := p.Message(ref, id)
	if got, want := fmt.Sprint(texts(m)), fmt.Sprint([]string{"starting", "newest"}); got != want {
		t.Errorf("got versions %s, want %s", got, want)
	}
	failures := p.Failures()
	if len(failures) != 1 {
		t.Fatalf("got %d failures, want 1", len(failures))
	}
	if waited := m.Edits[1].At.Sub(failures[0].At); waited < retryAfter {
		t.Errorf("got a retry %v after the 429, want at least %v", waited, retryAfter)
	}
}

func TestLiveMessageCloseWritesFinalState(t *testing.T) {
	t.Parallel()
	const interval = 100 * time.Millisecond
	p, ref, id := livePlatform(t, bots.Limits{})
	lm := bots.NewLiveMessage(p, ref, id, interval)
	lm.Set(bots.Message{Text: "one"})
	if err := p.WaitFor(waitCtx(t), bottest.Reads(ref, id, "one")); err != nil {
		t.Fatal(err)
	}
	final := bots.Message{Text: "two", Buttons: []bots.Button{{ActionID: "a", Label: "Approve", Value: "v"}}}
	lm.Set(final) // mid-interval: the writer may not edit yet
	if err := lm.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ := p.Message(ref, id)
	if got, want := fmt.Sprint(m.Last()), fmt.Sprint(final); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	checkGaps(t, p, interval)

	before := p.Attempts(bottest.OpUpdate)
	lm.Set(bots.Message{Text: "after close"})
	if err := lm.Close(waitCtx(t)); err != nil {
		t.Errorf("second Close: got %v, want nil", err)
	}
	if got := p.Attempts(bottest.OpUpdate); got != before {
		t.Errorf("got %d updates after Close, want none", got-before)
	}
}

func TestLiveMessageSkipsUnchangedState(t *testing.T) {
	t.Parallel()
	p, ref, id := livePlatform(t, bots.Limits{})
	lm := bots.NewLiveMessage(p, ref, id, 10*time.Millisecond)
	lm.Set(bots.Message{Text: "a"})
	if err := p.WaitFor(waitCtx(t), bottest.Reads(ref, id, "a")); err != nil {
		t.Fatal(err)
	}
	lm.Set(bots.Message{Text: "a"})
	lm.Set(bots.Message{Text: "b"})
	lm.Set(bots.Message{Text: "a"})
	if err := lm.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ := p.Message(ref, id)
	for i := 2; i < len(m.Edits); i++ {
		if m.Edits[i].Message.Text == m.Edits[i-1].Message.Text {
			t.Errorf("got versions %q, want no edit repeating the previous one", texts(m))
		}
	}
	if got := m.Text(); got != "a" {
		t.Errorf("got %q, want %q", got, "a")
	}
}

func TestLiveMessageRetriesAfterError(t *testing.T) {
	t.Parallel()
	p, ref, id := livePlatform(t, bots.Limits{})
	boom := errors.New("boom")
	p.FailNext(bottest.OpUpdate, boom)
	lm := bots.NewLiveMessage(p, ref, id, 10*time.Millisecond)
	lm.Set(bots.Message{Text: "x"})
	if err := p.WaitFor(waitCtx(t), bottest.HasAttempts(bottest.OpUpdate, 1)); err != nil {
		t.Fatal(err)
	}
	// The failed state is not retried on its own; Close writes it.
	if err := lm.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ := p.Message(ref, id)
	if got := m.Text(); got != "x" {
		t.Errorf("got %q, want %q", got, "x")
	}
	if got := p.Attempts(bottest.OpUpdate); got != 2 {
		t.Errorf("got %d update attempts, want 2", got)
	}
}

func TestLiveMessageCloseGivesUpWithContext(t *testing.T) {
	t.Parallel()
	p, ref, id := livePlatform(t, bots.Limits{})
	p.FailNext(bottest.OpUpdate, &bots.RateLimitError{Op: "update", RetryAfter: time.Hour})
	lm := bots.NewLiveMessage(p, ref, id, time.Millisecond)
	lm.Set(bots.Message{Text: "x"})
	if err := p.WaitFor(waitCtx(t), bottest.HasAttempts(bottest.OpUpdate, 1)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := lm.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want %v", err, context.DeadlineExceeded)
	}
}
