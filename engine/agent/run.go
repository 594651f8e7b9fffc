package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/transcript"
)

// Env is what a run reports to and asks of the outside world.
type Env struct {
	// Emit receives the run's events in order. Nil discards them.
	Emit func(event.Event)
	// Approver answers calls the gate says to ask about. Nil fails every
	// ask closed: the call is refused and the model is told why.
	Approver permission.Approver
}

// Result sums up one turn.
type Result struct {
	Text  string
	Steps int
	Calls []CallRecord
	// Usage and Cost are this turn's; Session totals come from Totals.
	Usage provider.Usage
	Cost  float64
}

// CallRecord is one tool call of a turn, as the JSON summary reports it.
type CallRecord struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Subject    string `json:"subject"`
	OK         bool   `json:"ok"`
	Blocked    string `json:"blocked,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// stepLimitNote is appended when MaxSteps rounds used tools, to get a final
// answer from one more round without tools.
const stepLimitNote = "[reasonix] The step limit for this turn is reached. Do not call tools. Summarize what you did, what you verified, and what is left to do."

// Run executes one turn: it appends the user message and loops until the
// model answers without calling tools. Runs of one session must not overlap.
// On cancellation it returns an error satisfying errors.Is(err,
// context.Canceled) and leaves the history consistent (every tool call has
// a result), so the next turn can continue.
func (s *Session) Run(ctx context.Context, t Turn, env Env) (Result, error) {
	if err := s.appendMessage(provider.Message{Role: provider.RoleUser, Content: compose(t, s.opts.Now())}); err != nil {
		return Result{}, err
	}
	return s.loop(ctx, env)
}

// Continue runs more rounds without a new user message: the queued steers
// are the input. The controller uses it when a steer arrived just as a run
// was ending, so the person who sent it still gets an answer.
func (s *Session) Continue(ctx context.Context, env Env) (Result, error) {
	return s.loop(ctx, env)
}

// HasSteers reports whether steers are waiting for the next round.
func (s *Session) HasSteers() bool { return s.hasSteers() }

// DiscardSteers drops steers no round will see (the run ended with an
// error) and reports how many there were.
func (s *Session) DiscardSteers() int { return len(s.takeSteers()) }

// loop runs rounds until the model answers without calling tools.
func (s *Session) loop(ctx context.Context, env Env) (Result, error) {
	if env.Emit == nil {
		env.Emit = func(event.Event) {}
	}
	var res Result
	for {
		for _, st := range s.takeSteers() {
			if err := s.appendMessage(provider.Message{Role: provider.RoleUser, Content: compose(st, s.opts.Now())}); err != nil {
				return res, err
			}
			env.Emit(event.Notice{Level: "info", Code: "steer", Text: "steer received: " + oneLine(st.Text)})
		}
		final := res.Steps >= s.opts.MaxSteps
		if final {
			if err := s.appendMessage(provider.Message{Role: provider.RoleUser, Content: stepLimitNote}); err != nil {
				return res, err
			}
			env.Emit(event.Notice{Level: "warn", Code: "step_limit", Text: fmt.Sprintf("step limit (%d) reached; asking for a final answer", s.opts.MaxSteps)})
		}
		if err := s.maybeCompact(ctx, env); err != nil {
			return res, err
		}
		resp, err := s.round(ctx, final, env)
		if err != nil {
			return res, err
		}
		res.Steps++
		res.Usage = res.Usage.Add(resp.Usage)
		res.Cost += s.opts.Prices.Cost(resp.Usage)
		msg := resp.Message
		msg.Role = provider.RoleAssistant
		if final {
			// The grace round must not leave calls without results.
			msg.ToolCalls = nil
		}
		if err := s.appendMessage(msg); err != nil {
			return res, err
		}
		if len(msg.ToolCalls) == 0 {
			if s.hasSteers() && !final {
				continue
			}
			res.Text = msg.Content
			return res, nil
		}
		calls, err := s.executeCalls(ctx, msg.ToolCalls, env)
		res.Calls = append(res.Calls, calls...)
		if err != nil {
			return res, err
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
}

func (s *Session) hasSteers() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.steers) > 0
}

// round sends one request and commits its accounting.
func (s *Session) round(ctx context.Context, final bool, env Env) (provider.Response, error) {
	s.mu.Lock()
	req := provider.Request{
		Model:    s.opts.Model,
		Messages: s.requestMessagesLocked(),
		Tools:    s.tools,
		NoTools:  final,
	}
	shape := shapeOf(s.system, s.tools, s.rewrite)
	s.mu.Unlock()

	resp, err := s.opts.Provider.Stream(ctx, req, func(d provider.Delta) {
		switch d.Kind {
		case provider.DeltaText:
			env.Emit(event.TextDelta{Text: d.Text})
		case provider.DeltaReasoning:
			env.Emit(event.ReasoningDelta{Text: d.Text})
		case provider.DeltaReset:
			env.Emit(event.StreamReset{})
		}
	})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w (%v)", ctxErr, err)
		}
		return resp, err
	}
	s.account(resp.Usage, shape, env)
	return resp, nil
}

// requestMessagesLocked is the system prompt followed by the history.
func (s *Session) requestMessagesLocked() []provider.Message {
	msgs := make([]provider.Message, 0, len(s.messages)+1)
	msgs = append(msgs, provider.Message{Role: provider.RoleSystem, Content: s.system})
	return append(msgs, s.messages...)
}

// account adds one request's usage to the session, records it, explains a
// cache-hit drop, and emits the usage event.
func (s *Session) account(u provider.Usage, shape prefixShape, env Env) {
	cost := s.opts.Prices.Cost(u)
	s.mu.Lock()
	prev, prevShape, first := s.lastHit, s.shape, s.requests == 0
	s.usage = s.usage.Add(u)
	s.cost += cost
	s.requests++
	s.lastHit = u.CacheHitTokens
	s.shape = shape
	ev := event.Usage{Model: s.opts.Model, Request: u, RequestCost: cost, Session: s.usage, SessionCost: s.cost, SessionCalls: s.requests}
	s.mu.Unlock()

	_ = s.record(transcript.Record{Type: transcript.TypeUsage, Usage: &transcript.UsageRecord{Model: s.opts.Model, Usage: u, Cost: cost}})
	if !first && hitDropped(prev, u) {
		cause := missCause(prevShape, shape)
		env.Emit(event.Notice{Level: "warn", Code: "cache_miss", Text: fmt.Sprintf("prompt cache hit dropped from %d to %d tokens; cause: %s", prev, u.CacheHitTokens, cause)})
	}
	env.Emit(ev)
}
