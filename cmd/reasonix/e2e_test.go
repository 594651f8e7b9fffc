package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider/providertest"
	"github.com/reasonix/teams/engine/sandbox"
)

// binPath is the reasonix binary built once for the end-to-end tests.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "reasonix-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "reasonix")
	build := exec.Command("go", "build", "-o", binPath, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building reasonix: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2e is one scenario: a git repo, a config pointing at the fake model,
// and the binary run against them.
type e2e struct {
	t      *testing.T
	srv    *providertest.Server
	repo   string
	home   string
	config string
}

func newE2E(t *testing.T, extraConfig string) *e2e {
	t.Helper()
	e := &e2e{t: t, srv: providertest.New(), repo: t.TempDir(), home: t.TempDir()}
	t.Cleanup(e.srv.Close)
	e.git("init", "-q", "-b", "main")
	e.write("greet.txt", "hello world\n")
	e.git("add", ".")
	e.git("-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "init")
	e.config = filepath.Join(t.TempDir(), "reasonix.toml")
	cfg := fakeModelConfig(e.srv.URL(), filepath.Join(e.home, "sessions"), 4) + extraConfig + "\n"
	if err := os.WriteFile(e.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// fakeModelConfig is the config head every end-to-end test shares: the
// fake model as the only provider, and where transcripts go.
func fakeModelConfig(baseURL, transcriptDir string, maxAttempts int) string {
	return fmt.Sprintf(`default_model = "fake"

[[providers]]
name = "fake"
kind = "openai"
base_url = %q
model = "deepseek-flash"
api_key_env = "REASONIX_E2E_KEY"
context_window = 128000
max_attempts = %d

[providers.prices.deepseek-flash]
cache_hit = 0.003
cache_miss = 0.15
output = 0.6

[agent]
transcript_dir = %q
`, baseURL, maxAttempts, transcriptDir)
}

func (e *e2e) git(args ...string) {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.repo
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (e *e2e) write(name, content string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.repo, name), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// run executes the binary and returns stdout, stderr and the exit code.
func (e *e2e) run(args ...string) (string, string, int) {
	e.t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = e.repo
	cmd.Env = append(os.Environ(), "HOME="+e.home, "REASONIX_E2E_KEY=test-key")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func (e *e2e) runJSON(args ...string) (summary, string, int) {
	e.t.Helper()
	stdout, stderr, code := e.run(append([]string{"run", "--config", e.config, "--json"}, args...)...)
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		e.t.Fatalf("summary is not JSON: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	return s, stderr, code
}

func call(id, name, args string) providertest.ToolCall {
	return providertest.ToolCall{ID: id, Name: name, Arguments: args}
}

func needSandbox(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the bash sandbox needs Linux")
	}
	if p := sandbox.Probe(); !p.Usable {
		t.Skipf("bubblewrap cannot run here (%s); .ci/run installs it", p.Reason)
	}
}

func TestRunReadsEditsRunsAndAnswers(t *testing.T) {
	needSandbox(t)
	e := newE2E(t, "")
	e.srv.Enqueue(
		providertest.Turn{Reasoning: []string{"let me ", "look"}, ToolCalls: []providertest.ToolCall{call("c1", "read_file", `{"path":"greet.txt"}`)}},
		providertest.Turn{Reasoning: []string{"edit it"}, ToolCalls: []providertest.ToolCall{call("c2", "edit_file", `{"path":"greet.txt","old_string":"world","new_string":"team"}`)}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("c3", "bash", `{"command":"cat greet.txt && echo ran-ok"}`)}},
		providertest.Turn{Text: []string{"Changed ", "world to team."}},
	)
	s, stderr, code := e.runJSON("--auto", "greet the team")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(e.repo, "greet.txt")); string(got) != "hello team\n" {
		t.Errorf("greet.txt = %q, want %q", got, "hello team\n")
	}
	if s.Text != "Changed world to team." || s.Steps != 4 || len(s.ToolCalls) != 3 {
		t.Errorf("summary = %+v", s)
	}
	for i, name := range []string{"read_file", "edit_file", "bash"} {
		if c := s.ToolCalls[i]; c.Name != name || !c.OK {
			t.Errorf("tool call %d = %+v, want %s ok", i, c, name)
		}
	}
	if s.Usage.PromptTokens == 0 || s.Usage.CacheHitTokens == 0 || s.CostUSD <= 0 || s.SessionID == "" {
		t.Errorf("usage = %+v cost %v session %q", s.Usage, s.CostUSD, s.SessionID)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("requests = %d, want 4", len(reqs))
	}
	tools0, _ := json.Marshal(reqs[0].Tools)
	for i, r := range reqs {
		toolsI, _ := json.Marshal(r.Tools)
		if !bytes.Equal(tools0, toolsI) {
			t.Errorf("request %d sent a different tool block", i)
		}
		if r.Header.Get("Authorization") != "Bearer test-key" {
			t.Errorf("request %d auth = %q", i, r.Header.Get("Authorization"))
		}
	}
	var replayed, ranBash bool
	for _, m := range reqs[3].Messages {
		if m.Role == "assistant" && len(m.ToolCalls) > 0 && m.ToolCalls[0].ID == "c1" && m.ReasoningContent == "let me look" {
			replayed = true
		}
		if m.Role == "tool" && m.ToolCallID == "c3" && strings.Contains(m.Content, "hello team") && strings.Contains(m.Content, "ran-ok") {
			ranBash = true
		}
	}
	if !replayed {
		t.Error("reasoning_content of the tool-calling turn was not sent back")
	}
	if !ranBash {
		t.Error("the bash result did not reach the model")
	}
}

func TestRunRecoversFromFaults(t *testing.T) {
	tests := []struct {
		name  string
		first providertest.Turn
	}{
		{"mid-stream cut is replayed", providertest.Turn{Text: []string{"partial ", "answer ", "that ", "breaks"}, CutAfter: 2}},
		{"429 then success", providertest.Turn{Fault: &providertest.Fault{Status: 429, RetryAfter: "0"}}},
		{"500 then success", providertest.Turn{Fault: &providertest.Fault{Status: 500}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newE2E(t, "")
			e.srv.Enqueue(tt.first, providertest.Turn{Text: []string{"clean answer"}})
			s, stderr, code := e.runJSON("hi")
			if code != 0 || s.Text != "clean answer" {
				t.Fatalf("exit %d text %q\n%s", code, s.Text, stderr)
			}
			if got := len(e.srv.Requests()); got != 2 {
				t.Errorf("requests = %d, want 2", got)
			}
			reqs := e.srv.Requests()
			if !bytes.Equal(reqs[0].Body, reqs[1].Body) {
				t.Error("the retried request was not the same frozen request")
			}
		})
	}
}

func TestHeadlessAskModeRefusesWriters(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "")
	e.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("w", "write_file", `{"path":"new.txt","content":"x"}`)}},
		providertest.Turn{Text: []string{"could not write"}},
	)
	s, stderr, code := e.runJSON("make a file")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "new.txt")); !os.IsNotExist(err) {
		t.Error("write_file ran without approval")
	}
	if c := s.ToolCalls[0]; c.OK || !strings.Contains(c.Blocked, "needs approval") {
		t.Errorf("tool call = %+v, want blocked for approval", c)
	}
	res := lastToolResult(e.srv.Requests()[1])
	if !strings.Contains(res, "needs a person's approval") {
		t.Errorf("model was told %q", res)
	}
}

