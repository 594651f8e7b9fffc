package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/transcript"
)

func TestRunAnswersWithoutTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []tool.Tool{echo("look", true)}, nil)
	f.srv.Enqueue(providertest.Turn{Reasoning: []string{"think"}, Text: []string{"Hel", "lo"}})
	res, err := f.run(t, "say hello")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Hello" || res.Steps != 1 {
		t.Errorf("got text %q steps %d, want Hello in 1 step", res.Text, res.Steps)
	}
	msgs := f.sess.Messages()
	if len(msgs) != 2 || msgs[1].ReasoningContent != "think" {
		t.Fatalf("history = %+v", msgs)
	}
	if !strings.Contains(msgs[0].Content, "speaker: ada") || !strings.HasSuffix(msgs[0].Content, "say hello") {
		t.Errorf("user turn = %q, want context block then text", msgs[0].Content)
	}
	if f.sess.Totals().Requests != 1 || res.Usage.PromptTokens == 0 {
		t.Errorf("usage not accounted: %+v", res.Usage)
	}
}

func TestRunExecutesToolsAndKeepsPrefixStable(t *testing.T) {
	t.Parallel()
	look, edit := echo("look", true), echo("edit", false)
	f := newFixture(t, []tool.Tool{look, edit}, nil)
	f.srv.Enqueue(
		providertest.Turn{Reasoning: []string{"plan"}, ToolCalls: []providertest.ToolCall{
			call("c1", "look", `{"path":"a"}`), call("c2", "look", `{"path":"b"}`), call("c3", "edit", `{"path":"c"}`),
		}},
		providertest.Turn{Text: []string{"done"}},
	)
	res, err := f.run(t, "work")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "done" || res.Steps != 2 || len(res.Calls) != 3 {
		t.Fatalf("got %+v", res)
	}
	got := toolMessages(f.sess.Messages())
	want := []string{"look a", "look b", "edit c"}
	for i, m := range got {
		if m.Content != want[i] || m.ToolCallID != []string{"c1", "c2", "c3"}[i] {
			t.Errorf("result %d = %q (%s), want %q in provider order", i, m.Content, m.ToolCallID, want[i])
		}
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	if !bytes.Equal(toolsJSON(t, reqs[0]), toolsJSON(t, reqs[1])) {
		t.Error("tool block differs between requests")
	}
	if reqs[0].Messages[0].Content != reqs[1].Messages[0].Content {
		t.Error("system prompt differs between requests")
	}
	var replayed bool
	for _, m := range reqs[1].Messages {
		if m.Role == "assistant" && len(m.ToolCalls) == 3 && m.ReasoningContent == "plan" {
			replayed = true
		}
	}
	if !replayed {
		t.Error("assistant turn with tool calls was not sent back with its reasoning_content")
	}
}

func toolsJSON(t *testing.T, r providertest.RecordedRequest) []byte {
	t.Helper()
	b, err := json.Marshal(r.Tools)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunReportsBadCallsToTheModel(t *testing.T) {
	t.Parallel()
	failing := &testTool{name: "flaky", run: func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Result{}, errBoom }}
	tests := []struct {
		name  string
		call  providertest.ToolCall
		gate  permission.Gate
		want  string
		ranOK bool
	}{
		{"malformed json", call("c", "look", `{"path":`), nil, "not a valid JSON object", false},
		{"schema mismatch", call("c", "look", `{"nope":1}`), nil, `"required":["path"]`, false},
		{"unknown tool", call("c", "fly", `{}`), nil, `unknown tool "fly"`, false},
		{"denied by policy", call("c", "look", `{"path":"x"}`), gateFunc(func(permission.Call) permission.Decision {
			return permission.Decision{Verdict: permission.Deny, Rule: "deny rule Read(secret)"}
		}), "blocked by policy: deny rule Read(secret)", false},
		{"ask without approver", call("c", "look", `{"path":"x"}`), gateFunc(func(permission.Call) permission.Decision {
			return permission.Decision{Verdict: permission.Ask, Rule: "fallback: writer in ask mode"}
		}), "nobody can approve", false},
		{"tool error", call("c", "flaky", `{"path":"x"}`), nil, "error: boom", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, []tool.Tool{echo("look", true), failing}, func(o *Options) {
				if tt.gate != nil {
					o.Gate = tt.gate
				}
			})
			f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{tt.call}}, providertest.Turn{Text: []string{"ok"}})
			res, err := f.run(t, "go")
			if err != nil {
				t.Fatalf("run failed: %v", err)
			}
			results := toolMessages(f.sess.Messages())
			if len(results) != 1 || !strings.Contains(results[0].Content, tt.want) {
				t.Fatalf("result = %+v, want it to contain %q", results, tt.want)
			}
			if res.Calls[0].OK != tt.ranOK {
				t.Errorf("ok = %v, want %v", res.Calls[0].OK, tt.ranOK)
			}
		})
	}
}

