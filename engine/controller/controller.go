// Package controller is the one face of the engine that every frontend uses:
// the headless CLI, the Slack bot and the Discord bot. A Controller owns one
// agent session and runs its turns one at a time; frontends submit turns,
// steer or cancel the run in flight, answer approval requests, and subscribe
// to the typed event stream. Several frontends may use one controller at once.
//
// It knows nothing of any chat platform. cmd/ and bots/ import it.
package controller

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
)

// ErrBusy means a turn is already running; steer it or wait.
var ErrBusy = errors.New("controller: a turn is already running")

// ErrClosed means the controller was closed.
var ErrClosed = errors.New("controller: closed")

// Options configure a Controller.
type Options struct {
	// Approvals makes the controller the session's approver: asks are
	// published as ApprovalRequest events and wait for Resolve. When false,
	// every ask fails closed (the model is told nobody can approve).
	Approvals bool
	// ApprovalTimeout denies an unanswered approval after this long; 0
	// waits until the turn is cancelled.
	ApprovalTimeout time.Duration
}

// Outcome is how a submitted turn ended.
type Outcome struct {
	Result agent.Result
	Err    error
}

// Controller runs one session's turns.
type Controller struct {
	sess *agent.Session
	opts Options

	mu      sync.Mutex // guards the fields below
	closed  bool
	running bool
	cancel  context.CancelFunc
	turn    int
	wg      sync.WaitGroup // running turns, for Close

	approvals approvals
	fanout    fanout
}

// New wraps a session.
func New(sess *agent.Session, opts Options) *Controller {
	c := &Controller{sess: sess, opts: opts}
	c.approvals.pending = map[string]*approval{}
	return c
}

// Session is the session this controller runs.
func (c *Controller) Session() *agent.Session { return c.sess }

// Busy reports whether a turn is running.
func (c *Controller) Busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// Submit starts a turn in the background. The returned channel receives its
// outcome once; the same outcome is published as a TurnDone event. It fails
// with ErrBusy while a turn runs: use Steer for messages during a run.
func (c *Controller) Submit(ctx context.Context, t agent.Turn) (<-chan Outcome, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if c.running {
		return nil, ErrBusy
	}
	runCtx, cancel := context.WithCancel(ctx)
	c.running, c.cancel = true, cancel
	c.turn++
	turn := c.turn
	done := make(chan Outcome, 1)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		c.publish(event.TurnStarted{Session: c.sess.ID(), Turn: turn, Text: t.Text, Speaker: t.Speaker})
		env := agent.Env{Emit: c.publish}
		if c.opts.Approvals {
			env.Approver = c
		}
		res, err := c.sess.Run(runCtx, t, env)
		for err == nil {
			// A steer accepted while the run was finishing must still be
			// answered: the check and the end of `running` happen under
			// the lock Steer takes, so no steer falls in between.
			c.mu.Lock()
			if !c.sess.HasSteers() {
				c.running, c.cancel = false, nil
				c.mu.Unlock()
				break
			}
			c.mu.Unlock()
			var more agent.Result
			more, err = c.sess.Continue(runCtx, env)
			res = merge(res, more)
		}
		canceled := err != nil && errors.Is(err, context.Canceled)
		if err != nil {
			c.mu.Lock()
			c.running, c.cancel = false, nil
			// Steers the failed run never saw must not surface in a later,
			// unrelated turn.
			c.sess.DiscardSteers()
			c.mu.Unlock()
		}
		c.publish(event.TurnDone{Session: c.sess.ID(), Turn: turn, Text: res.Text, Steps: res.Steps, Err: err, Canceled: canceled})
		done <- Outcome{Result: res, Err: err}
	}()
	return done, nil
}

// merge adds a continuation's figures to a turn's result. The answers are
// joined: the first one answers the task, the second the late steer.
func merge(a, b agent.Result) agent.Result {
	switch {
	case a.Text == "":
		a.Text = b.Text
	case b.Text != "":
		a.Text += "\n\n" + b.Text
	}
	a.Steps += b.Steps
	a.Calls = append(a.Calls, b.Calls...)
	a.Usage = a.Usage.Add(b.Usage)
	a.Cost += b.Cost
	return a
}

// Run submits a turn and waits for it.
func (c *Controller) Run(ctx context.Context, t agent.Turn) (agent.Result, error) {
	done, err := c.Submit(ctx, t)
	if err != nil {
		return agent.Result{}, err
	}
	o := <-done
	return o.Result, o.Err
}

// Steer hands a message to the running turn, which sees it before its next
// model round. It returns false when no turn is running (submit it instead).
func (c *Controller) Steer(t agent.Turn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		return false
	}
	c.sess.Steer(t)
	return true
}

// Cancel stops the running turn. It returns false when none was running.
func (c *Controller) Cancel() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel == nil {
		return false
	}
	c.cancel()
	return true
}

// Close cancels any running turn, waits for it, and ends every
// subscription after the events already published were delivered.
func (c *Controller) Close() {
	c.mu.Lock()
	c.closed = true
	if c.cancel != nil {
		c.cancel()
	}
	c.mu.Unlock()
	c.wg.Wait()
	c.fanout.closeAll()
}

func (c *Controller) publish(ev event.Event) { c.fanout.publish(ev) }

var _ permission.Approver = (*Controller)(nil)
