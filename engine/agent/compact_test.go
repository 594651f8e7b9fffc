package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/transcript"
)

const constraint = "Do not change the public API of package auth."

// bigRead returns ~1.6 KB per call so a few rounds cross a small trigger.
func bigRead() *testTool {
	return &testTool{name: "look", readOnly: true, run: func(_ context.Context, args json.RawMessage) (tool.Result, error) {
		return tool.Result{Output: strings.Repeat("line of file content\n", 80)}, nil
	}}
}

// compactingServer answers digest requests with a digest, and otherwise
// calls the tool until `rounds` tool calls were made, then answers.
func compactingServer(rounds int, digest string) *providertest.Server {
	calls := 0
	return providertest.New(providertest.WithResponder(func(req providertest.RecordedRequest) providertest.Turn {
		last := req.Messages[len(req.Messages)-1]
		if strings.HasPrefix(last.Content, "[reasonix] The conversation is about to be compacted") {
			return providertest.Turn{Text: []string{digest}}
		}
		if calls < rounds {
			calls++
			return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: fmt.Sprintf("c%d", calls), Name: "look", Arguments: fmt.Sprintf(`{"path":"f%d"}`, calls)}}}
		}
		return providertest.Turn{Text: []string{"finished"}}
	}))
}

func TestCompactionTriggersKeepsUserTurnsAndTail(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := transcript.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := compactingServer(8, "## Goal\n- read files")
	f := newFixtureOn(t, srv, []tool.Tool{bigRead()}, func(o *Options) {
		o.ContextWindow, o.CompactRatio, o.Transcript = 6000, 0.5, w
	})
	res, err := f.run(t, constraint)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "finished" {
		t.Fatalf("text = %q", res.Text)
	}
	var notices []event.Notice
	for _, e := range f.rec.all() {
		if n, ok := e.(event.Notice); ok {
			notices = append(notices, n)
		}
	}
	var compacted, rewriteMiss bool
	for _, n := range notices {
		if n.Code == "compaction" && strings.Contains(n.Text, "1 user turns kept verbatim, 0 folded") {
			compacted = true
		}
		if n.Code == "cache_miss" && strings.HasSuffix(n.Text, "cause: rewrite") {
			rewriteMiss = true
		}
	}
	if !compacted {
		t.Fatalf("no compaction notice keeping the user turn; notices: %+v", notices)
	}
	msgs := f.sess.Messages()
	if msgs[0].Role != provider.RoleUser || !strings.Contains(msgs[0].Content, constraint) || !strings.Contains(msgs[0].Content, "## Goal") {
		t.Errorf("projection head = %q, want the digest with the constraint verbatim", msgs[0].Content)
	}
	for i, m := range msgs {
		if m.Role == provider.RoleTool && (i == 0 || (msgs[i-1].Role != provider.RoleAssistant && msgs[i-1].Role != provider.RoleTool)) {
			t.Errorf("orphan tool result at %d", i)
		}
	}
	if estimateTokens(f.sess.system, f.sess.tools, msgs) >= f.sess.trigger() {
		t.Error("history is still above the trigger")
	}
	// Every request after the compaction starts with the same system prompt
	// and tool block: compaction rewrites history, never the prefix.
	reqs := srv.Requests()
	for _, r := range reqs {
		if r.Messages[0].Content != reqs[0].Messages[0].Content {
			t.Fatal("system prompt changed")
		}
	}
	if !rewriteMiss {
		t.Errorf("no cache-miss notice naming the compaction; notices: %+v", notices)
	}

	// The transcript keeps every original message and the projection.
	saved, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Rewrite != 1 || len(saved.Messages) != len(msgs) {
		t.Errorf("reloaded rewrite %d with %d messages, want 1 and %d", saved.Rewrite, len(saved.Messages), len(msgs))
	}
}

func TestCompactionRefusesACandidateThatIsNotSmaller(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("digest text that is far too long. ", 2000)
	srv := compactingServer(8, huge)
	f := newFixtureOn(t, srv, []tool.Tool{bigRead()}, func(o *Options) { o.ContextWindow, o.CompactRatio = 6000, 0.5 })
	if _, err := f.run(t, constraint); err != nil {
		t.Fatal(err)
	}
	var failures, digestCalls int
	for _, e := range f.rec.all() {
		if n, ok := e.(event.Notice); ok && n.Code == "compaction_failed" {
			failures++
		}
	}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Messages[len(r.Messages)-1].Content, "[reasonix] The conversation is about to be compacted") {
			digestCalls++
		}
	}
	if failures != 1 || digestCalls != 1 {
		t.Errorf("failures %d digest calls %d, want one of each (no retry in the same generation)", failures, digestCalls)
	}
	if got := f.sess.Messages()[0].Content; !strings.HasSuffix(got, constraint) {
		t.Errorf("history was rewritten despite the refusal: %q", got)
	}
}

