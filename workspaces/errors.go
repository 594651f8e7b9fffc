package workspaces

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// ErrUnknownRepo is wrapped by errors for a repository name that is not
// configured; the message lists the names that are.
var ErrUnknownRepo = errors.New("unknown repo")

// ErrNoForge is returned by OpenPR for a repository with forge = none.
// Callers treat it as "nothing to open" and skip cleanly.
var ErrNoForge = errors.New("repo has no forge configured")

// ErrWorkspaceGone is wrapped by errors for a workspace whose worktree no
// longer exists (released or garbage-collected); Prepare makes a new one.
var ErrWorkspaceGone = errors.New("workspace no longer exists; prepare it again")

// Kind says what went wrong with a git operation, in terms an operator can
// act on.
type Kind string

// The kinds of PrepareError.
const (
	KindAuth          Kind = "auth"           // the token is missing, wrong or lacks access
	KindUnknownBranch Kind = "unknown branch" // the base branch does not exist
	KindNetwork       Kind = "network"        // the remote could not be reached
	KindDisk          Kind = "disk"           // the disk is full
	KindRejected      Kind = "rejected"       // the remote refused the push (the branch moved)
	KindOther         Kind = "other"
)

// PrepareError is the error of a failed Prepare. Nothing half-made is left
// behind when it is returned.
type PrepareError struct {
	Repo  string
	Stage string // "mirror", "fetch", "worktree", "setup", "metadata"
	Kind  Kind
	Err   error
}

func (e *PrepareError) Error() string {
	hint := ""
	switch e.Kind {
	case KindAuth:
		hint = " (check the repo's token_env token and its access)"
	case KindUnknownBranch:
		hint = " (the base branch does not exist on the remote)"
	case KindNetwork:
		hint = " (the remote could not be reached)"
	case KindDisk:
		hint = " (the workspaces disk is full)"
	}
	return fmt.Sprintf("prepare workspace of %s: %s failed: %s%s: %v", e.Repo, e.Stage, e.Kind, hint, e.Err)
}

func (e *PrepareError) Unwrap() error { return e.Err }

// GitError is a failed git CLI command. Args never hold credentials and
// Stderr has been scrubbed of the repository token.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := "git " + strings.Join(e.Args, " ") + ": " + e.Err.Error()
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += ": " + s
	}
	return msg
}

func (e *GitError) Unwrap() error { return e.Err }

// SetupError is a repository setup command that failed in a new worktree.
type SetupError struct {
	Output string // the last part of its combined output
	Err    error
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("setup command: %v; output:\n%s", e.Err, e.Output)
}

func (e *SetupError) Unwrap() error { return e.Err }

// PushError is a failed Push.
type PushError struct {
	Repo   string
	Branch string
	Kind   Kind
	Err    error
}

func (e *PushError) Error() string {
	return fmt.Sprintf("push %s to %s: %s: %v", e.Branch, e.Repo, e.Kind, e.Err)
}

func (e *PushError) Unwrap() error { return e.Err }

// ForgeError is an error answer from a forge's REST API.
type ForgeError struct {
	Status  int
	Message string
}

func (e *ForgeError) Error() string {
	return fmt.Sprintf("forge API: HTTP %d: %s", e.Status, e.Message)
}

// kindPatterns maps git's stderr to a Kind, checked in order (an auth
// failure over https also says "unable to access").
var kindPatterns = []struct {
	kind    Kind
	needles []string
}{
	{KindDisk, []string{"no space left on device", "disk quota exceeded"}},
	{KindAuth, []string{
		"authentication failed", "could not read username", "could not read password",
		"terminal prompts disabled", "returned error: 401", "returned error: 403",
		"permission denied (publickey", "http basic: access denied", "invalid username or password",
		"authentication required", "authorization failed",
	}},
	{KindRejected, []string{"non-fast-forward", "[rejected]", "fetch first"}},
	{KindUnknownBranch, []string{
		"remote branch", "invalid reference", "couldn't find remote ref",
		"not a valid object name", "unknown revision", "not a commit",
	}},
	// A remote that answers but has no such repository is not a network
	// fault, though git adds "Could not read from remote repository".
	{KindOther, []string{"does not appear to be a git repository", "repository not found"}},
	{KindNetwork, []string{
		"could not resolve host", "connection refused", "connection timed out", "failed to connect",
		"network is unreachable", "operation timed out", "connection reset", "early eof",
		"the remote end hung up", "could not read from remote repository", "unable to access",
		"ssl certificate problem", "gnutls", "tls handshake",
	}},
}

// classify names the Kind of err from git's stderr or the system error.
func classify(err error) Kind {
	if errors.Is(err, syscall.ENOSPC) {
		return KindDisk
	}
	text := strings.ToLower(err.Error())
	for _, p := range kindPatterns {
		for _, n := range p.needles {
			if strings.Contains(text, n) {
				return p.kind
			}
		}
	}
	return KindOther
}
