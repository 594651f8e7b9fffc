package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/teams/bots/slack/fakeslack"
	"github.com/reasonix/teams/engine/provider/providertest"
)

// The people and the channel of the fake Slack workspace.
const (
	botChannel = "C0APP"
	userAda    = "U0ADA"   // starts threads
	userGrace  = "U0GRACE" // a configured approver
	userEve    = "U0EVE"   // neither requester nor approver
)

// botGrace is the [bot] shutdown_grace the binary runs with; a SIGTERM
// with nothing running must end the process well within it.
const botGrace = 20 * time.Second

// waitBound bounds every wait: a hang guard, not a speed check.
const waitBound = 60 * time.Second

// botSetup says how the binary talks to the fake Slack.
type botSetup struct {
	mode   string // "socket" or "http"
	listen string // http mode: the address the bot serves the Events API on
	fake   fakeslack.Options
}

// botE2E is one `reasonix bot` process wired to a fake Slack, the fake
// model and a bare git remote, all in temporary directories.
type botE2E struct {
	t      *testing.T
	fake   *fakeslack.Server
	model  *providertest.Server
	remote string
	home   string
	config string

	// The running process; owned by the test goroutine.
	cmd     *exec.Cmd
	cancel  context.CancelFunc
	exited  chan error // receives cmd.Wait's result exactly once
	stopped bool
	stderr  *lockedBuffer
}

func newBotE2E(t *testing.T, setup botSetup) *botE2E {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; the bot's workspaces need the git CLI")
	}
	dir := t.TempDir()
	e := &botE2E{t: t, home: filepath.Join(dir, "home"), stderr: &lockedBuffer{}}
	if err := os.MkdirAll(e.home, 0o755); err != nil {
		t.Fatal(err)
	}
	e.remote = makeBareRemote(t, dir)
	e.fake = fakeslack.New(setup.fake)
	t.Cleanup(e.fake.Close)
	e.fake.AddUser(userAda, "Ada")
	e.fake.AddUser(userGrace, "Grace")
	e.fake.AddUser(userEve, "Eve")
	e.model = providertest.New()
	t.Cleanup(e.model.Close)

	e.config = filepath.Join(dir, "reasonix.toml")
	cfg := fakeModelConfig(e.model.URL(), filepath.Join(dir, "sessions"), 2) + fmt.Sprintf(`
[permissions]
mode = "ask"
allow = ["Bash(sleep:*)"]

# The sandbox has its own end-to-end tests; here bash runs on the host so
# that the test needs nothing but git.
[sandbox]
bash = "off"

[[repos]]
name = "app"
url = %q
default_branch = "main"
forge = "none"

[workspaces]
dir = %q

[bot]
edit_interval = "1s"
approval_timeout = "30m"
shutdown_grace = %q
posture = "ask"

[access]
approvers = ["slack:%s"]

[store]
dir = %q

[slack]
enabled = true
mode = %q
api_url = %q
listen = %q

[[slack.channels]]
id = %q
repo = "app"
`, "file://"+e.remote, filepath.Join(dir, "workspaces"),
		botGrace.String(), userGrace, filepath.Join(dir, "store"), setup.mode, e.fake.APIURL(), setup.listen, botChannel)
	if err := os.WriteFile(e.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// start runs `reasonix bot` in the background. The process is killed at
// cleanup if the test did not stop it, and its stderr is printed when the
// test failed.
func (e *botE2E) start() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := exec.CommandContext(ctx, binPath, "bot", "--config", e.config, "-v")
	cmd.Dir = e.home
	cmd.Env = append(os.Environ(),
		"HOME="+e.home,
		"REASONIX_E2E_KEY=test-key",
		"SLACK_BOT_TOKEN="+e.fake.BotToken(),
		"SLACK_APP_TOKEN="+e.fake.AppToken(),
		"SLACK_SIGNING_SECRET="+e.fake.SigningSecret(),
	)
	cmd.Stdout = e.stderr
	cmd.Stderr = e.stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		e.t.Fatalf("starting reasonix bot: %v", err)
	}
	e.cmd, e.cancel, e.exited = cmd, cancel, make(chan error, 1)
	go func() { e.exited <- cmd.Wait() }()
	e.t.Cleanup(func() {
		if !e.stopped {
			cancel() // kills the process
			<-e.exited
		}
		cancel()
		if e.t.Failed() {
			e.t.Logf("reasonix bot output:\n%s", e.stderr.String())
		}
	})
}

// stop sends SIGTERM and checks that the process exits 0 within the
// shutdown grace it was configured with.
func (e *botE2E) stop(t *testing.T) {
	t.Helper()
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	timer := time.NewTimer(botGrace)
	defer timer.Stop()
	select {
	case err := <-e.exited:
		e.stopped = true
		if code := exitCode(err); code != exitOK {
			t.Errorf("reasonix bot exit code after SIGTERM: got %d (%v), want %d", code, err, exitOK)
		}
	case <-timer.C:
		t.Errorf("reasonix bot still running %v after SIGTERM, want it gone within shutdown_grace", botGrace)
	}
}

// wait blocks until cond holds, re-checking at every change the fake Slack
// records.
func (e *botE2E) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitBound)
	defer cancel()
	if err := e.fake.WaitFor(ctx, cond); err != nil {
		t.Fatalf("waiting for %s: %v\n%s", what, err, e.dump())
	}
}