func TestTailNeverStartsWithAToolResult(t *testing.T) {
	t.Parallel()
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "go"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a"}, {ID: "b"}}},
		{Role: provider.RoleTool, ToolCallID: "a", Content: strings.Repeat("x", 400)},
		{Role: provider.RoleTool, ToolCallID: "b", Content: strings.Repeat("x", 400)},
		{Role: provider.RoleAssistant, Content: "done"},
	}
	for budget := 1; budget < 400; budget += 7 {
		start := tailStart(msgs, budget)
		if msgs[start].Role == provider.RoleTool {
			t.Fatalf("budget %d: tail starts at tool result %d", budget, start)
		}
	}
}

func TestProtectedTurnsSurviveRepeatedFolds(t *testing.T) {
	t.Parallel()
	first := digestHeader + "User messages from earlier, verbatim:\n<user_message>\nkeep me\n</user_message>\n\n## Goal"
	fold := []provider.Message{
		{Role: provider.RoleUser, Content: first},
		{Role: provider.RoleUser, Content: "second constraint"},
		{Role: provider.RoleUser, Content: strings.Repeat("y", compactPerTurnTokens*bytesPerToken+4)},
		{Role: provider.RoleUser, Content: stepLimitNote},
	}
	kept, folded := protectedTurns(fold, 8192)
	if len(kept) != 2 || kept[0] != "keep me" || kept[1] != "second constraint" || folded != 1 {
		t.Errorf("got kept %q folded %d", kept, folded)
	}
}

func TestMissCause(t *testing.T) {
	t.Parallel()
	base := shapeOf("sys", []provider.ToolSpec{{Name: "a"}}, 0)
	tests := []struct {
		name string
		cur  prefixShape
		want string
	}{
		{"system changed", shapeOf("sys2", []provider.ToolSpec{{Name: "a"}}, 0), "system"},
		{"tool set changed", shapeOf("sys", []provider.ToolSpec{{Name: "a"}, {Name: "b"}}, 0), "tools"},
		{"compaction", shapeOf("sys", []provider.ToolSpec{{Name: "a"}}, 1), "rewrite"},
		{"nothing changed", base, "unexplained"},
	}
	for _, tt := range tests {
		if got := missCause(base, tt.cur); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestMissAfterRestartWithNewToolSetIsExplained(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := transcript.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, []tool.Tool{bigRead()}, func(o *Options) { o.Transcript = w })
	for i := 0; i < 4; i++ {
		f.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call(fmt.Sprint(i), "look", `{"path":"x"}`)}})
	}
	f.srv.Enqueue(providertest.Turn{Text: []string{"ok"}})
	if _, err := f.run(t, "read"); err != nil {
		t.Fatal(err)
	}
	w.Close()

	newTools, err := tool.NewRegistry(bigRead(), echo("new_tool", true))
	if err != nil {
		t.Fatal(err)
	}
	reopened := f.reopen(t, path, func(o *Options) { o.Tools = newTools })
	f.srv.Enqueue(providertest.Turn{Text: []string{"ok"}})
	rec := &recorder{}
	if _, err := reopened.Run(context.Background(), Turn{Text: "again"}, Env{Emit: rec.emit}); err != nil {
		t.Fatal(err)
	}
	var cause string
	for _, e := range rec.all() {
		if n, ok := e.(event.Notice); ok && n.Code == "cache_miss" {
			cause = n.Text[strings.LastIndex(n.Text, " ")+1:]
		}
	}
	if cause != "tools" {
		t.Errorf("miss cause = %q, want tools", cause)
	}
}

func TestReloadInstructionsRidesInTheTurnTail(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	root := f.sess.opts.Root
	if _, changed := f.sess.ReloadInstructions(); changed {
		t.Error("reload reported a change with no files")
	}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Use tabs."), 0o644); err != nil {
		t.Fatal(err)
	}
	item, changed := f.sess.ReloadInstructions()
	if !changed || !strings.Contains(item.Value, "Use tabs.") {
		t.Fatalf("got %+v %v, want the new instructions", item, changed)
	}
	f.srv.Enqueue(providertest.Turn{Text: []string{"ok"}})
	if _, err := f.sess.Run(context.Background(), Turn{Text: "go", Context: []ContextItem{item}}, Env{}); err != nil {
		t.Fatal(err)
	}
	req := f.srv.Requests()[0]
	if strings.Contains(req.Messages[0].Content, "Use tabs.") || !strings.Contains(req.Messages[1].Content, "Use tabs.") {
		t.Error("reloaded instructions must ride in the user turn, not the system prompt")
	}
}
