// Package sandbox confines the agent's bash commands with bubblewrap: the
// whole file system read-only, the thread's workspace (and any configured
// allow_write directories) writable, a private /tmp, forbidden paths
// hidden, and no network unless enabled.
//
// It imports only the standard library. cmd/ builds a Sandbox per session
// from [sandbox] and hands it to the bash tool as its shell.
package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// The modes of Options.Mode.
const (
	ModeEnforce = "enforce" // run every command in bubblewrap, or refuse
	ModeOff     = "off"     // run commands unconfined
)

// Options configure a Sandbox; they mirror [sandbox] plus the workspace.
type Options struct {
	// Mode is "enforce" (also when empty) or "off".
	Mode string
	// Network lets commands reach the network.
	Network bool
	// AllowWrite lists directories writable besides the workspace. Missing
	// ones are skipped.
	AllowWrite []string
	// ForbidRead lists files and directories hidden from commands: a
	// directory appears empty, a file empty. Relative paths are taken from
	// Root. Missing ones are skipped.
	ForbidRead []string
	// Root is the workspace, writable, as an absolute path.
	Root string
}

// ErrClosed is returned by Command after Close.
var ErrClosed = errors.New("sandbox: closed")

// Sandbox builds confined bash processes for one workspace. It is safe for
// concurrent use. Close removes its private /tmp.
type Sandbox struct {
	opts Options

	mu     sync.Mutex
	tmp    string // guarded by mu: the private /tmp on the host, "" until first used
	closed bool   // guarded by mu
}

// New returns a Sandbox. Nothing is checked or created until Command.
func New(opts Options) *Sandbox { return &Sandbox{opts: opts} }

// Command builds, but does not start, the process that runs script with
// bash in dir. In enforce mode it is bwrap around bash; when bubblewrap is
// unusable it returns an *UnavailableError rather than run unconfined.
func (s *Sandbox) Command(dir, script string) (*exec.Cmd, error) {
	switch s.opts.Mode {
	case ModeOff:
		return hostCommand(dir, script)
	case "", ModeEnforce:
	default:
		return nil, &ModeError{Mode: s.opts.Mode}
	}
	probe := Probe()
	if !probe.Usable {
		return nil, &UnavailableError{Reason: probe.Reason}
	}
	if s.opts.Root == "" || !filepath.IsAbs(s.opts.Root) {
		return nil, ErrNoRoot
	}
	tmp, err := s.privateTmp()
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = s.opts.Root
	}
	args, err := bwrapArgs(s.opts, tmp, dir, bashPath(), script)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(probe.Path, args...)
	cmd.Dir = dir
	cmd.Env = commandEnv(false)
	return cmd, nil
}

// Close removes the private /tmp. Commands must have exited.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.tmp == "" {
		return nil
	}
	err := removeAll(s.tmp)
	s.tmp = ""
	return err
}

// privateTmp creates, once, the host directory mounted as /tmp, with a home
// directory inside it.
func (s *Sandbox) privateTmp() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	if s.tmp != "" {
		return s.tmp, nil
	}
	dir, err := os.MkdirTemp("", "reasonix-sandbox-")
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(dir, "home"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	s.tmp = dir
	return dir, nil
}

// removeAll deletes a tree even when commands left read-only directories
// in it (the Go module cache does).
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// hostCommand is bash without confinement.
func hostCommand(dir, script string) (*exec.Cmd, error) {
	cmd := exec.Command(bashPath(), "-c", script)
	cmd.Dir = dir
	cmd.Env = commandEnv(true)
	return cmd, nil
}

// bashPath finds bash on the host; the sandbox sees the same file system.
func bashPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/bash"
}
