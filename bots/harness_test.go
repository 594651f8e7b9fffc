package bots_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/bottest"
	"github.com/reasonix/teams/bots/jetstream"
	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/openai"
	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/tool/builtin"
	"github.com/reasonix/teams/engine/transcript"
	"github.com/reasonix/teams/workspaces"
)

// harness runs the real gateway with the in-memory platform, the real
// JetStream store, real git workspaces and the real engine against the
// fake model.
type harness struct {
	t      *testing.T
	dir    string
	remote string
	plat   *bottest.Platform
	srv    *providertest.Server
	ws     *workspaces.Manager
	store  *jetstream.Store
	opts   bots.Options
	cancel context.CancelFunc
	done   chan error

	mu   sync.Mutex // guards refs
	refs []bots.ThreadRef
}

var (
	ada   = bots.User{ID: "U1", Name: "Ada"}
	grace = bots.User{ID: "U2", Name: "Grace"}
	eve   = bots.User{ID: "U9", Name: "Eve"}
)

type harnessConfig struct {
	opts     func(*bots.Options)
	rules    permission.Rules
	posture  permission.Posture
	limits   bots.Limits
	srvOpts  []providertest.Option
	platOpts bottest.Options
}

func newHarness(t *testing.T, mutate ...func(*harnessConfig)) *harness {
	t.Helper()
	cfg := harnessConfig{rules: permission.Rules{Mode: "ask"}, posture: permission.PostureAsk}
	for _, m := range mutate {
		m(&cfg)
	}
	h := &harness{t: t, dir: t.TempDir()}
	h.remote = makeRemote(t, h.dir)
	h.srv = providertest.New(cfg.srvOpts...)
	t.Cleanup(h.srv.Close)
	cfg.platOpts.Limits = cfg.limits
	h.plat = bottest.New(cfg.platOpts)
	var err error
	h.ws, err = workspaces.NewManager(workspaces.Options{Dir: filepath.Join(h.dir, "ws")}, []workspaces.Repo{
		{Name: "app", URL: "file://" + h.remote, DefaultBranch: "main", Forge: workspaces.ForgeNone},
		{Name: "docs", URL: "file://" + h.remote, DefaultBranch: "main", Forge: workspaces.ForgeNone},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.opts = bots.Options{
		Workspaces: h.ws,
		Sessions:   &testSessions{srv: h.srv, dir: filepath.Join(h.dir, "sessions"), rules: cfg.rules, posture: cfg.posture},
		Repos: []bots.RepoInfo{
			{Name: "app", DefaultBranch: "main", CanPush: true},
			{Name: "docs", DefaultBranch: "main", CanPush: true},
		},
		ChannelRepos:       map[string]string{"mem:C-app": "app"},
		Access:             bots.Access{Approvers: []string{"mem:" + grace.ID}, RequesterCanApprove: true},
		MaxConcurrentTurns: 4,
		EditInterval:       30 * time.Millisecond,
		ApprovalTimeout:    time.Minute,
		ShutdownGrace:      5 * time.Second,
	}
	if cfg.opts != nil {
		cfg.opts(&h.opts)
	}
	h.start()
	t.Cleanup(h.stop)
	return h
}

// start opens the store and runs a gateway until stop.
func (h *harness) start() {
	h.t.Helper()
	store, err := jetstream.Open(context.Background(), jetstream.Options{Dir: filepath.Join(h.dir, "store")})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = store
	opts := h.opts
	opts.Store = store
	gw, err := bots.New(opts, h.plat)
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() { h.done <- gw.Run(ctx) }()
}

// stop shuts the gateway down gracefully and closes the store.
func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	if err := <-h.done; err != nil {
		h.t.Errorf("gateway run: %v", err)
	}
	h.store.Close()
	h.cancel = nil
}

// wait blocks until cond holds on the platform, failing after a generous
// bound (a hang, not a speed check).
func (h *harness) wait(what string, cond func(*bottest.Platform) bool) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := h.plat.WaitFor(ctx, cond); err != nil {
		h.t.Fatalf("waiting for %s: %v\n%s", what, err, h.dump())
	}
}

// dump describes the bot messages of every thread the test spoke in,
// for failure output.
func (h *harness) dump() string {
	h.mu.Lock()
	refs := append([]bots.ThreadRef(nil), h.refs...)
	h.mu.Unlock()
	var b strings.Builder
	for _, ref := range refs {
		b.WriteString("thread " + ref.Key() + ":\n")
		for _, m := range h.plat.Messages(ref) {
			b.WriteString("  [" + m.User.ID + "] " + strings.ReplaceAll(m.Text(), "\n", "\n    ") + "\n")
		}
		for _, e := range h.plat.Ephemerals(ref) {
			b.WriteString("  (only " + e.User + ") " + e.Message.Text + "\n")
		}
	}
	return b.String()
}

