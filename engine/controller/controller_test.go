package controller

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/openai"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/tool"
)

// writeTool is a real writer tool that records its calls.
type writeTool struct {
	mu    sync.Mutex
	calls int
}

func (w *writeTool) Name() string        { return "write" }
func (w *writeTool) Description() string { return "writes" }
func (w *writeTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
}
func (w *writeTool) ReadOnly() bool { return false }
func (w *writeTool) Execute(context.Context, json.RawMessage) (tool.Result, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls++
	return tool.Result{Output: "written"}, nil
}

func (w *writeTool) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls
}

func newController(t *testing.T, opts Options) (*Controller, *providertest.Server, *writeTool) {
	t.Helper()
	srv := providertest.New()
	t.Cleanup(srv.Close)
	prov, err := openai.New(provider.Config{Name: "fake", Kind: "openai", BaseURL: srv.URL(), Model: "m", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	wt := &writeTool{}
	reg, err := tool.NewRegistry(wt)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := agent.NewSession(agent.Options{Provider: prov, Model: "m", Tools: reg, Gate: permission.DefaultGate{}, Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := New(sess, opts)
	t.Cleanup(c.Close)
	return c, srv, wt
}

func writeCall() providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "w1", Name: "write", Arguments: `{"path":"a"}`}}}
}

// nextApproval waits for the approval request event.
func nextApproval(t *testing.T, sub *Subscription) event.ApprovalRequest {
	t.Helper()
	for ev := range sub.Events() {
		if a, ok := ev.(event.ApprovalRequest); ok {
			return a
		}
	}
	t.Fatal("subscription ended without an approval request")
	return event.ApprovalRequest{}
}

func TestApprovalResolvesExactlyOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		answer  permission.Answer
		wantRan int
		want    string
	}{
		{"approve once", permission.Answer{Choice: permission.ApproveOnce, By: "ada"}, 1, "written"},
		{"deny with reason", permission.Answer{Choice: permission.DenyIt, By: "ada", Reason: "not on main"}, 0, "denied: ada denied this call: not on main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, srv, wt := newController(t, Options{Approvals: true})
			srv.Enqueue(writeCall(), providertest.Turn{Text: []string{"ok"}})
			sub := c.Subscribe()
			defer sub.Close()
			done, err := c.Submit(context.Background(), agent.Turn{Text: "go"})
			if err != nil {
				t.Fatal(err)
			}
			req := nextApproval(t, sub)
			if got := c.Pending(); len(got) != 1 || got[0].ID != req.ID {
				t.Errorf("pending = %+v", got)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 2)
			for i := 0; i < 2; i++ { // a double click
				wg.Add(1)
				go func() { defer wg.Done(); errs <- c.Resolve(req.ID, tt.answer) }()
			}
			wg.Wait()
			close(errs)
			var ok, dup int
			for err := range errs {
				switch {
				case err == nil:
					ok++
				case errors.Is(err, ErrNoApproval):
					dup++
				}
			}
			if ok != 1 || dup != 1 {
				t.Errorf("resolutions ok=%d dup=%d, want 1 and 1", ok, dup)
			}
			o := <-done
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			if wt.count() != tt.wantRan {
				t.Errorf("tool ran %d times, want %d", wt.count(), tt.wantRan)
			}
			msgs := c.Session().Messages()
			if res := msgs[2].Content; !strings.Contains(res, tt.want) {
				t.Errorf("tool result = %q, want %q", res, tt.want)
			}
		})
	}
}

func TestApprovalTimesOutAsDenial(t *testing.T) {
	t.Parallel()
	c, srv, wt := newController(t, Options{Approvals: true, ApprovalTimeout: 50 * time.Millisecond})
	srv.Enqueue(writeCall(), providertest.Turn{Text: []string{"ok"}})
	sub := c.Subscribe()
	defer sub.Close()
	if _, err := c.Run(context.Background(), agent.Turn{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	if wt.count() != 0 {
		t.Error("the tool ran without approval")
	}
	req := nextApproval(t, sub)
	if err := c.Resolve(req.ID, permission.Answer{Choice: permission.ApproveOnce}); !errors.Is(err, ErrNoApproval) {
		t.Errorf("late click: got %v, want ErrNoApproval", err)
	}
	if res := c.Session().Messages()[2].Content; !strings.Contains(res, "timeout") {
		t.Errorf("tool result = %q, want a timeout denial", res)
	}
}

func TestNoApproverFailsClosed(t *testing.T) {
	t.Parallel()
	c, srv, wt := newController(t, Options{})
	srv.Enqueue(writeCall(), providertest.Turn{Text: []string{"ok"}})
	res, err := c.Run(context.Background(), agent.Turn{Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if wt.count() != 0 || res.Calls[0].Blocked == "" {
		t.Errorf("writer ran or was not marked blocked: %+v", res.Calls)
	}
}

func TestBusySteerCancelAndEvents(t *testing.T) {
	t.Parallel()
	c, srv, _ := newController(t, Options{Approvals: true})
	srv.Enqueue(writeCall())
	sub1, sub2 := c.Subscribe(), c.Subscribe()
	done, err := c.Submit(context.Background(), agent.Turn{Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	nextApproval(t, sub1) // the run is now parked on an approval
	if _, err := c.Submit(context.Background(), agent.Turn{Text: "again"}); !errors.Is(err, ErrBusy) {
		t.Errorf("second submit: got %v, want ErrBusy", err)
	}
	if !c.Steer(agent.Turn{Text: "steer"}) {
		t.Error("steer refused during a run")
	}
	if !c.Cancel() {
		t.Error("cancel found no run")
	}
	o := <-done
	if !errors.Is(o.Err, context.Canceled) {
		t.Errorf("outcome err = %v, want canceled", o.Err)
	}
	if c.Steer(agent.Turn{Text: "late"}) {
		t.Error("steer accepted with no run")
	}
	c.Close()
	var kinds []string
	for ev := range sub2.Events() {
		kinds = append(kinds, ev.Kind())
	}
	joined := strings.Join(kinds, ",")
	if !strings.HasPrefix(joined, "turn_started,") || !strings.HasSuffix(joined, "turn_done") || !strings.Contains(joined, "approval_request") {
		t.Errorf("events = %s", joined)
	}
}

func TestMergeKeepsBothAnswers(t *testing.T) {
	t.Parallel()
	got := merge(agent.Result{Text: "fixed X", Steps: 2}, agent.Result{Text: "also did Y", Steps: 1})
	if got.Text != "fixed X\n\nalso did Y" || got.Steps != 3 {
		t.Errorf("got %q in %d steps", got.Text, got.Steps)
	}
	if got := merge(agent.Result{Text: "fixed X"}, agent.Result{}); got.Text != "fixed X" {
		t.Errorf("a failed continuation dropped the first answer: %q", got.Text)
	}
}
