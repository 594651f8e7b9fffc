package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/tool"
)

// guard bounds how long a test waits for a call that must return promptly.
// It is far above what a correct run needs, so it never flakes on a slow
// machine, yet a hang fails instead of eating the whole test timeout.
const guard = 30 * time.Second

// runBash runs the bash tool and fails the test if it does not return
// within guard.
func runBash(t *testing.T, ctx context.Context, tl tool.Tool, args string) (tool.Result, error) {
	t.Helper()
	type outcome struct {
		res tool.Result
		err error
	}
	ch := make(chan outcome, 1)
	go func() {
		res, err := tl.Execute(ctx, json.RawMessage(args))
		ch <- outcome{res, err}
	}()
	select {
	case o := <-ch:
		return o.res, o.err
	case <-time.After(guard):
		t.Fatalf("bash %s did not return within %v", args, guard)
		return tool.Result{}, nil
	}
}

// firstPID reads the pid a script echoed on its first line.
func firstPID(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("got first line %q, want a pid", line)
	}
	return pid
}

// waitGone waits until pid no longer runs. A killed child whose reaper is
// slow lingers as a zombie, which counts as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		// The state follows the parenthesised command name.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still runs, want it killed", pid)
}

func TestBash(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		command    string
		wantOutput string
		wantFailed bool
	}{
		{"success", "echo hello", "hello\nexit status 0", false},
		{"both streams", "echo out; echo err >&2; exit 3", "out\nerr\nexit status 3", true},
		{"no output", "true", "exit status 0", false},
		{"no final newline", "printf abc", "abc\nexit status 0", false},
		{"runs in root", "ls", "marker.txt\nexit status 0", false},
		{"signal", "kill -SEGV $$", "killed by signal segmentation fault", true},
		{"stdin is empty", "cat; echo done", "done\nexit status 0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tools, root := newTestTools(t, Options{})
			writeTree(t, root, map[string]string{"marker.txt": ""})
			res, err := runBash(t, context.Background(), tools["bash"], jsonArgs(t, map[string]any{"command": tt.command}))
			if err != nil {
				t.Fatalf("got err %v, want nil", err)
			}
			if res.Output != tt.wantOutput {
				t.Errorf("got %q, want %q", res.Output, tt.wantOutput)
			}
			if res.Failed != tt.wantFailed {
				t.Errorf("got Failed %v, want %v", res.Failed, tt.wantFailed)
			}
		})
	}
}

func TestBashTimeoutKillsBackgroundChild(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{})
	res, err := runBash(t, context.Background(), tools["bash"],
		`{"command":"sleep 100 & echo $!; sleep 100","timeout_seconds":1}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if !res.Failed || !strings.HasSuffix(res.Output, "killed: timed out after 1s") {
		t.Errorf("got %+v, want a failed result ending in the timeout", res)
	}
	waitGone(t, firstPID(t, res.Output))
}

func TestBashDefaultTimeout(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{BashTimeout: 300 * time.Millisecond})
	res, err := runBash(t, context.Background(), tools["bash"], `{"command":"sleep 100"}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if want := "killed: timed out after 300ms"; res.Output != want {
		t.Errorf("got %q, want %q", res.Output, want)
	}
}

func TestBashTimeoutCapped(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{MaxBashTimeout: 200 * time.Millisecond})
	res, err := runBash(t, context.Background(), tools["bash"], `{"command":"sleep 100","timeout_seconds":600}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if want := "killed: timed out after 200ms"; res.Output != want {
		t.Errorf("got %q, want %q", res.Output, want)
	}
}

func TestBashTermIgnored(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{BashTimeout: 200 * time.Millisecond})
	res, err := runBash(t, context.Background(), tools["bash"],
		`{"command":"trap '' TERM; echo $$; while :; do sleep 0.05; done"}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if !strings.HasSuffix(res.Output, "killed: timed out after 200ms") {
		t.Errorf("got %q, want the timeout", res.Output)
	}
	waitGone(t, firstPID(t, res.Output))
}

func TestBashBackgroundHoldingOutput(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{})
	res, err := runBash(t, context.Background(), tools["bash"], `{"command":"sleep 100 & echo $!"}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if res.Failed || !strings.HasSuffix(res.Output, "exit status 0") {
		t.Errorf("got %+v, want success", res)
	}
	waitGone(t, firstPID(t, res.Output))
}

func TestBashCancel(t *testing.T) {
	t.Parallel()
	tools, root := newTestTools(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the script has written its pid, so the kill hits a
	// running command.
	pidFile := root + "/pid"
	go func() {
		for ctx.Err() == nil {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	res, err := runBash(t, ctx, tools["bash"], `{"command":"echo started; sleep 100 & echo $! > pid; sleep 100"}`)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got err %v, want context.Canceled", err)
	}
	if want := "started\nkilled: cancelled"; res.Output != want || !res.Failed {
		t.Errorf("got %+v, want output %q and Failed", res, want)
	}
	waitGone(t, firstPID(t, readString(t, pidFile)))
}

func TestBashEnvironment(t *testing.T) {
	t.Setenv("REASONIX_TEST_SECRET", "leaked")
	tools, _ := newTestTools(t, Options{})
	res, err := runBash(t, context.Background(), tools["bash"],
		`{"command":"echo ${REASONIX_TEST_SECRET:-unset} $TERM; test -n \"$PATH\" && echo path"}`)
	if err != nil {
		t.Fatalf("got err %v, want nil", err)
	}
	if want := "unset dumb\npath\nexit status 0"; res.Output != want {
		t.Errorf("got %q, want %q", res.Output, want)
	}
}

// failingShell is a Shell that cannot build processes, like a sandbox whose
// program is missing.
type failingShell struct{ err error }

func (s failingShell) Command(dir, script string) (*exec.Cmd, error) { return nil, s.err }

func TestBashShellError(t *testing.T) {
	t.Parallel()
	want := errors.New("bubblewrap is not installed")
	tools, _ := newTestTools(t, Options{Shell: failingShell{want}})
	_, err := runBash(t, context.Background(), tools["bash"], `{"command":"true"}`)
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
}

func TestBashArgs(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{})
	tests := []struct{ name, args string }{
		{"missing command", `{}`},
		{"blank command", `{"command":"  "}`},
		{"negative timeout", `{"command":"true","timeout_seconds":-1}`},
		{"unknown field", `{"command":"true","cwd":"/"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, tools["bash"], tt.args)
			var ae *tool.ArgsError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want a *tool.ArgsError", err)
			}
		})
	}
}

func TestOutputBuffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"under the limit", []string{"abc", "def"}, "abcdef"},
		{"exactly the limit", []string{"abcdefgh"}, "abcdefgh"},
		{"over the limit", []string{"abcd", "efghij", "kl"}, "abcd\n... [4 bytes of output omitted] ...\nijkl"},
		{"many small writes", strings.Split("0123456789abcdef", ""), "0123\n... [8 bytes of output omitted] ...\ncdef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newOutputBuffer(8)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("got %d, %v, want %d, nil", n, err, len(w))
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
