package jetstream

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
)

// TestRestart closes the store part-way through the inbox and opens it
// again on the same data (the same directory for the embedded server, the
// same server for an external one).
func TestRestart(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			opts := mode.options(t)
			ctx := context.Background()
			s := openStore(t, opts)
			addEvents(t, s, "e", 6)

			// Accept e0 and e1; stop while handling e2, which fails. e3..e5
			// may sit in the prefetch buffer when Consume stops.
			stopped := make(chan struct{})
			r := newRecorder()
			cctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				done <- s.Consume(cctx, func(ctx context.Context, ev bots.Event) error {
					if ev.ID == "e2" {
						cancel()
						close(stopped)
						return errors.New("shutting down")
					}
					return r.handle(ctx, ev)
				})
			}()
			<-stopped
			if err := <-done; err != nil {
				t.Fatalf("Consume: got %v, want nil", err)
			}
			if got, want := r.ids(), []string{"e0", "e1"}; !slices.Equal(got, want) {
				t.Fatalf("before restart: got %v, want %v", got, want)
			}

			binding := bots.Binding{
				Key:     "slack:T1:C1:1712.0001",
				Repo:    "api",
				Branch:  "reasonix/1712",
				Running: true,
				Created: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
			}
			rev, err := s.PutBinding(ctx, binding, 0)
			if err != nil {
				t.Fatalf("PutBinding: %v", err)
			}
			approval := testApproval("a1")
			if err := s.PutApproval(ctx, approval); err != nil {
				t.Fatalf("PutApproval: %v", err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}

			s = openStore(t, opts)
			r = newRecorder()
			c := consume(t, s, r.handle)
			got := r.waitCount(t, 4)
			c.stop(t)
			slices.Sort(got)
			if want := []string{"e2", "e3", "e4", "e5"}; !slices.Equal(got, want) {
				t.Errorf("after restart: got %v, want %v", got, want)
			}
			assertInboxEmpty(t, s)

			// Processed before and after the restart: still duplicates.
			for _, id := range []string{"e0", "e4"} {
				if dup, err := s.Add(ctx, testEvent(id)); err != nil || !dup {
					t.Errorf("Add(%s) after restart: got dup %v, err %v; want true, nil", id, dup, err)
				}
			}

			gotB, gotRev, err := s.GetBinding(ctx, binding.Key)
			if err != nil {
				t.Fatalf("GetBinding after restart: %v", err)
			}
			if gotRev != rev || !reflect.DeepEqual(gotB, binding) {
				t.Errorf("binding after restart: got %+v at %d, want %+v at %d", gotB, gotRev, binding, rev)
			}
			pending, err := s.PendingApprovals(ctx)
			if err != nil {
				t.Fatalf("PendingApprovals after restart: %v", err)
			}
			if want := []bots.Approval{approval}; !reflect.DeepEqual(pending, want) {
				t.Errorf("pending after restart: got %+v, want %+v", pending, want)
			}
		})
	}
}