func TestRepeatedIdenticalFailureIsStopped(t *testing.T) {
	t.Parallel()
	failing := &testTool{name: "flaky", run: func(context.Context, json.RawMessage) (tool.Result, error) {
		return tool.Result{Output: "exit status 1", Failed: true}, nil
	}}
	f := newFixture(t, []tool.Tool{failing}, nil)
	same := call("c", "flaky", `{"path":"x"}`)
	f.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{same}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{same}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{same}},
		providertest.Turn{Text: []string{"giving up"}},
	)
	if _, err := f.run(t, "go"); err != nil {
		t.Fatal(err)
	}
	if got := failing.calls.Load(); got != 2 {
		t.Errorf("tool ran %d times, want 2", got)
	}
	results := toolMessages(f.sess.Messages())
	if !strings.Contains(results[2].Content, "already failed 2 times") {
		t.Errorf("third result = %q", results[2].Content)
	}
}

func TestStepLimitGetsAGraceRoundWithoutTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []tool.Tool{echo("look", true)}, func(o *Options) { o.MaxSteps = 2 })
	for i := 0; i < 2; i++ {
		f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("c", "look", `{"path":"x"}`)}})
	}
	f.srv.Enqueue(providertest.Turn{Text: []string{"summary"}})
	res, err := f.run(t, "go")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if res.Text != "summary" || len(reqs) != 3 {
		t.Fatalf("got %q after %d requests", res.Text, len(reqs))
	}
	if reqs[2].ToolChoice != "none" || reqs[1].ToolChoice == "none" {
		t.Errorf("tool_choice = %q then %q, want only the grace round to be none", reqs[1].ToolChoice, reqs[2].ToolChoice)
	}
	if !bytes.Equal(toolsJSON(t, reqs[0]), toolsJSON(t, reqs[2])) {
		t.Error("the grace round changed the tool block")
	}
}

func TestSteerIsAppendedBeforeTheNextRound(t *testing.T) {
	t.Parallel()
	var f *fixture
	look := &testTool{name: "look", readOnly: true, run: func(context.Context, json.RawMessage) (tool.Result, error) {
		f.sess.Steer(Turn{Text: "use the v2 API instead", Speaker: "grace"})
		return tool.Result{Output: "seen"}, nil
	}}
	f = newFixture(t, []tool.Tool{look}, nil)
	f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("c", "look", `{"path":"x"}`)}}, providertest.Turn{Text: []string{"ok"}})
	if _, err := f.run(t, "go"); err != nil {
		t.Fatal(err)
	}
	last := f.srv.Requests()[1].Messages
	steer := last[len(last)-1]
	if steer.Role != "user" || !strings.Contains(steer.Content, "speaker: grace") || !strings.HasSuffix(steer.Content, "use the v2 API instead") {
		t.Errorf("last message = %+v, want the steer", steer)
	}
}

