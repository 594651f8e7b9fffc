package controller

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
)

// ErrNoApproval means the id names no pending approval: it never existed or
// was already resolved (a double click, or a click racing the timeout).
var ErrNoApproval = errors.New("controller: no such pending approval")

// approvals tracks the asks waiting for a person.
type approvals struct {
	mu      sync.Mutex // guards pending
	pending map[string]*approval
}

type approval struct {
	req    event.ApprovalRequest
	answer chan permission.Answer // buffered(1); written once by the winner
}

// take removes a pending approval; only one caller can win it.
func (a *approvals) take(id string) (*approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.pending[id]
	if ok {
		delete(a.pending, id)
	}
	return p, ok
}

// Approve implements permission.Approver: it publishes the request and
// waits for Resolve, the timeout, or the end of the turn.
func (c *Controller) Approve(ctx context.Context, req permission.Request) (permission.Answer, error) {
	ev := event.ApprovalRequest{
		ID: req.ID, Tool: req.Call.Tool, Subject: req.Decision.Subject, Rule: req.Decision.Rule,
		Scope: req.Decision.Scope, Args: string(req.Call.Args),
	}
	var timeout <-chan time.Time
	if d := c.opts.ApprovalTimeout; d > 0 {
		ev.Deadline = time.Now().Add(d)
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	p := &approval{req: ev, answer: make(chan permission.Answer, 1)}
	c.approvals.mu.Lock()
	c.approvals.pending[req.ID] = p
	c.approvals.mu.Unlock()
	c.publish(ev)

	var ans permission.Answer
	select {
	case ans = <-p.answer:
	case <-timeout:
		if _, won := c.approvals.take(req.ID); won {
			ans = permission.Answer{Choice: permission.DenyIt, By: "timeout", Reason: "nobody answered the approval request in time"}
			c.publish(event.ApprovalResolved{ID: req.ID, Answer: ans})
		} else {
			ans = <-p.answer // Resolve won the race; honour it
		}
	case <-ctx.Done():
		if _, won := c.approvals.take(req.ID); won {
			ans = permission.Answer{Choice: permission.DenyIt, By: "cancel", Reason: "the run was stopped"}
			c.publish(event.ApprovalResolved{ID: req.ID, Answer: ans})
			return ans, ctx.Err()
		}
		ans = <-p.answer
	}
	return ans, nil
}

// Resolve answers a pending approval exactly once. A second call for the
// same id returns ErrNoApproval.
func (c *Controller) Resolve(id string, ans permission.Answer) error {
	p, ok := c.approvals.take(id)
	if !ok {
		return ErrNoApproval
	}
	c.publish(event.ApprovalResolved{ID: id, Answer: ans})
	p.answer <- ans
	return nil
}

// Pending lists the approvals waiting for an answer, oldest id first.
func (c *Controller) Pending() []event.ApprovalRequest {
	c.approvals.mu.Lock()
	defer c.approvals.mu.Unlock()
	out := make([]event.ApprovalRequest, 0, len(c.approvals.pending))
	for _, p := range c.approvals.pending {
		out = append(out, p.req)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