func TestPathEscapeIsRefused(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "")
	secret := filepath.Join(filepath.Dir(e.repo), "outside-secret.txt")
	os.WriteFile(secret, []byte("top secret"), 0o600)
	t.Cleanup(func() { os.Remove(secret) })
	e.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("r", "read_file", `{"path":"../outside-secret.txt"}`)}},
		providertest.Turn{Text: []string{"cannot"}},
	)
	s, stderr, code := e.runJSON("--auto", "read it")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	res := lastToolResult(e.srv.Requests()[1])
	if strings.Contains(res, "top secret") || !strings.Contains(res, "outside the workspace") {
		t.Errorf("model was told %q", res)
	}
	if s.ToolCalls[0].OK {
		t.Error("escape reported as ok")
	}
}

func TestConfigErrorsExitTwo(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "")
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[agent]\nmax_stepz = 3\n"), 0o600)
	tests := []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"unknown key", []string{"run", "--config", bad, "hi"}, "", "max_stepz"},
		{"missing prompt", []string{"run", "--config", e.config}, "", "missing PROMPT"},
		{"unknown flag", []string{"run", "--nope", "hi"}, "", "flag provided but not defined"},
		{"missing key env", []string{"run", "--config", e.config, "hi"}, "REASONIX_E2E_KEY=", "REASONIX_E2E_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binPath, tt.args...)
			cmd.Dir = e.repo
			cmd.Env = append(os.Environ(), "HOME="+e.home, "REASONIX_E2E_KEY=k")
			if tt.env != "" {
				cmd.Env = append(cmd.Env, tt.env)
			}
			out, err := cmd.CombinedOutput()
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
				t.Fatalf("got %v, want exit 2\n%s", err, out)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("output %q does not mention %q", out, tt.want)
			}
		})
	}
}

