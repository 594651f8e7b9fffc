package bots_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/bottest"
	"github.com/reasonix/teams/bots/jetstream"
	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/workspaces"
)

// The load: threads mentioned at once, one turn each, and the model time
// before every response.
const (
	loadThreads = 50
	modelDelay  = 200 * time.Millisecond
)

// loadResult is what one load run measured.
type loadResult struct {
	ackMS          []float64 // per thread, sorted
	allTurns       time.Duration
	minEditGap     time.Duration
	busiestEdits   int     // edits of the most edited message
	busiestRate    float64 // its edits per second over its lifetime
	heapPerSession float64 // bytes
	goroutinesPer  float64
	modelLogBytes  int // request bodies the fake model keeps, inflating the heap figure
}

// benchTools are the read-only tool rounds every turn makes, in order,
// before it answers; read-only tools need no approval under posture ask.
var benchTools = []struct{ name, args string }{
	{"ls", `{}`},
	{"read_file", `{"path":"README.md"}`},
	{"glob", `{"pattern":"**/*.md"}`},
}

const benchAnswer = "The repository holds one README; nothing needs fixing."

// BenchmarkGateway50Threads starts 50 threads at once against the real
// gateway (in-memory platform, embedded JetStream, git worktrees, real
// engine) with a fake model that takes about 200 ms per response, and
// reports how fast mentions are acknowledged, how fast status cards are
// edited, how much heap an idle session keeps, and how long all turns
// take.
func BenchmarkGateway50Threads(b *testing.B) {
	if testing.Short() {
		b.Skip("runs 50 agent turns against a slowed fake model")
	}
	var runs []loadResult
	for i := 0; i < b.N; i++ {
		runs = append(runs, runLoad(b))
	}
	b.StopTimer()

	ackP50 := medianOf(runs, func(r loadResult) float64 { return percentile(r.ackMS, 0.50) })
	ackP99 := medianOf(runs, func(r loadResult) float64 { return percentile(r.ackMS, 0.99) })
	gap := medianOf(runs, func(r loadResult) float64 { return ms(r.minEditGap) })
	rate := medianOf(runs, func(r loadResult) float64 { return r.busiestRate })
	heapKB := medianOf(runs, func(r loadResult) float64 { return r.heapPerSession / 1024 })
	gors := medianOf(runs, func(r loadResult) float64 { return r.goroutinesPer })
	wall := medianOf(runs, func(r loadResult) float64 { return r.allTurns.Seconds() })
	b.ReportMetric(ackP50, "ack_p50_ms")
	b.ReportMetric(ackP99, "ack_p99_ms")
	b.ReportMetric(gap, "min_edit_gap_ms")
	b.ReportMetric(rate, "busiest_msg_edits/s")
	b.ReportMetric(heapKB, "heap_per_idle_session_kb")
	b.ReportMetric(gors, "goroutines_per_idle_session")
	b.ReportMetric(wall, "all_turns_s")

	last := runs[len(runs)-1]
	interval := config.DefaultEditInterval
	fmt.Printf("gateway, %d threads at once, %d tool rounds + answer, model %v per response, edit interval %v:\n",
		loadThreads, len(benchTools), modelDelay, interval)
	fmt.Printf("  ack latency       p50 %.1f ms, p99 %.1f ms (target p99 < 250 ms): %s\n", ackP50, ackP99, verdict(ackP99 < 250))
	fmt.Printf("  fastest edit gap  %.1f ms (target >= %v): %s\n", gap, interval, verdict(gap >= ms(interval)))
	fmt.Printf("  busiest message   %d edits, %.2f edits/s\n", last.busiestEdits, rate)
	fmt.Printf("  idle session      %.0f KB heap, %.1f goroutines (target < 2048 KB): %s\n", heapKB, gors, verdict(heapKB < 2048))
	fmt.Printf("                    (includes %d KB of request bodies the fake model keeps, %.0f KB per session)\n",
		last.modelLogBytes>>10, float64(last.modelLogBytes)/1024/float64(loadThreads))
	fmt.Printf("  all turns         %.2f s\n", wall)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// runLoad builds a gateway, starts loadThreads turns at once, waits for
// all of them, and measures.
func runLoad(b *testing.B) loadResult {
	dir := b.TempDir()
	srv := providertest.New(providertest.WithResponder(slowModel(modelDelay)))
	defer srv.Close()
	plat := &stampedPlatform{memPlatform: bottest.New(bottest.Options{}), running: make(chan struct{}), reacted: map[string]time.Time{}}
	store, stop := startLoadGateway(b, dir, srv, plat)
	defer stop()
	baseHeap, baseGoroutines := settledHeap()

	refs := make([]bots.ThreadRef, loadThreads)
	for i := range refs {
		refs[i] = plat.NewThread("C-app")
	}
	sent, mentions := mentionAll(b, plat, refs)
	waitTurns(b, plat, store, refs)
	heap, goroutines := settledHeap()

	res := measure(b, plat, refs, sent, mentions)
	res.heapPerSession = float64(int64(heap)-int64(baseHeap)) / float64(loadThreads)
	res.goroutinesPer = float64(goroutines-baseGoroutines) / float64(loadThreads)
	reqs := srv.Requests()
	if got, want := len(reqs), loadThreads*(len(benchTools)+1); got != want {
		b.Errorf("model requests: got %d, want %d", got, want)
	}
	for _, r := range reqs {
		res.modelLogBytes += len(r.Body)
	}
	return res
}

// startLoadGateway runs the real gateway on plat with product defaults
// (edit interval, fetch interval) and room for every thread to run at
// once. stop shuts it down and closes the store.
func startLoadGateway(b *testing.B, dir string, srv *providertest.Server, plat *stampedPlatform) (store *jetstream.Store, stop func()) {
	b.Helper()
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	ws, err := workspaces.NewManager(workspaces.Options{Dir: filepath.Join(dir, "ws"), FetchInterval: config.DefaultFetchInterval}, []workspaces.Repo{
		{Name: "app", URL: "file://" + benchRemote(b, dir), DefaultBranch: "main", Forge: workspaces.ForgeNone},
	})
	if err != nil {
		b.Fatal(err)
	}
	// A running bot has its mirror already; clone it before measuring.
	warm, err := ws.Prepare(ctx, "app", "warm-up", "")
	if err == nil {
		err = ws.Release(ctx, warm)
	}
	if err != nil {
		b.Fatal(err)
	}
	store, err = jetstream.Open(ctx, jetstream.Options{Dir: filepath.Join(dir, "store"), Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	gw, err := bots.New(bots.Options{
		Store:              store,
		Workspaces:         ws,
		Sessions:           &testSessions{srv: srv, dir: filepath.Join(dir, "sessions"), rules: permission.Rules{Mode: "ask"}, posture: permission.PostureAsk},
		Repos:              []bots.RepoInfo{{Name: "app", DefaultBranch: "main", CanPush: true}},
		ChannelRepos:       map[string]string{"mem:C-app": "app"},
		MaxConcurrentTurns: loadThreads,
		EditInterval:       config.DefaultEditInterval,
		Logger:             quiet,
	}, plat)
	if err != nil {
		store.Close()
		b.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- gw.Run(runCtx) }()
	stop = func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("gateway run: %v", err)
		}
		store.Close()
	}
	select {
	case <-plat.running:
	case <-time.After(30 * time.Second):
		stop()
		b.Fatal("the gateway did not start its adapter")
	}
	return store, stop
}

// mentionAll mentions the bot once in each thread, all from their own
// goroutines released together, and returns when each mention was handed
// to the platform and its message id.
func mentionAll(b *testing.B, plat *stampedPlatform, refs []bots.ThreadRef) (sent []time.Time, mentions []string) {
	b.Helper()
	sent, mentions = make([]time.Time, len(refs)), make([]string, len(refs))
	errs := make([]error, len(refs))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := bots.User{ID: fmt.Sprintf("U%d", i), Name: fmt.Sprintf("dev%d", i)}
			<-start
			sent[i] = time.Now()
			ev, err := plat.Say(context.Background(), refs[i], user, "look around the repo and tell me what is there", true)
			mentions[i], errs[i] = ev.MessageID, err
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatalf("say: %v", err)
		}
	}
	return sent, mentions
}