// poll blocks until cond holds, for state the fake Slack does not see
// (the model's requests, the bot's listener).
func (e *botE2E) poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitBound)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v\n%s", what, ctx.Err(), e.dump())
		case <-tick.C:
		}
	}
}

// dump describes what the bot did in Slack, for failure messages.
func (e *botE2E) dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model requests: %d; socket connections opened: %d, open: %d\n",
		len(e.model.Requests()), e.fake.Connections(), e.fake.OpenConnections())
	for _, m := range e.fake.Posted() {
		fmt.Fprintf(&b, "posted ts=%s thread=%s edits=%d buttons=%d reactions=%v\n    %s\n",
			m.TS, m.ThreadTS, m.Edits, len(buttons(m)), m.Reactions, strings.ReplaceAll(m.Text, "\n", "\n    "))
	}
	for _, x := range e.fake.Ephemerals() {
		fmt.Fprintf(&b, "ephemeral to %s thread=%s: %s\n", x.User, x.ThreadTS, x.Text)
	}
	for _, r := range e.fake.Reactions() {
		fmt.Fprintf(&b, "reaction %s on %s removed=%v\n", r.Name, r.TS, r.Removed)
	}
	return b.String()
}

// inThread returns the bot's messages in the thread started by ts.
func (e *botE2E) inThread(ts string) []fakeslack.Message {
	var out []fakeslack.Message
	for _, m := range e.fake.Posted() {
		if m.ThreadTS == ts {
			out = append(out, m)
		}
	}
	return out
}

// withText returns the bot's messages in the thread whose text contains s.
func (e *botE2E) withText(ts, s string) []fakeslack.Message {
	var out []fakeslack.Message
	for _, m := range e.inThread(ts) {
		if strings.Contains(m.Text, s) {
			out = append(out, m)
		}
	}
	return out
}

// says reports whether a bot message in the thread contains s.
func (e *botE2E) says(ts, s string) func() bool {
	return func() bool { return len(e.withText(ts, s)) > 0 }
}

// cards returns the status cards of the turns started with task in the
// thread: a card's first line is "<marker> *<phase>* · <task>".
func (e *botE2E) cards(ts, task string) []fakeslack.Message {
	return e.withText(ts, "* · "+task)
}

// hasReaction reports whether the bot's reaction is on a message now.
func (e *botE2E) hasReaction(ts, emoji string) func() bool {
	return func() bool {
		m, ok := e.fake.Message(botChannel, ts)
		return ok && slices.Contains(m.Reactions, emoji)
	}
}

// reactionsAdded counts the times the bot added emoji to a message.
func (e *botE2E) reactionsAdded(ts, emoji string) int {
	n := 0
	for _, r := range e.fake.Reactions() {
		if r.TS == ts && r.Name == emoji && !r.Removed {
			n++
		}
	}
	return n
}

// approval waits for a message in the thread with approval buttons whose
// text mentions subject.
func (e *botE2E) approval(t *testing.T, ts, subject string) fakeslack.Message {
	t.Helper()
	var found fakeslack.Message
	e.wait(t, "an approval request for "+subject, func() bool {
		for _, m := range e.withText(ts, subject) {
			if len(buttons(m)) > 0 {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// modelRequests waits until the model has been asked n times in all.
func (e *botE2E) modelRequests(t *testing.T, n int) []providertest.RecordedRequest {
	t.Helper()
	e.poll(t, fmt.Sprintf("%d model requests", n), func() bool { return len(e.model.Requests()) >= n })
	return e.model.Requests()
}

// buttons lists a message's buttons across its actions blocks.
func buttons(m fakeslack.Message) []fakeslack.Button {
	var out []fakeslack.Button
	for _, b := range m.Blocks {
		out = append(out, b.Buttons...)
	}
	return out
}

// buttonValue is the value of the message's button with actionID.
func buttonValue(m fakeslack.Message, actionID string) string {
	for _, b := range buttons(m) {
		if b.ActionID == actionID {
			return b.Value
		}
	}
	return ""
}

// makeBareRemote creates a bare repo with one commit on main.
func makeBareRemote(t *testing.T, dir string) string {
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
	if err := os.MkdirAll(seed, 0o755); err != nil {
		t.Fatal(err)
	}
	run(dir, "init", "-q", "--bare", "-b", "main", remote)
	run(seed, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(seed, "README.md"), []byte("# app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(seed, "add", ".")
	run(seed, "commit", "-qm", "init")
	run(seed, "push", "-q", remote, "main")
	return remote
}

// remoteBranches lists the branches of a bare repo.
func remoteBranches(t *testing.T, remote string) []string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", remote, "for-each-ref", "--format=%(refname:short)", "refs/heads/").CombinedOutput()
	if err != nil {
		t.Fatalf("git for-each-ref: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// remoteFiles lists the files on a branch of a bare repo.
func remoteFiles(t *testing.T, remote, branch string) []string {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", remote, "ls-tree", "--name-only", "-r", branch).CombinedOutput()
	if err != nil {
		t.Fatalf("git ls-tree %s: %v\n%s", branch, err, out)
	}
	return strings.Fields(string(out))
}

// freeAddr returns a loopback address nothing listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// exitCode reads an exec error as a process exit code.
func exitCode(err error) int {
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
