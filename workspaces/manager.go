package workspaces

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Forge names accepted in Repo.Forge.
const (
	ForgeGitHub = "github"
	ForgeGitLab = "gitlab"
	ForgeNone   = "none"
)

// BranchPrefix starts the name of every thread branch.
const BranchPrefix = "reasonix/"

// Default bot identity used as commit author and committer.
const (
	DefaultCommitName  = "Reasonix"
	DefaultCommitEmail = "reasonix@localhost"
)

// Repo is one repository threads can work on.
type Repo struct {
	// Name is how threads and the config refer to the repository; it also
	// names its mirror directory.
	Name string
	// URL is the real remote: https://, ssh, file:// or a local path.
	URL string
	// DefaultBranch is the base of new thread branches when none is asked for.
	DefaultBranch string
	// Token is the access token itself (not the name of a variable). It is
	// sent only in headers and never logged, stored or shown.
	Token string
	// Forge is "github", "gitlab" or "none" (or empty, meaning none).
	Forge string
	// ForgeAPIURL overrides the forge's REST base URL.
	ForgeAPIURL string
	// Setup is a shell command run once in each new worktree (bash -c).
	Setup string
}

// Options configures a Manager.
type Options struct {
	// Dir holds mirrors/ and threads/. Required.
	Dir string
	// TTL is how long a workspace may stay idle before GC removes it;
	// zero disables the idle limit.
	TTL time.Duration
	// MaxDisk bounds the total size of all worktrees in bytes; GC removes
	// the longest-idle ones until under it. Zero disables the limit.
	MaxDisk int64
	// FetchInterval is how stale a mirror may be before Prepare fetches;
	// zero fetches before every new worktree.
	FetchInterval time.Duration
	// Logger receives operational logs; nil discards them.
	Logger *slog.Logger
	// HTTPClient talks to forge APIs; nil uses a client with a 30 s timeout.
	HTTPClient *http.Client
	// CommitName and CommitEmail are the author and committer of thread
	// commits; empty means "Reasonix <reasonix@localhost>".
	CommitName  string
	CommitEmail string
}

// Manager owns the mirrors and per-thread worktrees under Options.Dir. It is
// safe for concurrent use: mirror-wide git operations are serialized per
// repository, and operations on one workspace are serialized per thread.
type Manager struct {
	opts  Options
	log   *slog.Logger
	http  *http.Client
	repos map[string]Repo // read-only after NewManager

	repoLocks   *keyLock // keyed by repo name: fetch, worktree add/remove/prune, branch changes
	threadLocks *keyLock // keyed by short thread id: every operation on one workspace
}

var repoNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// NewManager checks opts and repos and creates the directory layout.
func NewManager(opts Options, repos []Repo) (*Manager, error) {
	if opts.Dir == "" {
		return nil, errors.New("workspaces: no directory configured; set [workspaces] dir")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("workspaces: dir %q: %w", opts.Dir, err)
	}
	opts.Dir = dir
	m := &Manager{
		opts:        opts,
		log:         opts.Logger,
		http:        opts.HTTPClient,
		repos:       make(map[string]Repo, len(repos)),
		repoLocks:   newKeyLock(),
		threadLocks: newKeyLock(),
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.http == nil {
		m.http = &http.Client{Timeout: 30 * time.Second}
	}
	if m.opts.CommitName == "" {
		m.opts.CommitName = DefaultCommitName
	}
	if m.opts.CommitEmail == "" {
		m.opts.CommitEmail = DefaultCommitEmail
	}
	for _, r := range repos {
		if !repoNameRE.MatchString(r.Name) {
			return nil, fmt.Errorf("workspaces: repo name %q must be letters, digits, '.', '_' or '-'", r.Name)
		}
		if _, dup := m.repos[r.Name]; dup {
			return nil, fmt.Errorf("workspaces: repo %q is configured twice", r.Name)
		}
		if r.URL == "" {
			return nil, fmt.Errorf("workspaces: repo %q has no url", r.Name)
		}
		switch r.Forge {
		case "", ForgeNone, ForgeGitHub, ForgeGitLab:
		default:
			return nil, fmt.Errorf("workspaces: repo %q: forge %q must be github, gitlab or none", r.Name, r.Forge)
		}
		if isLocalPath(r.URL) {
			// git runs in other directories; a relative path must not move.
			abs, err := filepath.Abs(r.URL)
			if err != nil {
				return nil, fmt.Errorf("workspaces: repo %q url: %w", r.Name, err)
			}
			r.URL = abs
		}
		if r.DefaultBranch == "" {
			r.DefaultBranch = "main"
		}
		m.repos[r.Name] = r
	}
	for _, d := range []string{m.mirrorsDir(), m.threadsDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("workspaces: %w", err)
		}
	}
	return m, nil
}

// repo returns the named repository or an error wrapping ErrUnknownRepo
// that lists the known names.
func (m *Manager) repo(name string) (Repo, error) {
	r, ok := m.repos[name]
	if !ok {
		names := make([]string, 0, len(m.repos))
		for n := range m.repos {
			names = append(names, n)
		}
		sort.Strings(names)
		return Repo{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownRepo, name, strings.Join(names, ", "))
	}
	return r, nil
}

// isLocalPath reports whether a remote is a plain path: no scheme and not
// the scp-like host:path form.
func isLocalPath(remote string) bool {
	if strings.Contains(remote, "://") {
		return false
	}
	colon := strings.Index(remote, ":")
	return colon < 0 || strings.Contains(remote[:colon], "/")
}

func (m *Manager) mirrorsDir() string { return filepath.Join(m.opts.Dir, "mirrors") }
func (m *Manager) threadsDir() string { return filepath.Join(m.opts.Dir, "threads") }

func (m *Manager) mirrorPath(repo string) string {
	return filepath.Join(m.mirrorsDir(), repo+".git")
}

// ShortID is the stable short name of a thread: the first 12 hex digits of
// the SHA-256 of its id. It names the thread's directory and branch.
func ShortID(threadID string) string {
	sum := sha256.Sum256([]byte(threadID))
	return hex.EncodeToString(sum[:6])
}

// BranchName is the branch a thread's work lives on.
func BranchName(threadID string) string { return BranchPrefix + ShortID(threadID) }