func TestCancelDuringToolsKeepsHistoryValid(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	slow := &testTool{name: "slow", run: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
		cancel()
		<-ctx.Done()
		return tool.Result{}, ctx.Err()
	}}
	f := newFixture(t, []tool.Tool{slow}, nil)
	f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("a", "slow", `{"path":"1"}`), call("b", "slow", `{"path":"2"}`)}})
	_, err := f.sess.Run(ctx, Turn{Text: "go"}, Env{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	results := toolMessages(f.sess.Messages())
	if len(results) != 2 || !strings.HasPrefix(results[1].Content, "canceled") {
		t.Fatalf("results = %+v, want one canceled result per call", results)
	}
	if slow.calls.Load() != 1 {
		t.Errorf("second call ran after cancel")
	}
	// The session continues on the next turn with a valid history.
	f.srv.Enqueue(providertest.Turn{Text: []string{"resumed"}})
	res, err := f.run(t, "again")
	if err != nil || res.Text != "resumed" {
		t.Fatalf("next turn: %q, %v", res.Text, err)
	}
}

func TestReopenedSessionSendsTheSamePrefix(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := transcript.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, []tool.Tool{echo("look", true)}, func(o *Options) { o.Transcript = w })
	f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("c", "look", `{"path":"x"}`)}}, providertest.Turn{Text: []string{"one"}})
	if _, err := f.run(t, "first"); err != nil {
		t.Fatal(err)
	}
	w.Close()

	reopened := f.reopen(t, path, nil)
	f.srv.Enqueue(providertest.Turn{Text: []string{"two"}})
	if _, err := reopened.Run(context.Background(), Turn{Text: "second"}, Env{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	before, after := reqs[1], reqs[2]
	if !reflect.DeepEqual(after.Messages[:len(before.Messages)], before.Messages) {
		t.Error("reopened session's history does not extend the earlier request's history")
	}
	if !bytes.Equal(toolsJSON(t, before), toolsJSON(t, after)) {
		t.Error("reopened session sent a different tool block")
	}
	if reopened.ID() != f.sess.ID() || reopened.Totals().Requests != 3 {
		t.Errorf("reopened id %s requests %d", reopened.ID(), reopened.Totals().Requests)
	}
}

func TestUsageEventsCarrySessionTotals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []tool.Tool{echo("look", true)}, nil)
	f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("c", "look", `{"path":"x"}`)}}, providertest.Turn{Text: []string{"ok"}})
	if _, err := f.run(t, "go"); err != nil {
		t.Fatal(err)
	}
	var usages []event.Usage
	for _, e := range f.rec.all() {
		if u, ok := e.(event.Usage); ok {
			usages = append(usages, u)
		}
	}
	if len(usages) != 2 {
		t.Fatalf("usage events = %d, want 2", len(usages))
	}
	sum := usages[0].Request.Add(usages[1].Request)
	if usages[1].Session != sum || usages[1].SessionCalls != 2 {
		t.Errorf("session totals %+v, want %+v", usages[1].Session, sum)
	}
	if usages[1].Request.CacheHitTokens == 0 {
		t.Error("second request had no cache hit; the prefix is not stable")
	}
}

func TestBound(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 40<<10)
	got, cut := bound(long, 32<<10)
	if !cut || len(got) > 32<<10 || !strings.Contains(got, "bytes omitted") {
		t.Errorf("bound: len %d cut %v", len(got), cut)
	}
	if !strings.HasPrefix(got, "éé") || !strings.HasSuffix(got, "éé") {
		t.Error("bound lost the head or tail")
	}
	if s, cut := bound("short", 100); s != "short" || cut {
		t.Errorf("got %q %v, want unchanged", s, cut)
	}
}