// slowModel answers every request after delay: the next read-only tool
// call while the conversation has fewer tool results than benchTools,
// then the answer. Each session runs one turn, so counting the tool
// results of the whole conversation finds the round.
func slowModel(delay time.Duration) func(providertest.RecordedRequest) providertest.Turn {
	return func(req providertest.RecordedRequest) providertest.Turn {
		time.Sleep(delay) // the handler goroutine stands for the model's thinking time
		round := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				round++
			}
		}
		if round >= len(benchTools) {
			return providertest.Turn{Text: []string{benchAnswer}}
		}
		t := benchTools[round]
		return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: fmt.Sprintf("call-%d", round), Name: t.name, Arguments: t.args}}}
	}
}

// memPlatform names bottest.Platform for embedding: a field called
// Platform would hide the Platform method the Adapter interface needs.
type memPlatform = bottest.Platform

// stampedPlatform is the in-memory platform with the time of each 👀
// reaction recorded, since bottest keeps reactions without timestamps.
// It also says when the gateway started its adapter.
type stampedPlatform struct {
	*memPlatform
	running chan struct{} // closed when Run is called
	once    sync.Once

	mu      sync.Mutex           // guards reacted
	reacted map[string]time.Time // message id → when 👀 first appeared on it
}

func (p *stampedPlatform) Run(ctx context.Context, h bots.Handler) error {
	p.once.Do(func() { close(p.running) })
	return p.memPlatform.Run(ctx, h)
}

func (p *stampedPlatform) React(ctx context.Context, ref bots.ThreadRef, messageID, emoji string, add bool) error {
	err := p.memPlatform.React(ctx, ref, messageID, emoji, add)
	if err == nil && add && emoji == "eyes" {
		now := time.Now() // the reaction is visible from here on
		p.mu.Lock()
		if _, seen := p.reacted[messageID]; !seen {
			p.reacted[messageID] = now
		}
		p.mu.Unlock()
	}
	return err
}

