package bots

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/event"
)

// runTurn runs one turn of a thread: bind and open the session, wait for a
// slot, stream the run into the status card, post the answer, and land the
// changes as a commit on the thread's branch.
func (g *Gateway) runTurn(workCtx context.Context, t *thread, ev Event, turn agent.Turn, opts threadOptions, acked <-chan struct{}) {
	submitted := false
	notWaiting := func() {
		if !submitted {
			t.mu.Lock()
			t.notWaitingLocked()
			t.mu.Unlock()
		}
	}
	a, ok := g.adapter(ev.Ref.Platform)
	if !ok || (workCtx.Err() != nil && t.shuttingDown.Load()) {
		// Never started because the bot is stopping: the pending mark
		// stays, and the next start tells the thread.
		notWaiting()
		return
	}
	// The engine runs on turnCtx (stop and shutdown cancel it); what the
	// thread is told and stored must still go out after that, so messages
	// and state use ctx, which outlives the cancellation.
	ctx := context.WithoutCancel(workCtx)
	// However the turn ends from here on, the thread is told, so the
	// pending mark is cleared (unless more turns wait behind this one).
	ran := false
	defer func() {
		notWaiting()
		_ = t.save(ctx, func(b *Binding) {
			b.Running, b.Updated = t.waiting > 0, time.Now().UTC()
			if ran {
				b.Turns++
			}
		})
	}()
	turnCtx, cancel := context.WithCancel(workCtx)
	defer cancel()
	t.mu.Lock()
	t.cancel = cancel
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.cancel = nil
		t.mu.Unlock()
	}()

	card := newLiveCard(ctx, g, a, ev, turn.Text)
	defer card.close(context.WithoutCancel(ctx))
	t.mu.Lock()
	t.card = card
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.card = nil
		t.mu.Unlock()
	}()
	finish := func(phase Phase, errText string) {
		card.update(func(c *Card) { c.Phase, c.Error = phase, errText })
		<-acked
		g.react(ctx, ev.Ref, ev.MessageID, "eyes", false)
		mark := "white_check_mark"
		if phase != PhaseDone {
			mark = "x"
		}
		g.react(ctx, ev.Ref, ev.MessageID, mark, true)
	}

	if err := t.ensureSession(turnCtx, ev, opts); err != nil {
		finish(PhaseFailed, plainError(err))
		g.reply(ctx, ev.Ref, plainError(err))
		return
	}
	t.mu.Lock()
	repo, branch, ctrl := t.binding.Repo, t.binding.Branch, t.ctrl
	t.mu.Unlock()
	card.update(func(c *Card) { c.Repo, c.Branch = repo, branch })

	release, err := g.limiter.acquire(turnCtx, func(ahead int) {
		card.update(func(c *Card) {
			// Positions are reported outside the limiter's lock and may
			// arrive after the slot was granted: never go back to queued.
			if c.Phase == PhasePreparing || c.Phase == PhaseQueued {
				c.Phase, c.QueueAhead = PhaseQueued, ahead
			}
		})
	})
	if err != nil {
		if t.shuttingDown.Load() {
			finish(PhaseInterrupted, "the bot is shutting down")
			g.reply(ctx, ev.Ref, "I'm restarting, so this message was not started. Send it again after the restart.")
		} else {
			finish(PhaseCanceled, "stopped before it started")
		}
		return
	}
	defer release()
	card.update(func(c *Card) { c.Phase = PhaseRunning })

	_ = t.save(ctx, func(b *Binding) {
		b.Running, b.CardID, b.TriggerID, b.Updated = true, card.id, ev.MessageID, time.Now().UTC()
	})
	turn.Context = append(turn.Context, agent.ContextItem{Key: "thread", Value: fmt.Sprintf("%s · repo %s · branch %s", t.key, repo, branch)})
	sub := ctrl.Subscribe()
	defer sub.Close()
	// Steers that arrived while the turn waited go in first. Submitting
	// under the thread lock closes the gap in which a steer could find the
	// turn neither waiting nor running.
	t.mu.Lock()
	for _, s := range t.steers {
		ctrl.Session().Steer(s)
	}
	t.steers = nil
	done, err := ctrl.Submit(turnCtx, turn)
	t.notWaitingLocked()
	submitted = true
	t.mu.Unlock()
	if err != nil {
		finish(PhaseFailed, plainError(err))
		return
	}
	r := &turnRenderer{g: g, t: t, a: a, ev: ev, card: card}
	var outcome event.TurnDone
	for e := range sub.Events() {
		if d, ok := e.(event.TurnDone); ok {
			outcome = d
			break
		}
		r.handle(ctx, e)
	}
	<-done

	landed := g.land(ctx, t, ev, turn.Text)
	canceled := outcome.Canceled || errors.Is(outcome.Err, context.Canceled)
	switch {
	case canceled && t.shuttingDown.Load():
		finish(PhaseInterrupted, "the bot is shutting down")
		g.reply(ctx, ev.Ref, "I'm restarting, so I stopped this turn. Send a message here to continue where I left off."+landed)
	case canceled:
		finish(PhaseCanceled, "stopped")
		g.reply(ctx, ev.Ref, "Stopped."+landed)
	case outcome.Err != nil:
		finish(PhaseFailed, plainError(outcome.Err))
		g.reply(ctx, ev.Ref, plainError(outcome.Err)+landed)
	default:
		finish(PhaseDone, "")
		g.postAnswer(ctx, a, ev.Ref, outcome.Text, landed)
	}
	ran = true
}