func lastToolResult(r providertest.RecordedRequest) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i].Content
		}
	}
	return ""
}

func TestRunStreamsAnswerAndToolLines(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "")
	e.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("l", "ls", `{}`)}},
		providertest.Turn{Text: []string{"The repo has ", "one file."}},
	)
	stdout, stderr, code := e.run("run", "--config", e.config, "what is here?")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if strings.TrimSpace(stdout) != "The repo has one file." {
		t.Errorf("stdout = %q, want only the answer", stdout)
	}
	if !strings.Contains(stderr, "✓ ls") || !strings.Contains(stderr, "cache hit") || !strings.Contains(stderr, "session ") {
		t.Errorf("stderr = %q, want a tool line and the usage line", stderr)
	}
}

func TestResumeContinuesTheSession(t *testing.T) {
	t.Parallel()
	e := newE2E(t, "")
	e.srv.Enqueue(providertest.Turn{Text: []string{"first"}}, providertest.Turn{Text: []string{"second"}})
	s1, stderr, code := e.runJSON("one")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	s2, stderr, code := e.runJSON("--resume", s1.SessionID, "two")
	if code != 0 || s2.SessionID != s1.SessionID {
		t.Fatalf("exit %d session %q, want %q\n%s", code, s2.SessionID, s1.SessionID, stderr)
	}
	reqs := e.srv.Requests()
	if len(reqs[1].Messages) != 4 || reqs[1].Messages[0].Content != reqs[0].Messages[0].Content || reqs[1].Messages[2].Content != "first" {
		t.Errorf("resumed request does not continue the session: %+v", reqs[1].Messages)
	}
	if s2.Usage.CacheHitTokens == 0 {
		t.Error("resumed session missed the prompt cache")
	}
}

func TestPolicyDecidesWhichCommandsRun(t *testing.T) {
	needSandbox(t)
	t.Parallel()
	e := newE2E(t, `
[permissions]
allow = ["Bash(touch allowed.txt:*)"]
deny = ["Bash(rm:*)"]
`)
	e.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{
			call("a", "bash", `{"command":"touch allowed.txt"}`),
			call("d", "bash", `{"command":"ls; rm -f greet.txt"}`),
			call("q", "bash", `{"command":"touch needs-approval.txt"}`),
			call("x", "bash", `{"command":"touch allowed.txt && touch sneaky.txt"}`),
		}},
		providertest.Turn{Text: []string{"reported"}},
	)
	s, stderr, code := e.runJSON("try things")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(e.repo, name))
		return err == nil
	}
	if !exists("allowed.txt") || !exists("greet.txt") || exists("needs-approval.txt") || exists("sneaky.txt") {
		t.Errorf("files: allowed=%v greet=%v needs-approval=%v sneaky=%v; want only the allowed command to have run",
			exists("allowed.txt"), exists("greet.txt"), exists("needs-approval.txt"), exists("sneaky.txt"))
	}
	want := []struct {
		ok      bool
		blocked string
	}{{true, ""}, {false, "Bash(rm:*)"}, {false, "needs approval"}, {false, "needs approval"}}
	for i, w := range want {
		c := s.ToolCalls[i]
		if c.OK != w.ok || !strings.Contains(c.Blocked, w.blocked) {
			t.Errorf("call %d = %+v, want ok=%v blocked~%q", i, c, w.ok, w.blocked)
		}
	}
	res := e.srv.Requests()[1].Messages
	if d := res[len(res)-3].Content; !strings.HasPrefix(d, "blocked by policy:") {
		t.Errorf("denied call told the model %q", d)
	}
}

func TestSandboxKeepsBashInsideTheWorkspace(t *testing.T) {
	needSandbox(t)
	t.Parallel()
	e := newE2E(t, "")
	outside := filepath.Join(t.TempDir(), "escape.txt")
	e.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("b", "bash", fmt.Sprintf(`{"command":"echo pwned > %s; echo inside > inside.txt"}`, outside))}},
		providertest.Turn{Text: []string{"done"}},
	)
	if _, stderr, code := e.runJSON("--yolo", "escape"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Error("bash wrote outside the workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(e.repo, "inside.txt")); string(b) != "inside\n" {
		t.Errorf("inside.txt = %q, want the write inside the workspace to work", b)
	}
}