func (p *stampedPlatform) reactedAt(messageID string) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.reacted[messageID]
	return at, ok
}

// waitTurns waits until every thread shows its answer and a finished
// card, then until the store says no turn is running any more, so the
// sessions are idle when the heap is read.
func waitTurns(b *testing.B, plat *stampedPlatform, store *jetstream.Store, refs []bots.ThreadRef) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pending := slices.Clone(refs)
	err := plat.WaitFor(ctx, func(p *bottest.Platform) bool {
		pending = slices.DeleteFunc(pending, func(ref bots.ThreadRef) bool { return turnFinished(p, ref) })
		return len(pending) == 0
	})
	if err != nil {
		b.Fatalf("%d of %d turns did not finish: %v\nfirst unfinished thread:\n%s", len(pending), len(refs), err, threadDump(plat.memPlatform, pending[0]))
	}
	for {
		bs, err := store.ListBindings(ctx)
		if err != nil {
			b.Fatalf("list bindings: %v", err)
		}
		idle := 0
		for _, bd := range bs {
			if !bd.Running && bd.Turns > 0 {
				idle++
			}
		}
		if idle >= len(refs) {
			return
		}
		select {
		case <-ctx.Done():
			b.Fatalf("%d of %d threads still marked running", len(refs)-idle, len(refs))
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// turnFinished holds once the thread's card (its first bot message) reads
// done and the answer was posted.
func turnFinished(p *bottest.Platform, ref bots.ThreadRef) bool {
	msgs := p.BotMessages(ref)
	if len(msgs) < 2 || !strings.HasPrefix(msgs[0].Text(), "✅") {
		return false
	}
	_, ok := findBot(p, ref, benchAnswer)
	return ok
}

// threadDump lists a thread's messages for failure output.
func threadDump(p *bottest.Platform, ref bots.ThreadRef) string {
	var sb strings.Builder
	for _, m := range p.Messages(ref) {
		fmt.Fprintf(&sb, "  [%s] %s\n", m.User.ID, strings.ReplaceAll(m.Text(), "\n", "\n    "))
	}
	return sb.String()
}

// measure reads ack latencies, edit rates and the total time from the
// platform's records.
func measure(b *testing.B, plat *stampedPlatform, refs []bots.ThreadRef, sent []time.Time, mentions []string) loadResult {
	b.Helper()
	var res loadResult
	first, last := slices.MinFunc(sent, time.Time.Compare), time.Time{}
	for i, ref := range refs {
		msgs := plat.BotMessages(ref)
		card := msgs[0]
		for _, tool := range benchTools {
			if !strings.Contains(card.Text(), "✓ "+tool.name) {
				b.Errorf("thread %d: card lacks a finished %s step:\n%s", i, tool.name, card.Text())
			}
		}
		// The first acknowledgement is the 👀 reaction or the card,
		// whichever the platform shows first.
		ack := card.Edits[0].At
		if at, ok := plat.reactedAt(mentions[i]); ok && at.Before(ack) {
			ack = at
		}
		res.ackMS = append(res.ackMS, ms(ack.Sub(sent[i])))
		if answer, ok := findBot(plat.memPlatform, ref, benchAnswer); ok && answer.Edits[0].At.After(last) {
			last = answer.Edits[0].At
		}
		// The busiest message has the most edits; among equals, the
		// highest rate over its lifetime.
		for _, m := range msgs {
			edits := len(m.Edits) - 1
			if edits == 0 {
				continue
			}
			rate := float64(edits) / m.Edits[edits].At.Sub(m.Edits[0].At).Seconds()
			if edits > res.busiestEdits || (edits == res.busiestEdits && rate > res.busiestRate) {
				res.busiestEdits, res.busiestRate = edits, rate
			}
		}
	}
	slices.Sort(res.ackMS)
	res.allTurns = last.Sub(first)
	gap, ok := plat.MaxEditRate()
	if !ok {
		b.Fatal("no message was edited")
	}
	res.minEditGap = gap
	if gap < config.DefaultEditInterval {
		b.Errorf("fastest edit gap: got %v, want at least the edit interval %v", gap, config.DefaultEditInterval)
	}
	return res
}

// settledHeap collects garbage twice and returns the live heap and the
// goroutine count.
func settledHeap() (uint64, int) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, runtime.NumGoroutine()
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// medianOf is the median over runs of one figure.
func medianOf(runs []loadResult, figure func(loadResult) float64) float64 {
	vs := make([]float64, 0, len(runs))
	for _, r := range runs {
		vs = append(vs, figure(r))
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchRemote creates a repo with one commit on main to serve as the
// remote (makeRemote needs a *testing.T). Turns change nothing, so
// nothing is pushed to it.
func benchRemote(tb testing.TB, dir string) string {
	tb.Helper()
	remote := filepath.Join(dir, "remote")
	if err := os.MkdirAll(remote, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(remote, "README.md"), []byte("# app\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = remote
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return remote
}
