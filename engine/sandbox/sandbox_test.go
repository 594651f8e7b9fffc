package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needBwrap skips tests that need a working bubblewrap.
func needBwrap(t *testing.T) {
	t.Helper()
	if p := Probe(); !p.Usable {
		t.Skipf("bubblewrap cannot run here, so the sandbox cannot be exercised: %s", p.Reason)
	}
}

// hostDir makes a directory outside both the workspace and /tmp (which the
// sandbox replaces), so the sandbox sees it read-only rather than not at all.
func hostDir(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("no home directory for an outside directory: %v", err)
	}
	dir, err := os.MkdirTemp(home, ".reasonix-sandbox-test-")
	if err != nil {
		t.Skipf("cannot create a directory in %s: %v", home, err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// run executes script in the sandbox and returns its output and error.
func run(t *testing.T, s *Sandbox, script string) (string, error) {
	t.Helper()
	cmd, err := s.Command(s.opts.Root, script)
	if err != nil {
		t.Fatalf("Command: %v", err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.String(), err
}

func newSandbox(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	s := New(opts)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestConfinesWrites(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	outside := hostDir(t)
	extra := hostDir(t)
	s := newSandbox(t, Options{AllowWrite: []string{extra}})
	root := s.opts.Root
	home, _ := os.UserHomeDir()
	tests := []struct {
		name   string
		script string
		ok     bool
		file   string // must exist afterwards when ok, must not when !ok
		// anyStatus skips the exit status: under a private /tmp the test
		// workspace's parent is a scratch directory, so touching it may work
		// without reaching the host.
		anyStatus bool
	}{
		{name: "workspace", script: "echo x > " + root + "/in.txt", ok: true, file: filepath.Join(root, "in.txt")},
		{name: "workspace relative", script: "mkdir -p sub && echo x > sub/f", ok: true, file: filepath.Join(root, "sub", "f")},
		{name: "allow_write dir", script: "echo x > " + extra + "/f", ok: true, file: filepath.Join(extra, "f")},
		{name: "outside dir", script: "echo x > " + outside + "/f", file: filepath.Join(outside, "f")},
		{name: "host home", script: "touch " + home + "/.reasonix-sandbox-escape", file: filepath.Join(home, ".reasonix-sandbox-escape")},
		{name: "etc", script: "touch /etc/reasonix-sandbox-escape", file: "/etc/reasonix-sandbox-escape"},
		{name: "parent of workspace", script: "touch ../reasonix-escape", file: filepath.Join(filepath.Dir(root), "reasonix-escape"), anyStatus: true},
		{name: "private tmp", script: "echo x > /tmp/reasonix-private-probe && cat /tmp/reasonix-private-probe", ok: true},
		{name: "home is writable", script: "echo x > ~/f && test -d /tmp/home", ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, s, tt.script)
			if !tt.anyStatus && (err == nil) != tt.ok {
				t.Fatalf("got err %v (output %q), want success %v", err, out, tt.ok)
			}
			if tt.file == "" {
				return
			}
			_, statErr := os.Stat(tt.file)
			if exists := statErr == nil; exists != tt.ok {
				t.Errorf("%s exists: got %v, want %v", tt.file, exists, tt.ok)
			}
		})
	}
	if _, err := os.Stat("/tmp/reasonix-private-probe"); err == nil {
		t.Errorf("a file written to the sandbox's /tmp appeared in the host's /tmp")
	}
}

func TestForbidRead(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	root := t.TempDir()
	for name, body := range map[string]string{"secret.txt": "s3cret", "private/key": "k3y", "open.txt": "visible"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSandbox(t, Options{Root: root, ForbidRead: []string{"secret.txt", filepath.Join(root, "private"), "missing"}})
	out, err := run(t, s, "cat open.txt; cat secret.txt; ls private; cat private/key 2>&1")
	if err == nil {
		t.Errorf("reading a hidden file succeeded: %q", out)
	}
	if !strings.Contains(out, "visible") {
		t.Errorf("got %q, want the open file's content", out)
	}
	if strings.Contains(out, "s3cret") || strings.Contains(out, "k3y") || strings.Contains(out, "key\n") {
		t.Errorf("got %q, want no trace of forbidden files", out)
	}
}

func TestNetwork(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	tests := []struct {
		name    string
		network bool
	}{
		{name: "off", network: false},
		{name: "on", network: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t, Options{Network: tt.network})
			out, err := run(t, s, script)
			if got := err == nil && strings.Contains(out, "connected"); got != tt.network {
				t.Errorf("connected: got %v (err %v, output %q), want %v", got, err, out, tt.network)
			}
		})
	}
}

// TestKillProcessGroup checks that killing bwrap's process group, as the
// bash tool does on a timeout, also ends background children inside the
// sandbox's pid namespace.
func TestKillProcessGroup(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newSandbox(t, Options{})
	tick := filepath.Join(s.opts.Root, "tick")
	cmd, err := s.Command(s.opts.Root, "(while :; do date +%s%N > tick; sleep 0.1; done) & sleep 301.25 & echo started; wait")
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the background loop to start", func() bool { _, err := os.Stat(tick); return err == nil })
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill: %v", err)
	}
	cmd.Wait()
	waitFor(t, "the background sleep to be gone", func() bool { return !sleepRunning(t, "301.25") })
	waitFor(t, "the background loop to stop", func() bool {
		a, _ := os.ReadFile(tick)
		time.Sleep(400 * time.Millisecond)
		b, _ := os.ReadFile(tick)
		return bytes.Equal(a, b)
	})
}

// waitFor polls cond until it holds, failing the test after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 100 {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// sleepRunning reports whether any process on the host runs "sleep arg".
func sleepRunning(t *testing.T, arg string) bool {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := "sleep\x00" + arg + "\x00"
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasSuffix(string(b), want) && strings.Contains(filepath.Base(strings.SplitN(string(b), "\x00", 2)[0]), "sleep") {
			return true
		}
	}
	return false
}

func TestOffRunsOnHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := New(Options{Mode: ModeOff, Root: dir})
	cmd, err := s.Command(dir, "pwd; echo $REASONIX_SANDBOX_SECRET")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(cmd.Path) == "bwrap" {
		t.Errorf("got %s, want bash", cmd.Path)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != dir {
		t.Errorf("got %q, want %q", got, dir)
	}
}

func TestCommandErrors(t *testing.T) {
	t.Parallel()
	var me *ModeError
	if _, err := New(Options{Mode: "sometimes", Root: "/x"}).Command("/x", "ls"); !errors.As(err, &me) {
		t.Errorf("unknown mode: got %v, want a *ModeError", err)
	}
	if !Probe().Usable {
		return
	}
	if _, err := New(Options{}).Command("/", "ls"); !errors.Is(err, ErrNoRoot) {
		t.Errorf("no root: got %v, want ErrNoRoot", err)
	}
	s := New(Options{Root: t.TempDir()})
	s.Close()
	if _, err := s.Command("/", "ls"); !errors.Is(err, ErrClosed) {
		t.Errorf("closed: got %v, want ErrClosed", err)
	}
}

func TestUnavailableMessage(t *testing.T) {
	t.Parallel()
	msg := (&UnavailableError{Reason: "bwrap is not on PATH"}).Error()
	for _, want := range []string{`sandbox.bash = "enforce"`, "bwrap is not on PATH", "apt-get install bubblewrap", `sandbox.bash = "off"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

func TestCloseRemovesTmp(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := New(Options{Root: t.TempDir()})
	if _, err := run(t, s, "mkdir -p /tmp/ro/x && chmod 555 /tmp/ro/x /tmp/ro"); err != nil {
		t.Fatal(err)
	}
	tmp := s.tmp
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Errorf("%s still exists after Close", tmp)
	}
}

func TestProbeFindsBwrap(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed")
	}
	p := Probe()
	if p.Path == "" || (p.Usable && p.Reason != "") || (!p.Usable && p.Reason == "") {
		t.Errorf("inconsistent probe result %+v", p)
	}
}
