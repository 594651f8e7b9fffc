package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
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

// The cache benchmark drives one scripted multi-speaker session through the
// real controller, agent, OpenAI client and the fake server's prefix-cache
// simulator, twice: as the engine builds requests ("stable"), and with the
// volatile context moved into the system prompt ("naive"), the way an
// engine without prefix discipline would do it. Same script, same tools,
// same clock; the difference in hit ratio and cost is the discipline.

var flashPrices = provider.Prices{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6}

// benchTurn is one user turn of the script: who speaks, what they say,
// how many tool rounds the model makes, and optional turn-tail context.
type benchTurn struct {
	speaker string
	text    string
	rounds  int
	context []agent.ContextItem
	steerAt int // tool round during which another speaker steers (0 = none)
}

var benchScript = []benchTurn{
	{speaker: "Ada (slack:U1)", text: "TestLogin in auth is flaky. Find out why and fix it. Do not change the public API of package auth.", rounds: 6},
	{speaker: "Grace (slack:U2)", text: "Also make the retry in client.go respect the context deadline.", rounds: 5, steerAt: 2},
	{speaker: "Ada (slack:U1)", text: "Re-read the contributing notes and follow them for the test names.", rounds: 6,
		context: []agent.ContextItem{{Key: "instructions updated", Value: "REASONIX.md now says: name table tests after the behaviour they check."}}},
	{speaker: "Bob (slack:U3)", text: "Run the whole auth suite and the linters and fix what fails.", rounds: 7},
	{speaker: "Grace (slack:U2)", text: "Summarize the change for the PR description, then double-check the error paths.", rounds: 10},
}

// benchFile is deterministic file content of about 3 KB.
func benchFile(path string) string {
	var b strings.Builder
	for i := 0; b.Len() < 3000; i++ {
		fmt.Fprintf(&b, "%s:%d\tfunc step%d(ctx context.Context) error { return check(ctx, %q) }\n", path, i+1, i, path)
	}
	return b.String()
}

// benchTool is a real tool that returns deterministic content and can run
// a hook (the steer) on a given call.
type benchTool struct {
	name     string
	readOnly bool
	hook     func(path string)
}

func (t *benchTool) Name() string        { return t.name }
func (t *benchTool) Description() string { return "benchmark tool " + t.name }
func (t *benchTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
}
func (t *benchTool) ReadOnly() bool { return t.readOnly }
func (t *benchTool) Execute(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct{ Path string }
	if err := json.Unmarshal(args, &a); err != nil {
		return tool.Result{}, err
	}
	if t.hook != nil {
		t.hook(a.Path)
	}
	return tool.Result{Output: benchFile(a.Path)}, nil
}

// naiveProvider rebuilds each request the way an engine without prefix
// discipline would: the latest turn's context block goes into the system
// prompt, and user messages carry only their text.
type naiveProvider struct{ inner provider.Provider }

func (n naiveProvider) Stream(ctx context.Context, req provider.Request, on func(provider.Delta)) (provider.Response, error) {
	msgs := make([]provider.Message, len(req.Messages))
	copy(msgs, req.Messages)
	latest := ""
	for i, m := range msgs {
		if m.Role != provider.RoleUser || !strings.HasPrefix(m.Content, "<context>\n") {
			continue
		}
		end := strings.Index(m.Content, "</context>\n")
		latest = m.Content[:end+len("</context>\n")]
		msgs[i].Content = m.Content[end+len("</context>\n"):]
	}
	msgs[0].Content += "\n" + latest
	req.Messages = msgs
	return n.inner.Stream(ctx, req, on)
}

// benchResult is one arm's figures.
type benchResult struct {
	requests                int
	prompt, hit, ideal      int
	completion              int
	cost                    float64
	compactions, cacheNotes int
}

func (r benchResult) hitRatio() float64   { return float64(r.hit) / float64(r.prompt) }
func (r benchResult) idealRatio() float64 { return float64(r.ideal) / float64(r.prompt) }
func (r benchResult) ofIdeal() float64    { return float64(r.hit) / float64(r.ideal) }

const digestPrefix = "[reasonix] The conversation is about to be compacted"

