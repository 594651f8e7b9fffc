package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/reasonix/teams/engine/tool"
)

const (
	// bashOutputLimit bounds the output kept from one command.
	bashOutputLimit = 1 << 20
	// killGrace is how long a process group has between SIGTERM and SIGKILL.
	killGrace = 2 * time.Second
	// pipeWaitDelay is how long Wait waits for the output pipes to close
	// once the shell has exited, when a background process holds them.
	pipeWaitDelay = time.Second
)

type bashTool struct {
	ws         *workspace
	shell      Shell
	timeout    time.Duration
	maxTimeout time.Duration
}

var _ tool.Tool = (*bashTool)(nil)

func (*bashTool) Name() string { return "bash" }

func (*bashTool) Description() string {
	return "Run a bash command line in the workspace root; returns its combined stdout and stderr and its exit status. " +
		"Use it for builds, tests, git and other programs, and the file tools to read, search and edit files. " +
		"Processes left in the background are stopped when the command returns."
}

func (t *bashTool) Schema() json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{
	"type": "object",
	"properties": {
		"command": {"type": "string", "description": "The command line, run by bash -c."},
		"timeout_seconds": {"type": "integer", "minimum": 1, "description": "Kill the command after this many seconds (default %d, at most %d)."}
	},
	"required": ["command"],
	"additionalProperties": false
}`, int(t.timeout/time.Second), int(t.maxTimeout/time.Second)))
}

// ReadOnly is false: a command line may change anything. The permission
// layer classifies individual commands.
func (*bashTool) ReadOnly() bool { return false }

type bashArgs struct {
	Command        string `json:"command"`
	TimeoutSeconds int    `json:"timeout_seconds"`
}

// Execute runs the command. A non-zero exit status is a Failed result, not
// an error. When ctx ends first, the process group is killed and the
// partial output is returned together with an error wrapping ctx.Err().
func (t *bashTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args bashArgs
	if err := decodeArgs(t.Name(), raw, &args, "command"); err != nil {
		return tool.Result{}, err
	}
	if strings.TrimSpace(args.Command) == "" {
		return tool.Result{}, argsErrorf(t.Name(), "command is empty")
	}
	if args.TimeoutSeconds < 0 {
		return tool.Result{}, argsErrorf(t.Name(), "timeout_seconds must be positive")
	}
	timeout := t.timeout
	if args.TimeoutSeconds > 0 {
		timeout = min(time.Duration(args.TimeoutSeconds)*time.Second, t.maxTimeout)
	}

	if err := ctx.Err(); err != nil {
		return tool.Result{}, fmt.Errorf("bash: %w", err)
	}
	cmd, err := t.shell.Command(t.ws.root, args.Command)
	if err != nil {
		return tool.Result{}, err
	}
	out := newOutputBuffer(bashOutputLimit)
	cmd.Stdout = out
	cmd.Stderr = out
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Its own process group lets us signal the shell and everything it
	// started at once. A new session (as a sandbox may ask for) is a new
	// group already, and setpgid would fail in it.
	if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid = true
	}
	dieWithParent(cmd.SysProcAttr)
	cmd.WaitDelay = pipeWaitDelay
	if err := cmd.Start(); err != nil {
		return tool.Result{}, fmt.Errorf("start bash: %w", err)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var killed string
	select {
	case err = <-done:
	case <-timer.C:
		killed = "timed out after " + timeout.String()
		err = stopGroup(pgid, done)
	case <-ctx.Done():
		killed = "cancelled"
		err = stopGroup(pgid, done)
	}
	// Whatever the shell left running in its group goes with it.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)

	text := out.String()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if killed != "" {
		res := tool.Result{Output: text + "killed: " + killed, Failed: true}
		if ctx.Err() != nil {
			return res, fmt.Errorf("bash: %w", ctx.Err())
		}
		return res, nil
	}
	status, ok := exitStatus(cmd)
	if !ok {
		return tool.Result{}, fmt.Errorf("bash: %w", err)
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		text += "(a background process kept the output open; it was stopped)\n"
	}
	return tool.Result{Output: text + status, Failed: status != "exit status 0"}, nil
}

// stopGroup asks the process group to terminate, then kills it if it has
// not finished after killGrace, and returns the result of Wait.
func stopGroup(pgid int, done <-chan error) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	grace := time.NewTimer(killGrace)
	defer grace.Stop()
	select {
	case err := <-done:
		return err
	case <-grace.C:
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return <-done
	}
}

// exitStatus describes how the shell ended: "exit status N" or "killed by
// signal S". ok is false when the process was never waited for.
func exitStatus(cmd *exec.Cmd) (string, bool) {
	st := cmd.ProcessState
	if st == nil {
		return "", false
	}
	if ws, isWait := st.Sys().(syscall.WaitStatus); isWait && ws.Signaled() {
		return "killed by signal " + ws.Signal().String(), true
	}
	return fmt.Sprintf("exit status %d", st.ExitCode()), true
}
