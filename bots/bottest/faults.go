package bottest

import (
	"fmt"
	"slices"
	"time"
)

// The operations FailNext and Attempts name.
const (
	OpPost      = "post"      // Post
	OpUpdate    = "update"    // Update
	OpReact     = "react"     // React
	OpUpload    = "upload"    // Upload
	OpEphemeral = "ephemeral" // PostEphemeral
	OpReply     = "reply"     // ReplyCommand
)

func knownOp(op string) bool {
	switch op {
	case OpPost, OpUpdate, OpReact, OpUpload, OpEphemeral, OpReply:
		return true
	}
	return false
}

// FailNext makes the next call of op return err without recording
// anything; several calls queue up, oldest first. A rate limit is
// &bots.RateLimitError{Op: "update", RetryAfter: d}. An unknown op panics,
// since a misspelt one would silently never fail.
func (p *Platform) FailNext(op string, err error) {
	if !knownOp(op) {
		panic(fmt.Sprintf("bottest: FailNext: unknown op %q", op))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults[op] = append(p.faults[op], err)
}

// Attempts counts the calls of op so far, failed ones included.
func (p *Platform) Attempts(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.attempts[op]
}

// Failure is a call that failed because FailNext said so.
type Failure struct {
	Op  string
	Err error
	At  time.Time
}

// Failures returns the injected failures that were used, oldest first.
func (p *Platform) Failures() []Failure {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.failures)
}

// attemptLocked counts a call of op and returns the injected failure for
// it, if one is queued.
func (p *Platform) attemptLocked(op string) error {
	p.attempts[op]++
	p.notifyLocked()
	q := p.faults[op]
	if len(q) == 0 {
		return nil
	}
	err := q[0]
	p.failures = append(p.failures, Failure{Op: op, Err: err, At: time.Now()})
	if len(q) == 1 {
		delete(p.faults, op)
	} else {
		p.faults[op] = q[1:]
	}
	return err
}