// runCacheScript plays benchScript through a controller and measures it.
func runCacheScript(b *testing.B, naive bool) benchResult {
	b.Helper()
	const blockTokens = 64
	plan := []providertest.Turn{}
	call := 0
	for _, t := range benchScript {
		for r := 0; r < t.rounds; r++ {
			call++
			name := "read_source"
			if r%3 == 2 {
				name = "run_check"
			}
			plan = append(plan, providertest.Turn{Reasoning: []string{"checking step ", fmt.Sprint(call)}, ToolCalls: []providertest.ToolCall{{
				ID: fmt.Sprintf("call_%d", call), Name: name, Arguments: fmt.Sprintf(`{"path":"auth/file_%d.go"}`, call)}}})
		}
		plan = append(plan, providertest.Turn{Text: []string{"Done: ", t.text[:20], " handled."}})
	}
	srv := providertest.New(providertest.WithBlockTokens(blockTokens), providertest.WithResponder(func(req providertest.RecordedRequest) providertest.Turn {
		if strings.HasPrefix(req.Messages[len(req.Messages)-1].Content, digestPrefix) {
			return providertest.Turn{Text: []string{"## Standing facts and constraints\n- Do not change the public API of package auth.\n## Goal\n- fix flakiness\n## Pending next step\n- verify"}}
		}
		next := plan[0]
		plan = plan[1:]
		return next
	}))
	defer srv.Close()
	var prov provider.Provider
	prov, err := openai.New(provider.Config{Name: "fake", Kind: "openai", BaseURL: srv.URL(), Model: "deepseek-flash", APIKey: "k", Prices: flashPrices})
	if err != nil {
		b.Fatal(err)
	}
	if naive {
		prov = naiveProvider{prov}
	}
	var ctrl *Controller
	steerNext := ""
	hook := func(path string) {
		if steerNext != "" && ctrl.Steer(agent.Turn{Text: "Keep the old retry count as the default.", Speaker: steerNext}) {
			steerNext = ""
		}
	}
	reg, err := tool.NewRegistry(&benchTool{name: "read_source", readOnly: true, hook: hook}, &benchTool{name: "run_check", hook: hook})
	if err != nil {
		b.Fatal(err)
	}
	clock := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	sess, err := agent.NewSession(agent.Options{
		Provider: prov, Model: "deepseek-flash", Prices: flashPrices, Tools: reg, Gate: permission.DefaultGate{Auto: true},
		Root: b.TempDir(), ContextWindow: 30000, CompactRatio: 0.75,
		Now: func() time.Time { clock = clock.Add(41 * time.Second); return clock },
	})
	if err != nil {
		b.Fatal(err)
	}
	ctrl = New(sess, Options{})
	defer ctrl.Close()
	sub := ctrl.Subscribe()
	var res benchResult
	var usages []provider.Usage
	resetAt := map[int]bool{}
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for ev := range sub.Events() {
			switch e := ev.(type) {
			case event.Usage:
				usages = append(usages, e.Request)
			case event.Notice:
				switch e.Code {
				case "compaction":
					res.compactions++
					resetAt[len(usages)] = true
				case "cache_miss":
					res.cacheNotes++
				}
			}
		}
	}()
	for _, t := range benchScript {
		if t.steerAt > 0 {
			steerNext = "Bob (slack:U3)"
		}
		if _, err := ctrl.Run(context.Background(), agent.Turn{Text: t.text, Speaker: t.speaker, Context: t.context}); err != nil {
			b.Fatal(err)
		}
	}
	ctrl.Close()
	<-collected

	// The ideal: every request's prompt shares all of the previous request's
	// prompt, except right after a compaction, where only the system
	// prompt and tool block can be shared.
	prefixTokens := (len(sess.System()) + len(mustJSON(b, reg.Specs()))) / 4
	for i, u := range usages {
		res.requests++
		res.prompt += u.PromptTokens
		res.hit += u.CacheHitTokens
		res.completion += u.CompletionTokens
		res.cost += flashPrices.Cost(u)
		switch {
		case i == 0:
		case resetAt[i]:
			res.ideal += prefixTokens / blockTokens * blockTokens
		default:
			res.ideal += min(usages[i-1].PromptTokens, u.PromptTokens) / blockTokens * blockTokens
		}
	}
	return res
}

func mustJSON(b *testing.B, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkCacheFirstSession prints the prefix-cache figures of the
// scripted session for both arms, side by side.
func BenchmarkCacheFirstSession(b *testing.B) {
	var stable, naive benchResult
	for i := 0; i < b.N; i++ {
		stable = runCacheScript(b, false)
		naive = runCacheScript(b, true)
	}
	b.ReportMetric(stable.hitRatio(), "hit_ratio")
	b.ReportMetric(stable.ofIdeal(), "of_ideal")
	b.ReportMetric(naive.hitRatio(), "naive_hit_ratio")
	b.ReportMetric(naive.ofIdeal(), "naive_of_ideal")
	b.ReportMetric(naive.cost/stable.cost, "naive_cost_x")
	fmt.Fprintf(os.Stdout, "\ncache-first session (%d requests, %d compaction, deepseek-flash prices)\n", stable.requests, stable.compactions)
	fmt.Fprintf(os.Stdout, "%-8s %10s %10s %9s %9s %9s %10s\n", "arm", "prompt", "hit", "hit%", "ideal%", "of ideal", "cost $")
	for _, r := range []struct {
		name string
		r    benchResult
	}{{"stable", stable}, {"naive", naive}} {
		fmt.Fprintf(os.Stdout, "%-8s %10d %10d %8.1f%% %8.1f%% %9.3f %10.5f\n", r.name, r.r.prompt, r.r.hit, 100*r.r.hitRatio(), 100*r.r.idealRatio(), r.r.ofIdeal(), r.r.cost)
	}
	fmt.Fprintf(os.Stdout, "naive costs %.2fx the stable arm\n\n", naive.cost/stable.cost)
}
