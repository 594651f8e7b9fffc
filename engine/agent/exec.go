package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/transcript"
)

// maxIdenticalFailures is how many times one exact call may fail before the
// agent refuses to run it again and tells the model to change approach.
const maxIdenticalFailures = 2

// pendingCall is one tool call on its way through validation, the gate and
// execution.
type pendingCall struct {
	call     provider.ToolCall
	tool     tool.Tool
	decision permission.Decision
	subject  string
	refusal  string // set when the call must not run; becomes its result

	// filled by execution
	output    string
	ok        bool
	blocked   string
	duration  time.Duration
	truncated bool
}

// executeCalls runs the calls of one assistant message and appends one tool
// result per call, in the provider's order. Contiguous calls that are
// allowed and read-only run in parallel; everything else runs alone. After
// cancellation the remaining calls get a "canceled" result so the history
// stays valid.
func (s *Session) executeCalls(ctx context.Context, calls []provider.ToolCall, env Env) ([]CallRecord, error) {
	pending := make([]*pendingCall, len(calls))
	for i, c := range calls {
		pending[i] = s.prepare(c)
	}
	for i := 0; i < len(pending); {
		j := i
		for j < len(pending) && pending[j].parallel() {
			j++
		}
		if j > i+1 {
			s.runBatch(ctx, pending[i:j], env)
			i = j
			continue
		}
		s.runOne(ctx, pending[i], env)
		i++
	}
	records := make([]CallRecord, 0, len(pending))
	for _, p := range pending {
		if err := s.commitResult(p); err != nil {
			return records, err
		}
		records = append(records, CallRecord{ID: p.call.ID, Name: p.call.Name, Subject: p.subject, OK: p.ok, Blocked: p.blocked, DurationMS: p.duration.Milliseconds()})
	}
	return records, nil
}

// prepare validates a call and asks the gate about it.
func (s *Session) prepare(c provider.ToolCall) *pendingCall {
	p := &pendingCall{call: c, subject: describe(c)}
	t, ok := s.opts.Tools.Lookup(c.Name)
	if !ok {
		p.refusal = fmt.Sprintf("error: unknown tool %q; available tools: %s", c.Name, strings.Join(s.opts.Tools.Names(), ", "))
		return p
	}
	p.tool = t
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) || args[0] != '{' {
		p.refusal = fmt.Sprintf("error: the arguments of %s are not a valid JSON object: %s\nThe arguments must match this JSON schema:\n%s\nResend the call with corrected arguments.", c.Name, preview(c.Arguments, 200), t.Schema())
		return p
	}
	p.call.Arguments = args
	if n := s.failureCount(c); n >= maxIdenticalFailures {
		p.refusal = fmt.Sprintf("error: this exact %s call already failed %d times; it was not run again. Change the arguments or take a different approach.", c.Name, n)
		return p
	}
	p.decision = s.opts.Gate.Check(permission.Call{Tool: c.Name, Args: json.RawMessage(args), ReadOnly: t.ReadOnly()})
	if sub := p.decision.Subject; sub != "" && sub != c.Name {
		p.subject = sub
	}
	return p
}

// parallel reports whether the call may join a concurrent batch.
func (p *pendingCall) parallel() bool {
	return p.refusal == "" && p.decision.Verdict == permission.Allow && p.decision.ReadOnly
}

func (s *Session) runBatch(ctx context.Context, batch []*pendingCall, env Env) {
	sem := make(chan struct{}, s.opts.ParallelReads)
	var wg sync.WaitGroup
	for _, p := range batch {
		env.Emit(event.ToolDispatch{CallID: p.call.ID, Tool: p.call.Name, Subject: p.subject, Args: p.call.Arguments})
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s.execute(ctx, p)
		}()
	}
	wg.Wait()
	for _, p := range batch {
		s.emitResult(p, env)
	}
}

// runOne settles the gate's verdict (asking a person when needed) and runs
// the call if it is allowed.
func (s *Session) runOne(ctx context.Context, p *pendingCall, env Env) {
	defer s.emitResult(p, env)
	switch {
	case ctx.Err() != nil:
		p.blocked = "canceled"
		p.output = "canceled: the run was stopped before this call ran"
		return
	case p.refusal != "":
		p.output = p.refusal
		return
	case p.decision.Verdict == permission.Deny:
		p.blocked = p.decision.Rule
		p.output = "blocked by policy: " + p.decision.Rule + ". Do not retry this call; find another way or explain what you need."
		return
	case p.decision.Verdict == permission.Ask:
		if !s.approve(ctx, p, env) {
			return
		}
	}
	env.Emit(event.ToolDispatch{CallID: p.call.ID, Tool: p.call.Name, Subject: p.subject, Args: p.call.Arguments})
	s.execute(ctx, p)
}

