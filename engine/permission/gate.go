// Package permission decides whether a tool call may run: allow, ask a human,
// or deny. The agent consults a Gate before every call; an Approver (a
// frontend, through the controller) answers the asks.
//
// It imports only the standard library and engine/tool-level types, so every
// engine package and frontend may import it.
package permission

import (
	"context"
	"encoding/json"
)

// Verdict is the outcome of a policy check.
type Verdict int

// The verdicts, from most to least permissive.
const (
	Allow Verdict = iota
	Ask
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "unknown"
}

// Call is the subject of a check: one tool call as the model asked for it.
type Call struct {
	Tool     string
	Args     json.RawMessage
	ReadOnly bool // the tool's own read-only flag
}

// Decision is a Gate's answer for one call.
type Decision struct {
	Verdict Verdict
	// Rule names the rule that decided ("deny: Bash(rm:*)"), or the fallback
	// ("fallback: writer in ask mode"). Shown to people and, for denials, to
	// the model.
	Rule string
	// Subject is the human-readable thing being decided: the command line, or
	// the path being edited.
	Subject string
	// Scope is the rule an "approve for this session" answer would grant,
	// e.g. "Bash(go test:*)" or "Edit(src/main.go)". Empty when no reusable
	// grant is safe (only once/deny may be offered).
	Scope string
	// ReadOnly reports that this particular call cannot change anything
	// (for example a bash command classified read-only), so it may run in a
	// parallel batch.
	ReadOnly bool
}

// Gate checks calls against a policy. Implementations must be safe for
// concurrent use.
type Gate interface {
	Check(call Call) Decision
}

// Granter is an optional Gate ability: remember a session-scoped grant made
// by an approver, so later calls within that scope are allowed.
type Granter interface {
	Grant(scope string)
}

// Choice is what an approver decided.
type Choice int

// The choices an approver can make.
const (
	DenyIt Choice = iota
	ApproveOnce
	ApproveSession
)

func (c Choice) String() string {
	switch c {
	case ApproveOnce:
		return "approved once"
	case ApproveSession:
		return "approved for this session"
	}
	return "denied"
}

// Answer is an approver's decision on one ask.
type Answer struct {
	Choice Choice
	Reason string // optional, passed to the model on a denial
	By     string // who decided, for the record
}

// Request is one ask sent to an approver.
type Request struct {
	ID       string
	Call     Call
	Decision Decision
}

// Approver answers asks. It blocks until a decision or ctx ends; an error or
// a cancelled context is treated as a denial.
type Approver interface {
	Approve(ctx context.Context, req Request) (Answer, error)
}

// DefaultGate is the policy used when no rules are configured: read-only
// tools run, writers ask — or run, when Auto is set.
type DefaultGate struct {
	Auto bool
}

// Check implements Gate.
func (g DefaultGate) Check(call Call) Decision {
	switch {
	case call.ReadOnly:
		return Decision{Verdict: Allow, Rule: "fallback: read-only tool", Subject: call.Tool, ReadOnly: true}
	case g.Auto:
		return Decision{Verdict: Allow, Rule: "fallback: auto mode", Subject: call.Tool}
	default:
		return Decision{Verdict: Ask, Rule: "fallback: writer in ask mode", Subject: call.Tool, Scope: call.Tool}
	}
}
