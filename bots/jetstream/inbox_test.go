package jetstream

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
)

func TestInboxDedupe(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			ctx := context.Background()

			ev := testEvent("Ev1")
			other := ev
			other.Ref.Platform = "discord" // same platform id, other platform
			adds := []struct {
				name    string
				ev      bots.Event
				wantDup bool
			}{
				{"first", ev, false},
				{"same id again", ev, true},
				{"same id on another platform", other, false},
			}
			for _, a := range adds {
				dup, err := s.Add(ctx, a.ev)
				if err != nil {
					t.Fatalf("Add %s: %v", a.name, err)
				}
				if dup != a.wantDup {
					t.Errorf("Add %s: got dup %v, want %v", a.name, dup, a.wantDup)
				}
			}
			if _, err := s.Add(ctx, testEvent("")); err == nil {
				t.Error("Add with empty ID: got nil error, want one")
			}

			r := newRecorder()
			c := consume(t, s, r.handle)
			r.waitCount(t, 2)
			// A sentinel added afterwards proves nothing else was queued
			// between or after the two.
			if _, err := s.Add(ctx, testEvent("sentinel")); err != nil {
				t.Fatalf("Add sentinel: %v", err)
			}
			got := r.waitCount(t, 3)
			c.stop(t)
			if want := []string{"Ev1", "Ev1", "sentinel"}; !slices.Equal(got, want) {
				t.Errorf("delivered: got %v, want %v", got, want)
			}
			r.mu.Lock()
			platforms := []string{r.events[0].Ref.Platform, r.events[1].Ref.Platform}
			roundTrip := r.events[0]
			r.mu.Unlock()
			if want := []string{"slack", "discord"}; !slices.Equal(platforms, want) {
				t.Errorf("platforms: got %v, want %v", platforms, want)
			}
			if !reflect.DeepEqual(roundTrip, ev) {
				t.Errorf("event after the inbox: got %+v, want %+v", roundTrip, ev)
			}
			// Processed events stay known for the window.
			if dup, err := s.Add(ctx, ev); err != nil || !dup {
				t.Errorf("Add after processing: got dup %v, err %v; want true, nil", dup, err)
			}
			assertInboxEmpty(t, s)
		})
	}
}

func TestConsumeOrderAndAck(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			// More than the prefetch buffer, so several pulls are needed.
			want := addEvents(t, s, "e", 3*prefetch+5)

			r := newRecorder()
			c := consume(t, s, r.handle)
			got := r.waitCount(t, len(want))
			c.stop(t)
			if !slices.Equal(got, want) {
				t.Errorf("delivery order: got %v, want %v", got, want)
			}
			assertInboxEmpty(t, s)

			// A second Consume sees nothing: everything was acknowledged.
			if _, err := s.Add(context.Background(), testEvent("after")); err != nil {
				t.Fatalf("Add: %v", err)
			}
			r2 := newRecorder()
			c2 := consume(t, s, r2.handle)
			got = r2.waitCount(t, 1)
			c2.stop(t)
			if want := []string{"after"}; !slices.Equal(got, want) {
				t.Errorf("second consume: got %v, want %v", got, want)
			}
		})
	}
}

func TestConsumeRedeliversOnError(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			addEvents(t, s, "e", 2)

			var mu sync.Mutex // guards calls and failed
			var calls []string
			failed := false
			r := newRecorder()
			c := consume(t, s, func(ctx context.Context, ev bots.Event) error {
				mu.Lock()
				calls = append(calls, ev.ID)
				fail := ev.ID == "e0" && !failed
				failed = failed || fail
				mu.Unlock()
				if fail {
					return errors.New("transient failure")
				}
				return r.handle(ctx, ev)
			})
			got := r.waitCount(t, 2)
			c.stop(t)

			slices.Sort(got)
			if want := []string{"e0", "e1"}; !slices.Equal(got, want) {
				t.Errorf("accepted: got %v, want %v", got, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if want := []string{"e0", "e1", "e0"}; !slices.Equal(calls, want) {
				t.Errorf("calls: got %v, want %v", calls, want)
			}
			info, err := s.inbox.Info(context.Background())
			if err != nil {
				t.Fatalf("consumer info: %v", err)
			}
			if info.NumPending != 0 || info.NumAckPending != 0 {
				t.Errorf("inbox: got pending %d, ack pending %d; want 0, 0", info.NumPending, info.NumAckPending)
			}
		})
	}
}

func TestConsumeDropsUndecodable(t *testing.T) {
	s := openStore(t, Options{Dir: t.TempDir()})
	ctx := context.Background()
	if _, err := s.js.Publish(ctx, inboxSubject, []byte("{not json")); err != nil {
		t.Fatalf("publish garbage: %v", err)
	}
	addEvents(t, s, "good", 1)

	r := newRecorder()
	c := consume(t, s, r.handle)
	got := r.waitCount(t, 1)
	c.stop(t)
	if want := []string{"good0"}; !slices.Equal(got, want) {
		t.Errorf("delivered: got %v, want %v", got, want)
	}
	info, err := s.inbox.Info(ctx)
	if err != nil {
		t.Fatalf("consumer info: %v", err)
	}
	if info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("inbox: got pending %d, ack pending %d; want 0, 0", info.NumPending, info.NumAckPending)
	}
}

func TestConsumeReturnsNilOnCancel(t *testing.T) {
	s := openStore(t, Options{Dir: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Consume(ctx, newRecorder().handle); err != nil {
		t.Errorf("Consume with ended context: got %v, want nil", err)
	}
}

// BenchmarkInboxAdd measures recording events and consuming them through
// the embedded server.
func BenchmarkInboxAdd(b *testing.B) {
	s := openStore(b, Options{Dir: b.TempDir()})
	ctx := context.Background()
	done := make(chan struct{})
	var seen int
	c := consume(b, s, func(context.Context, bots.Event) error {
		seen++ // only the Consume goroutine touches seen
		if seen == b.N {
			close(done)
		}
		return nil
	})
	ev := testEvent("")
	start := time.Now()
	b.ResetTimer()
	for i := range b.N {
		ev.ID = "bench-" + strconv.Itoa(i)
		if _, err := s.Add(ctx, ev); err != nil {
			b.Fatalf("Add: %v", err)
		}
	}
	<-done
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
	c.stop(b)
}
