// Package event defines the typed events a controller publishes to its
// frontends: everything a terminal, a Slack card or a Discord message needs
// to render a session's progress.
//
// It is plain data with no behaviour; any package may import it.
package event

import (
	"time"

	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
)

// Event is one typed event. Kind is a stable lowercase name, used in JSON logs.
type Event interface {
	Kind() string
}

// TurnStarted opens a turn (one user submission and the rounds it causes).
type TurnStarted struct {
	Session string
	Turn    int
	Text    string
	Speaker string
}

// TextDelta is a fragment of the visible answer.
type TextDelta struct{ Text string }

// ReasoningDelta is a fragment of the model's reasoning.
type ReasoningDelta struct{ Text string }

// StreamReset tells frontends that a broken attempt is being replayed: the
// text and reasoning streamed since the last round started are void.
type StreamReset struct{ Attempt int }

// ToolDispatch announces a tool call about to run.
type ToolDispatch struct {
	CallID  string
	Tool    string
	Subject string // the command, the path: what a person wants to see
	Args    string
}

// ToolResult reports a finished tool call.
type ToolResult struct {
	CallID    string
	Tool      string
	Subject   string
	OK        bool
	Output    string // as the model sees it (bounded)
	Duration  time.Duration
	Truncated bool // the model saw a head+tail excerpt of a longer output
	Blocked   string
}

// ApprovalRequest asks a frontend to decide on a call; answer it with the
// controller's Resolve using ID.
type ApprovalRequest struct {
	ID       string
	Tool     string
	Subject  string
	Rule     string
	Scope    string // what "approve for this session" would grant; "" if not offered
	Args     string
	Deadline time.Time // zero when there is none
}

// ApprovalResolved reports how an approval request ended.
type ApprovalResolved struct {
	ID     string
	Answer permission.Answer
}

// Usage reports one model request's accounting and the session totals.
type Usage struct {
	Model        string
	Request      provider.Usage
	RequestCost  float64
	Session      provider.Usage
	SessionCost  float64
	SessionCalls int
}

// Notice is an informational or warning message for people, not the model.
type Notice struct {
	Level string // info | warn
	Code  string // stable machine-readable cause, e.g. "cache_miss", "compaction"
	Text  string
}

// TurnDone closes a turn. Err is nil on success; Canceled is set when the
// turn was stopped on request.
type TurnDone struct {
	Session  string
	Turn     int
	Text     string // the final answer
	Steps    int
	Err      error
	Canceled bool
}

func (TurnStarted) Kind() string      { return "turn_started" }
func (TextDelta) Kind() string        { return "text_delta" }
func (ReasoningDelta) Kind() string   { return "reasoning_delta" }
func (StreamReset) Kind() string      { return "stream_reset" }
func (ToolDispatch) Kind() string     { return "tool_dispatch" }
func (ToolResult) Kind() string       { return "tool_result" }
func (ApprovalRequest) Kind() string  { return "approval_request" }
func (ApprovalResolved) Kind() string { return "approval_resolved" }
func (Usage) Kind() string            { return "usage" }
func (Notice) Kind() string           { return "notice" }
func (TurnDone) Kind() string         { return "turn_done" }