func TestComposeOrder(t *testing.T) {
	t.Parallel()
	got := compose(Turn{Text: "hi", Speaker: "Ada\nL", Context: []ContextItem{{"repo", "api@main"}, {"note", "a\nb"}}}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	want := "<context>\ntime: 2026-01-02T03:04:05Z\nspeaker: Ada L\nrepo: api@main\nnote:\na\nb\n</context>\nhi"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPrefixIsAppendOnlyAcrossTurnsSpeakersAndRestart checks the cache-first
// discipline end to end: with the speaker and the clock changing every turn
// and the session reopened from its transcript, every request extends the
// previous one and the system prompt and tool block never change.
func TestPrefixIsAppendOnlyAcrossTurnsSpeakersAndRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := transcript.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	tick := func() time.Time { clock = clock.Add(time.Minute); return clock }
	f := newFixture(t, []tool.Tool{echo("look", true)}, func(o *Options) { o.Transcript, o.Now = w, tick })
	for i, speaker := range []string{"ada", "grace", "bob"} {
		f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("c"+speaker, "look", `{"path":"x"}`)}}, providertest.Turn{Text: []string{"ok"}})
		if _, err := f.sess.Run(context.Background(), Turn{Text: "turn", Speaker: speaker, Context: []ContextItem{{"turn", strconv.Itoa(i)}}}, Env{}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	reopened := f.reopen(t, path, nil)
	f.srv.Enqueue(providertest.Turn{Text: []string{"after restart"}})
	if _, err := reopened.Run(context.Background(), Turn{Text: "again", Speaker: "eve"}, Env{}); err != nil {
		t.Fatal(err)
	}

	reqs := f.srv.Requests()
	if len(reqs) != 7 {
		t.Fatalf("requests = %d, want 7", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1], reqs[i]
		if !bytes.Equal(toolsJSON(t, prev), toolsJSON(t, cur)) || prev.Messages[0].Content != cur.Messages[0].Content {
			t.Errorf("request %d changed the system prompt or tool block", i)
		}
		if !reflect.DeepEqual(cur.Messages[:len(prev.Messages)], prev.Messages) {
			t.Errorf("request %d does not extend request %d", i, i-1)
		}
		if cur.Messages[0].Content != f.sess.System() || strings.Contains(cur.Messages[0].Content, "2026") {
			t.Errorf("request %d: volatile context leaked into the system prompt", i)
		}
	}
}

func TestContinueAnswersALateSteer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	f.srv.Enqueue(providertest.Turn{Text: []string{"first"}}, providertest.Turn{Text: []string{"about the steer"}})
	if _, err := f.run(t, "go"); err != nil {
		t.Fatal(err)
	}
	f.sess.Steer(Turn{Text: "one more thing", Speaker: "grace"})
	if !f.sess.HasSteers() {
		t.Fatal("HasSteers = false after Steer")
	}
	res, err := f.sess.Continue(context.Background(), Env{})
	if err != nil || res.Text != "about the steer" {
		t.Fatalf("continue: %q, %v", res.Text, err)
	}
	last := f.srv.Requests()[1].Messages
	if m := last[len(last)-1]; m.Role != "user" || !strings.HasSuffix(m.Content, "one more thing") {
		t.Errorf("last message = %+v, want the steer", m)
	}
	if f.sess.HasSteers() {
		t.Error("the steer was not consumed")
	}
}

// A crash between a tool call and its result must not leave the reopened
// session sending a call without a result (providers reject that).
func TestReopenAfterCrashAnswersDanglingCalls(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := transcript.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	hdr := transcript.Header{Session: "crashed", System: "sys"}
	w.Write(transcript.Record{Type: transcript.TypeHeader, Header: &hdr})
	w.Write(transcript.Record{Type: transcript.TypeMessage, Message: &provider.Message{Role: provider.RoleUser, Content: "go"}})
	w.Write(transcript.Record{Type: transcript.TypeMessage, Message: &provider.Message{Role: provider.RoleAssistant,
		ToolCalls: []provider.ToolCall{{ID: "a", Name: "look", Arguments: `{"path":"x"}`}, {ID: "b", Name: "look", Arguments: `{"path":"y"}`}}}})
	w.Write(transcript.Record{Type: transcript.TypeMessage, Message: &provider.Message{Role: provider.RoleTool, ToolCallID: "a", Content: "look x"}})
	w.Close() // the crash: b never got its result

	f := newFixture(t, []tool.Tool{echo("look", true)}, nil)
	s := f.reopen(t, path, nil)
	msgs := s.Messages()
	if got := msgs[len(msgs)-1]; got.Role != provider.RoleTool || got.ToolCallID != "b" || !strings.HasPrefix(got.Content, "interrupted") {
		t.Fatalf("last message = %+v, want an interrupted result for b", got)
	}
	// The repair is persisted: a second reopen adds nothing.
	if again := f.reopen(t, path, nil).Messages(); len(again) != len(msgs) {
		t.Errorf("second reopen has %d messages, want %d", len(again), len(msgs))
	}
}
