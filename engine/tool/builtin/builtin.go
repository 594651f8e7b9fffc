// Package builtin provides the tools every session has: read_file,
// write_file, edit_file, move_file, bash, ls, glob and grep.
//
// All of them work inside one workspace root and refuse paths that resolve
// outside it (see paths.go). Only the bash tool runs programs, through a Shell
// that the sandbox package may replace with a confined one.
//
// Only cmd/ and the agent wiring import this package; it imports engine/tool
// and the standard library.
package builtin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/reasonix/teams/engine/tool"
)

// Default limits of the bash tool.
const (
	DefaultBashTimeout    = 120 * time.Second
	DefaultMaxBashTimeout = 10 * time.Minute
)

// Options configure the built-in tools of one session.
type Options struct {
	// Root is the workspace directory: an absolute path to an existing
	// directory. Every path argument must resolve inside it.
	Root string
	// ForbidRead lists files or directories (absolute, or relative to Root)
	// that the reading tools refuse and that listings skip.
	ForbidRead []string
	// Shell builds the processes of the bash tool; nil means HostShell{}.
	Shell Shell
	// BashTimeout is the default foreground timeout of a bash call
	// (DefaultBashTimeout when zero).
	BashTimeout time.Duration
	// MaxBashTimeout caps the timeout a call may ask for
	// (DefaultMaxBashTimeout when zero).
	MaxBashTimeout time.Duration
}

// New returns the built-in tools for one session rooted at opts.Root, in a
// fixed order.
func New(opts Options) ([]tool.Tool, error) {
	ws, err := newWorkspace(opts.Root, opts.ForbidRead)
	if err != nil {
		return nil, err
	}
	shell := opts.Shell
	if shell == nil {
		shell = HostShell{}
	}
	maxTimeout := opts.MaxBashTimeout
	if maxTimeout <= 0 {
		maxTimeout = DefaultMaxBashTimeout
	}
	timeout := opts.BashTimeout
	if timeout <= 0 {
		timeout = DefaultBashTimeout
	}
	timeout = min(timeout, maxTimeout)

	// A missing rg is not an error: grep falls back to its own scanner.
	rg, _ := exec.LookPath("rg")

	return []tool.Tool{
		&readFileTool{ws: ws},
		&writeFileTool{ws: ws},
		&editFileTool{ws: ws},
		&moveFileTool{ws: ws},
		&bashTool{ws: ws, shell: shell, timeout: timeout, maxTimeout: maxTimeout},
		&lsTool{ws: ws},
		&globTool{ws: ws},
		&grepTool{ws: ws, rgPath: rg},
	}, nil
}

// newWorkspace checks root and resolves it and the forbid_read entries.
func newWorkspace(root string, forbid []string) (*workspace, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("workspace root %q is not an absolute path", root)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %q is not a directory", root)
	}
	ws := &workspace{root: real, shownRoot: filepath.Clean(root)}
	for _, f := range forbid {
		if err := ws.addForbidden(f); err != nil {
			return nil, fmt.Errorf("sandbox.forbid_read entry %q: %w", f, err)
		}
	}
	return ws, nil
}
