package bots

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound means a key has no value in the store.
var ErrNotFound = errors.New("bots: not found")

// ErrConflict means a compare-and-swap lost: someone else changed the value
// first (or, for approvals, resolved it first).
var ErrConflict = errors.New("bots: conflicting update")

// Inbox is the durable queue of inbound events: recorded before the
// platform is acknowledged, deduplicated by event id, processed once.
type Inbox interface {
	// Add records ev. dup is true when an event with the same ID was
	// already recorded; it is then not delivered again.
	Add(ctx context.Context, ev Event) (dup bool, err error)
	// Consume delivers recorded events in order, including those recorded
	// before a restart and not yet processed, until ctx ends. An event is
	// marked processed when fn returns nil; an error redelivers it later.
	Consume(ctx context.Context, fn func(context.Context, Event) error) error
}

// Binding is the durable state of one thread: which repo, workspace and
// session it is bound to, and whether a turn was in flight.
type Binding struct {
	Key       string    `json:"key"`
	Ref       ThreadRef `json:"ref"`
	Repo      string    `json:"repo"`
	Base      string    `json:"base"`
	Branch    string    `json:"branch"`
	Workspace string    `json:"workspace"` // the worktree path
	SessionID string    `json:"session_id"`
	Requester User      `json:"requester"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
	// Running is set while a turn runs, so a restart can tell the thread
	// its turn was interrupted.
	Running bool `json:"running,omitempty"`
	// CardID is the status card of the latest turn.
	CardID string `json:"card_id,omitempty"`
	// TriggerID is the message that started the latest turn (reactions).
	TriggerID string `json:"trigger_id,omitempty"`
	// Task is that message's text (bounded), so a restart can say which
	// turn it cut.
	Task  string `json:"task,omitempty"`
	PRURL string `json:"pr_url,omitempty"`
	Turns int    `json:"turns"`
	// Generation counts `new` commands: each gives the thread a fresh
	// workspace and branch.
	Generation int `json:"generation,omitempty"`
}

// Bindings stores thread bindings with compare-and-swap updates.
type Bindings interface {
	// GetBinding returns the binding and its revision, or ErrNotFound.
	GetBinding(ctx context.Context, key string) (Binding, uint64, error)
	// PutBinding writes b if the stored revision is rev (0: only if absent)
	// and returns the new revision, or ErrConflict.
	PutBinding(ctx context.Context, b Binding, rev uint64) (uint64, error)
	ListBindings(ctx context.Context) ([]Binding, error)
}

// ApprovalState is where a pending approval stands.
type ApprovalState string

// Approval states.
const (
	ApprovalPending  ApprovalState = "pending"
	ApprovalApproved ApprovalState = "approved"
	ApprovalSession  ApprovalState = "approved_session"
	ApprovalDenied   ApprovalState = "denied"
	ApprovalExpired  ApprovalState = "expired"
)

// Approval is the durable record of one approval request.
type Approval struct {
	ID        string        `json:"id"`
	ThreadKey string        `json:"thread_key"`
	Ref       ThreadRef     `json:"ref"`
	MessageID string        `json:"message_id"` // the message with the buttons
	Tool      string        `json:"tool"`
	Subject   string        `json:"subject"`
	Rule      string        `json:"rule"`
	Scope     string        `json:"scope,omitempty"`
	Requester User          `json:"requester"`
	Created   time.Time     `json:"created"`
	Deadline  time.Time     `json:"deadline"`
	State     ApprovalState `json:"state"`
	DecidedBy User          `json:"decided_by"`
	Decided   time.Time     `json:"decided"`
	Reason    string        `json:"reason,omitempty"`
}

// Approvals stores approval records. Resolve is exactly-once.
type Approvals interface {
	PutApproval(ctx context.Context, a Approval) error
	// ResolveApproval moves a pending approval to a final state and returns
	// the updated record; ErrConflict if it was no longer pending,
	// ErrNotFound if it never existed.
	ResolveApproval(ctx context.Context, id string, state ApprovalState, by User, reason string) (Approval, error)
	// PendingApprovals lists the approvals still pending.
	PendingApprovals(ctx context.Context) ([]Approval, error)
}

// Store is everything the gateway keeps durably.
type Store interface {
	Inbox
	Bindings
	Approvals
	Close() error
}