// postAnswer posts the final answer as new messages (so people are
// notified), or as a file when it is very long.
func (g *Gateway) postAnswer(ctx context.Context, a Adapter, ref ThreadRef, answer, footer string) {
	answer = strings.TrimSpace(answer)
	if answer == "" {
		answer = "Done."
	}
	max := a.Limits().MaxText
	if up, ok := a.(Uploader); ok && len(answer) > 4*max {
		if err := up.Upload(ctx, ref, "answer.md", []byte(answer), "The full answer is attached."); err == nil {
			g.reply(ctx, ref, firstParagraph(answer, max/2)+"\n\n_(full answer attached as answer.md)_"+footer)
			return
		}
	}
	g.reply(ctx, ref, answer+footer)
}

func firstParagraph(s string, max int) string {
	if i := strings.Index(s, "\n\n"); i > 0 && i < max {
		return s[:i]
	}
	parts := Split(s, max)
	if len(parts) == 0 {
		return ""
	}
	return parts[0]
}

// turnRenderer turns controller events into the status card, approval
// messages and notices.
type turnRenderer struct {
	g    *Gateway
	t    *thread
	a    Adapter
	ev   Event
	card *liveCard
}

const maxCardSteps = 200

func (r *turnRenderer) handle(ctx context.Context, e event.Event) {
	switch e := e.(type) {
	case event.ToolDispatch:
		r.card.update(func(c *Card) {
			if len(c.Steps) < maxCardSteps {
				c.Steps = append(c.Steps, Step{Tool: e.Tool, Subject: e.Subject, State: StepRunning})
			}
		})
	case event.ToolResult:
		state := StepOK
		switch {
		case e.Blocked != "":
			state = StepBlocked
		case !e.OK:
			state = StepFailed
		}
		r.card.update(func(c *Card) { finishStep(c, e, state) })
	case event.Usage:
		r.card.update(func(c *Card) {
			c.PromptTokens, c.CacheHitTokens, c.CompletionTokens, c.Cost = e.Session.PromptTokens, e.Session.CacheHitTokens, e.Session.CompletionTokens, e.SessionCost
		})
	case event.Notice:
		if e.Code == "compaction" || e.Code == "compaction_failed" || e.Code == "step_limit" {
			r.card.update(func(c *Card) { c.Note = e.Text })
		}
	case event.ApprovalRequest:
		r.card.update(func(c *Card) { c.Phase = PhaseWaitingApproval })
		r.g.askApproval(ctx, r.t, r.a, r.ev, e)
	case event.ApprovalResolved:
		r.card.update(func(c *Card) { c.Phase = PhaseRunning })
		r.g.approvalResolved(ctx, r.t, e)
	}
}

// finishStep marks the running step of a result done, or adds the step
// when the call was refused before it was dispatched.
func finishStep(c *Card, e event.ToolResult, state StepState) {
	for i := len(c.Steps) - 1; i >= 0; i-- {
		s := &c.Steps[i]
		if s.State == StepRunning && s.Tool == e.Tool && s.Subject == e.Subject {
			s.State, s.Duration, s.Note = state, e.Duration, e.Blocked
			return
		}
	}
	if len(c.Steps) < maxCardSteps {
		c.Steps = append(c.Steps, Step{Tool: e.Tool, Subject: e.Subject, State: state, Duration: e.Duration, Note: e.Blocked})
	}
}

// noteSteer shows on the running turn's card that a steer arrived; the
// model sees it at its next round.
func (t *thread) noteSteer(ev Event) {
	t.mu.Lock()
	card := t.card
	t.mu.Unlock()
	if card != nil {
		card.update(func(c *Card) {
			c.Note = "↪ message from " + nonEmpty(ev.User.Name, ev.User.ID) + " passed to the agent"
		})
	}
}
