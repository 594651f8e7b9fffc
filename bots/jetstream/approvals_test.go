package jetstream

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
)

// testApproval is a pending approval for a bash command.
func testApproval(id string) bots.Approval {
	created := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	return bots.Approval{
		ID:        id,
		ThreadKey: "slack:T1:C1:1712.0001",
		Ref:       bots.ThreadRef{Platform: "slack", Team: "T1", Channel: "C1", Thread: "1712.0001"},
		MessageID: "1712.0002",
		Tool:      "bash",
		Subject:   "rm -rf build/",
		Rule:      "bash(rm *)",
		Requester: bots.User{ID: "U1", Name: "ada"},
		Created:   created,
		Deadline:  created.Add(10 * time.Minute),
		State:     bots.ApprovalPending,
	}
}

func TestApprovals(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			ctx := context.Background()
			by := bots.User{ID: "U2", Name: "grace"}

			if _, err := s.ResolveApproval(ctx, "nope", bots.ApprovalApproved, by, ""); !errors.Is(err, bots.ErrNotFound) {
				t.Errorf("resolve unknown: got %v, want %v", err, bots.ErrNotFound)
			}
			pending, err := s.PendingApprovals(ctx)
			if err != nil || len(pending) != 0 {
				t.Fatalf("PendingApprovals on an empty bucket: got %v, %v; want [], nil", pending, err)
			}

			a := testApproval("req:1/x") // ids need not be valid KV keys
			a.State = ""                 // stored as pending
			if err := s.PutApproval(ctx, a); err != nil {
				t.Fatalf("PutApproval: %v", err)
			}
			a.State = bots.ApprovalPending
			a.Subject = "rm -rf dist/"
			if err := s.PutApproval(ctx, a); err != nil {
				t.Fatalf("PutApproval over a pending one: %v", err)
			}
			older := testApproval("req:0")
			older.Created = a.Created.Add(-time.Minute)
			if err := s.PutApproval(ctx, older); err != nil {
				t.Fatalf("PutApproval: %v", err)
			}
			pending, err = s.PendingApprovals(ctx)
			if err != nil {
				t.Fatalf("PendingApprovals: %v", err)
			}
			if want := []bots.Approval{older, a}; !reflect.DeepEqual(pending, want) {
				t.Errorf("PendingApprovals: got %+v, want %+v", pending, want)
			}

			if _, err := s.ResolveApproval(ctx, a.ID, bots.ApprovalPending, by, ""); err == nil ||
				errors.Is(err, bots.ErrConflict) || errors.Is(err, bots.ErrNotFound) {
				t.Errorf("resolve to pending: got %v, want a plain error", err)
			}

			got, err := s.ResolveApproval(ctx, a.ID, bots.ApprovalDenied, by, "not on main")
			if err != nil {
				t.Fatalf("ResolveApproval: %v", err)
			}
			if got.State != bots.ApprovalDenied || got.DecidedBy != by || got.Reason != "not on main" || got.Decided.IsZero() {
				t.Errorf("resolved: got state %s by %v reason %q at %v; want denied by %v, reason set, time set",
					got.State, got.DecidedBy, got.Reason, got.Decided, by)
			}
			if _, err := s.ResolveApproval(ctx, a.ID, bots.ApprovalApproved, by, ""); !errors.Is(err, bots.ErrConflict) {
				t.Errorf("resolve twice: got %v, want %v", err, bots.ErrConflict)
			}
			if err := s.PutApproval(ctx, a); !errors.Is(err, bots.ErrConflict) {
				t.Errorf("put over a resolved one: got %v, want %v", err, bots.ErrConflict)
			}
			pending, err = s.PendingApprovals(ctx)
			if err != nil {
				t.Fatalf("PendingApprovals: %v", err)
			}
			if want := []bots.Approval{older}; !reflect.DeepEqual(pending, want) {
				t.Errorf("PendingApprovals after resolving: got %+v, want %+v", pending, want)
			}
		})
	}
}

// TestResolveApprovalOnce is a double (here twenty-fold) click: exactly one
// resolution wins.
func TestResolveApprovalOnce(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			ctx := context.Background()
			if err := s.PutApproval(ctx, testApproval("a1")); err != nil {
				t.Fatalf("PutApproval: %v", err)
			}

			const clickers = 20
			var start sync.WaitGroup
			start.Add(1)
			type result struct {
				a   bots.Approval
				err error
			}
			results := make(chan result, clickers)
			for i := range clickers {
				go func() {
					start.Wait()
					by := bots.User{ID: "U" + string(rune('A'+i))}
					a, err := s.ResolveApproval(ctx, "a1", bots.ApprovalApproved, by, "")
					results <- result{a, err}
				}()
			}
			start.Done()

			var winner bots.Approval
			wins := 0
			for range clickers {
				r := <-results
				switch {
				case r.err == nil:
					wins++
					winner = r.a
				case !errors.Is(r.err, bots.ErrConflict):
					t.Errorf("losing click: got %v, want %v", r.err, bots.ErrConflict)
				}
			}
			if wins != 1 {
				t.Fatalf("successful resolutions: got %d, want 1", wins)
			}
			stored, _, err := s.getApproval(ctx, "a1")
			if err != nil {
				t.Fatalf("read back: %v", err)
			}
			if stored.State != bots.ApprovalApproved || stored.DecidedBy != winner.DecidedBy {
				t.Errorf("stored: got %s by %v, want approved by %v", stored.State, stored.DecidedBy, winner.DecidedBy)
			}
		})
	}
}