// approve asks the approver; it fills the refusal result and returns false
// unless the call may run.
func (s *Session) approve(ctx context.Context, p *pendingCall, env Env) bool {
	if env.Approver == nil {
		p.blocked = "needs approval: " + p.decision.Rule
		p.output = fmt.Sprintf("blocked: this call needs a person's approval (%s) and nobody can approve in this session. Do not retry it; continue without it or explain what you need.", p.decision.Rule)
		return false
	}
	req := permission.Request{ID: s.id + "/" + p.call.ID, Call: permission.Call{Tool: p.call.Name, Args: json.RawMessage(p.call.Arguments), ReadOnly: p.tool.ReadOnly()}, Decision: p.decision}
	req.Decision.Subject = p.subject
	ans, err := env.Approver.Approve(ctx, req)
	if err != nil {
		p.blocked = "approval failed"
		p.output = "blocked: the approval request ended without a decision (" + err.Error() + "). Do not retry it unchanged."
		return false
	}
	switch ans.Choice {
	case permission.ApproveSession:
		if g, ok := s.opts.Gate.(permission.Granter); ok && p.decision.Scope != "" {
			g.Grant(p.decision.Scope)
		}
		return true
	case permission.ApproveOnce:
		return true
	}
	p.blocked = "denied by " + nonEmpty(ans.By, "approver")
	p.output = "denied: " + nonEmpty(ans.By, "the approver") + " denied this call"
	if ans.Reason != "" {
		p.output += ": " + ans.Reason
	}
	p.output += ". Do not retry it; adapt your approach."
	return false
}

// execute runs an allowed call and fills its outcome.
func (s *Session) execute(ctx context.Context, p *pendingCall) {
	start := time.Now()
	res, err := p.tool.Execute(ctx, json.RawMessage(p.call.Arguments))
	p.duration = time.Since(start)
	var argsErr *tool.ArgsError
	switch {
	case errors.As(err, &argsErr):
		p.output = fmt.Sprintf("error: %v\nThe arguments must match this JSON schema:\n%s", err, p.tool.Schema())
	case err != nil && ctx.Err() != nil:
		p.blocked = "canceled"
		p.output = "canceled: the run was stopped while this call ran"
	case err != nil:
		p.output = "error: " + err.Error()
	default:
		p.output, p.ok = res.Output, !res.Failed
	}
	if !p.ok && p.blocked == "" {
		s.noteFailure(p.call)
	}
}

func (s *Session) emitResult(p *pendingCall, env Env) {
	bounded, cut := bound(p.output, maxResultBytes)
	p.truncated = cut
	env.Emit(event.ToolResult{CallID: p.call.ID, Tool: p.call.Name, Subject: p.subject, OK: p.ok, Output: bounded, Duration: p.duration, Truncated: cut, Blocked: p.blocked})
}

// commitResult appends the bounded result to the history and the full
// output to the transcript.
func (s *Session) commitResult(p *pendingCall) error {
	bounded, _ := bound(p.output, maxResultBytes)
	if err := s.record(transcript.Record{Type: transcript.TypeTool, Tool: &transcript.ToolRecord{
		CallID: p.call.ID, Name: p.call.Name, Args: rawIfValid(p.call.Arguments), Output: p.output, OK: p.ok, Blocked: p.blocked, DurationMS: p.duration.Milliseconds(),
	}}); err != nil {
		return err
	}
	return s.appendMessage(provider.Message{Role: provider.RoleTool, ToolCallID: p.call.ID, Content: bounded})
}

func (s *Session) failureCount(c provider.ToolCall) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures[c.Name+"\x00"+c.Arguments]
}

func (s *Session) noteFailure(c provider.ToolCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failures == nil {
		s.failures = map[string]int{}
	}
	s.failures[c.Name+"\x00"+c.Arguments]++
}

// describe extracts what a person wants to see of a call: the command, or
// the path(s). It tolerates malformed arguments.
func describe(c provider.ToolCall) string {
	var a struct {
		Command     string `json:"command"`
		Path        string `json:"path"`
		Pattern     string `json:"pattern"`
		Source      string `json:"source"`
		Destination string `json:"destination"`
	}
	_ = json.Unmarshal([]byte(c.Arguments), &a)
	switch {
	case a.Command != "":
		return preview(a.Command, 200)
	case a.Source != "":
		return a.Source + " → " + a.Destination
	case a.Pattern != "" && a.Path != "":
		return a.Pattern + " in " + a.Path
	case a.Pattern != "":
		return a.Pattern
	case a.Path != "":
		return a.Path
	}
	return c.Name
}

func preview(s string, n int) string {
	s = oneLine(s)
	if len(s) <= n {
		return s
	}
	return cutValid(s[:n], false) + "…"
}

func rawIfValid(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

func nonEmpty(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
