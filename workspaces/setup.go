package workspaces

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

// pipeWaitDelay is how long a cancelled command's output pipes may stay open
// (held by a grandchild) before the command is abandoned.
const pipeWaitDelay = 5 * time.Second

// runSetup runs the repo's setup command with bash in a new worktree. A
// failure returns a *SetupError with the end of the command's output.
func (m *Manager) runSetup(ctx context.Context, r Repo, dir string) error {
	start := time.Now()
	cmd := exec.CommandContext(ctx, "bash", "-c", r.Setup)
	cmd.Dir = dir
	cmd.WaitDelay = pipeWaitDelay
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	m.log.Info("workspaces: setup ran", "repo", r.Name, "path", dir, "took", time.Since(start).Round(time.Millisecond), "ok", err == nil)
	if err != nil {
		return &SetupError{Output: tail(scrub(out.String(), r.Token), maxErrText), Err: err}
	}
	return nil
}
