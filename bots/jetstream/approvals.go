package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reasonix/teams/bots"
)

// approvalsBucket holds one key per approval (the encoded approval id).
const approvalsBucket = "reasonix_approvals"

// approvalRetention is how long an approval record lives after its last
// write. The bucket's TTL removes resolved records without a sweeper; a
// request still pending after a week has long passed its deadline, so
// losing it too is harmless (resolving it then reports bots.ErrNotFound).
const approvalRetention = 7 * 24 * time.Hour

func approvalsBucketConfig() jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket:      approvalsBucket,
		Description: "Reasonix gateway approval requests",
		History:     1,
		TTL:         approvalRetention,
		Storage:     jetstream.FileStorage,
	}
}

// isFinal reports whether st ends an approval.
func isFinal(st bots.ApprovalState) bool {
	switch st {
	case bots.ApprovalApproved, bots.ApprovalSession, bots.ApprovalDenied, bots.ApprovalExpired:
		return true
	}
	return false
}

// PutApproval records a. An empty State is stored as pending. A record
// with the same ID may be replaced only while it is still pending; once
// resolved, PutApproval returns an error matching bots.ErrConflict.
func (s *Store) PutApproval(ctx context.Context, a bots.Approval) error {
	if a.ID == "" {
		return errors.New("jetstream: put approval: the approval has no ID")
	}
	if a.State == "" {
		a.State = bots.ApprovalPending
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("jetstream: put approval %q: %w", a.ID, err)
	}
	key := encodeKey(a.ID)
	_, err = s.approvals.Create(ctx, key, data)
	if err == nil {
		return nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("jetstream: put approval %q: %w", a.ID, err)
	}
	old, rev, err := s.getApproval(ctx, a.ID)
	if err != nil {
		// Gone between Create and Get: it expired or was just written and
		// replaced. Either way the caller should look again.
		if errors.Is(err, bots.ErrNotFound) {
			return fmt.Errorf("jetstream: put approval %q: changed while writing: %w", a.ID, bots.ErrConflict)
		}
		return fmt.Errorf("jetstream: put approval: %w", err)
	}
	if old.State != bots.ApprovalPending {
		return fmt.Errorf("jetstream: put approval %q: already %s: %w", a.ID, old.State, bots.ErrConflict)
	}
	if _, err := s.approvals.Update(ctx, key, data, rev); err != nil {
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return fmt.Errorf("jetstream: put approval %q: changed while writing: %w", a.ID, bots.ErrConflict)
		}
		return fmt.Errorf("jetstream: put approval %q: %w", a.ID, err)
	}
	return nil
}

// ResolveApproval moves the pending approval id to state, which must be a
// final state, recording who decided and why, and returns the updated
// record. Of several concurrent calls for one id exactly one succeeds; the
// others, and any later call, get an error matching bots.ErrConflict. An
// unknown (or expired) id gives bots.ErrNotFound.
func (s *Store) ResolveApproval(ctx context.Context, id string, state bots.ApprovalState, by bots.User, reason string) (bots.Approval, error) {
	if !isFinal(state) {
		return bots.Approval{}, fmt.Errorf("jetstream: resolve approval %q: %q is not a final state (want approved, approved_session, denied or expired)", id, state)
	}
	// A revision mismatch may come from a write that left the approval
	// pending (PutApproval adding its message id): read again and retry.
	// Only a record that is no longer pending is a lost race.
	for attempt := 0; ; attempt++ {
		a, rev, err := s.getApproval(ctx, id)
		if err != nil {
			return bots.Approval{}, fmt.Errorf("jetstream: resolve approval: %w", err)
		}
		if a.State != bots.ApprovalPending {
			return bots.Approval{}, fmt.Errorf("jetstream: resolve approval %q: already %s: %w", id, a.State, bots.ErrConflict)
		}
		a.State = state
		a.DecidedBy = by
		a.Decided = time.Now().UTC()
		a.Reason = reason
		data, err := json.Marshal(a)
		if err != nil {
			return bots.Approval{}, fmt.Errorf("jetstream: resolve approval %q: %w", id, err)
		}
		_, err = s.approvals.Update(ctx, encodeKey(id), data, rev)
		switch {
		case err == nil:
			return a, nil
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch) && attempt < maxResolveAttempts:
			continue
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
			return bots.Approval{}, fmt.Errorf("jetstream: resolve approval %q: resolved concurrently: %w", id, bots.ErrConflict)
		}
		return bots.Approval{}, fmt.Errorf("jetstream: resolve approval %q: %w", id, err)
	}
}

// maxResolveAttempts bounds re-reads when pending-state writes race a
// resolution.
const maxResolveAttempts = 5

// PendingApprovals returns the approvals still pending, oldest first.
func (s *Store) PendingApprovals(ctx context.Context) ([]bots.Approval, error) {
	entries, err := listEntries(ctx, s.approvals)
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	var out []bots.Approval
	for _, e := range entries {
		var a bots.Approval
		if err := json.Unmarshal(e.Value(), &a); err != nil {
			id, _ := decodeKey(e.Key())
			return nil, fmt.Errorf("jetstream: pending approvals: decode %q: %w", id, err)
		}
		if a.State == bots.ApprovalPending {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y bots.Approval) int {
		if c := x.Created.Compare(y.Created); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out, nil
}

// getApproval reads one approval and its revision.
func (s *Store) getApproval(ctx context.Context, id string) (bots.Approval, uint64, error) {
	if id == "" {
		return bots.Approval{}, 0, fmt.Errorf("empty approval id: %w", bots.ErrNotFound)
	}
	e, err := s.approvals.Get(ctx, encodeKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return bots.Approval{}, 0, fmt.Errorf("approval %q: %w", id, bots.ErrNotFound)
	}
	if err != nil {
		return bots.Approval{}, 0, fmt.Errorf("approval %q: %w", id, err)
	}
	var a bots.Approval
	if err := json.Unmarshal(e.Value(), &a); err != nil {
		return bots.Approval{}, 0, fmt.Errorf("approval %q: decode: %w", id, err)
	}
	return a, e.Revision(), nil
}