func (h *harness) say(ref bots.ThreadRef, u bots.User, text string, mention bool) bots.Event {
	h.t.Helper()
	ev, err := h.plat.Say(context.Background(), ref, u, text, mention)
	if err != nil {
		h.t.Fatalf("say %q: %v", text, err)
	}
	h.mu.Lock()
	h.refs = append(h.refs, ev.Ref)
	h.mu.Unlock()
	return ev
}

// botText reports whether any bot message in the thread contains s.
func botText(ref bots.ThreadRef, s string) func(*bottest.Platform) bool {
	return func(p *bottest.Platform) bool {
		for _, m := range p.BotMessages(ref) {
			if strings.Contains(m.Text(), s) {
				return true
			}
		}
		return false
	}
}

// findBot returns the last bot message whose text contains s.
func findBot(p *bottest.Platform, ref bots.ThreadRef, s string) (bottest.Posted, bool) {
	msgs := p.BotMessages(ref)
	for i := len(msgs) - 1; i >= 0; i-- {
		if strings.Contains(msgs[i].Text(), s) {
			return msgs[i], true
		}
	}
	return bottest.Posted{}, false
}

// approvalMessage waits for a message with approval buttons.
func (h *harness) approvalMessage(ref bots.ThreadRef, tool string) bottest.Posted {
	h.t.Helper()
	var found bottest.Posted
	h.wait("an approval request for "+tool, func(p *bottest.Platform) bool {
		for _, m := range p.BotMessages(ref) {
			if len(m.Last().Buttons) > 0 && strings.Contains(m.Text(), tool) {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

func button(m bottest.Posted, action string) bots.Button {
	for _, b := range m.Last().Buttons {
		if b.ActionID == action {
			return b
		}
	}
	return bots.Button{}
}

// makeRemote creates a bare repo with one commit on main.
func makeRemote(t *testing.T, dir string) string {
	t.Helper()
	remote := filepath.Join(dir, "remote.git")
	seed := filepath.Join(dir, "seed")
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(seed, 0o755)
	run(dir, "init", "-q", "--bare", "-b", "main", remote)
	run(seed, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(seed, "README.md"), []byte("# app\n"), 0o644)
	run(seed, "add", ".")
	run(seed, "commit", "-qm", "init")
	run(seed, "push", "-q", remote, "main")
	return remote
}

// remoteFiles lists the files on a branch of the remote.
func remoteFiles(t *testing.T, remote, branch string) []string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", remote, "ls-tree", "--name-only", "-r", branch).CombinedOutput()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

func remoteBranches(t *testing.T, remote string) []string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", remote, "for-each-ref", "--format=%(refname:short)", "refs/heads/").CombinedOutput()
	if err != nil {
		t.Fatalf("for-each-ref: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// testSessions opens real engine sessions against the fake model, as cmd
// does, with the host shell (the sandbox has its own tests).
type testSessions struct {
	srv     *providertest.Server
	dir     string
	rules   permission.Rules
	posture permission.Posture

	mu     sync.Mutex
	opened int
}

func (s *testSessions) OpenSession(_ context.Context, root, resumeID string) (bots.OpenedSession, error) {
	s.mu.Lock()
	s.opened++
	s.mu.Unlock()
	prov, err := openai.New(provider.Config{Name: "fake", BaseURL: s.srv.URL(), Model: "deepseek-flash", APIKey: "k", MaxAttempts: 2,
		Prices: provider.Prices{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6}})
	if err != nil {
		return bots.OpenedSession{}, err
	}
	tools, err := builtin.New(builtin.Options{Root: root})
	if err != nil {
		return bots.OpenedSession{}, err
	}
	reg, err := tool.NewRegistry(tools...)
	if err != nil {
		return bots.OpenedSession{}, err
	}
	policy, err := permission.NewPolicy(s.rules, s.posture, root)
	if err != nil {
		return bots.OpenedSession{}, err
	}
	opts := agent.Options{Provider: prov, Model: "deepseek-flash", Prices: provider.Prices{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6}, Tools: reg, Gate: policy, Root: root}
	if resumeID != "" {
		path := filepath.Join(s.dir, resumeID+".jsonl")
		saved, err := transcript.Load(path)
		if err != nil {
			return bots.OpenedSession{}, err
		}
		w, err := transcript.Append(path)
		if err != nil {
			return bots.OpenedSession{}, err
		}
		opts.Transcript = w
		sess, err := agent.OpenSession(opts, saved)
		if err != nil {
			return bots.OpenedSession{}, err
		}
		return bots.OpenedSession{Session: sess, Close: func() { w.Close() }}, nil
	}
	opts.ID = agent.NewID()
	w, err := transcript.Create(filepath.Join(s.dir, opts.ID+".jsonl"))
	if err != nil {
		return bots.OpenedSession{}, err
	}
	opts.Transcript = w
	sess, err := agent.NewSession(opts)
	if err != nil {
		return bots.OpenedSession{}, errors.Join(err, w.Close())
	}
	return bots.OpenedSession{Session: sess, Close: func() { w.Close() }}, nil
}
