package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/openai"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/transcript"
)

// testTool is a real Tool whose behaviour a test sets.
type testTool struct {
	name     string
	readOnly bool
	run      func(ctx context.Context, args json.RawMessage) (tool.Result, error)
	calls    atomic.Int32
}

func (t *testTool) Name() string        { return t.name }
func (t *testTool) Description() string { return "test tool " + t.name }
func (t *testTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)
}
func (t *testTool) ReadOnly() bool { return t.readOnly }
func (t *testTool) Execute(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	t.calls.Add(1)
	var a struct {
		Path string `json:"path"`
	}
	if err := tool.DecodeArgs(t.name, args, &a); err != nil {
		return tool.Result{}, err
	}
	if t.run != nil {
		return t.run(ctx, args)
	}
	return tool.Result{Output: t.name + " " + a.Path}, nil
}

func echo(name string, readOnly bool) *testTool { return &testTool{name: name, readOnly: readOnly} }

// gateFunc adapts a function to permission.Gate.
type gateFunc func(permission.Call) permission.Decision

func (f gateFunc) Check(c permission.Call) permission.Decision { return f(c) }

// recorder collects events safely.
type recorder struct {
	mu  sync.Mutex
	evs []event.Event
}

func (r *recorder) emit(e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, e)
}

func (r *recorder) all() []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event.Event(nil), r.evs...)
}

// fixture is a session talking to the fake provider over real HTTP.
type fixture struct {
	srv  *providertest.Server
	sess *Session
	rec  *recorder
}

func newFixture(t *testing.T, tools []tool.Tool, mutate func(*Options)) *fixture {
	t.Helper()
	return newFixtureOn(t, providertest.New(), tools, mutate)
}

// newFixtureOn builds a fixture on a server the test configured.
func newFixtureOn(t *testing.T, srv *providertest.Server, tools []tool.Tool, mutate func(*Options)) *fixture {
	t.Helper()
	t.Cleanup(srv.Close)
	prov, err := openai.New(provider.Config{Name: "fake", Kind: "openai", BaseURL: srv.URL(), Model: "deepseek-flash", APIKey: "k", IdleTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tool.NewRegistry(tools...)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Provider: prov, Model: "deepseek-flash", Tools: reg, Gate: permission.DefaultGate{Auto: true},
		Root: t.TempDir(), Prices: provider.Prices{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6},
		Now: func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
	}
	if mutate != nil {
		mutate(&opts)
	}
	sess, err := NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: srv, sess: sess, rec: &recorder{}}
}

func (f *fixture) run(t *testing.T, text string) (Result, error) {
	t.Helper()
	return f.sess.Run(context.Background(), Turn{Text: text, Speaker: "ada"}, Env{Emit: f.rec.emit})
}

func call(id, name, args string) providertest.ToolCall {
	return providertest.ToolCall{ID: id, Name: name, Arguments: args}
}

func toolMessages(msgs []provider.Message) []provider.Message {
	var out []provider.Message
	for _, m := range msgs {
		if m.Role == provider.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

var errBoom = errors.New("boom")

// reopen loads the transcript at path and opens the session again, as a
// restarted process would, with f's options changed by mutate (may be nil)
// and appending to the same file.
func (f *fixture) reopen(t *testing.T, path string, mutate func(*Options)) *Session {
	t.Helper()
	saved, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := f.sess.opts
	if mutate != nil {
		mutate(&opts)
	}
	if opts.Transcript, err = transcript.Append(path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { opts.Transcript.Close() })
	s, err := OpenSession(opts, saved)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
