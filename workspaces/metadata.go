package workspaces

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Workspace is one thread's working copy. Its metadata is stored as
// Dir/threads/<ID>.json beside the worktree Dir/threads/<ID>.
type Workspace struct {
	ID         string    `json:"id"` // ShortID(ThreadID)
	ThreadID   string    `json:"thread_id"`
	Repo       string    `json:"repo"`
	Branch     string    `json:"branch"`
	Path       string    `json:"path"`
	Base       string    `json:"base"`        // the branch it was started from
	BaseCommit string    `json:"base_commit"` // that branch's commit at the time
	Created    time.Time `json:"created"`
	LastUsed   time.Time `json:"last_used"`

	// Size (bytes on disk) and Idle are filled in by List.
	Size int64         `json:"-"`
	Idle time.Duration `json:"-"`
}

const metaSuffix = ".json"

func (m *Manager) threadPath(id string) string { return filepath.Join(m.threadsDir(), id) }
func (m *Manager) metaPath(id string) string   { return m.threadPath(id) + metaSuffix }

// loadMeta reads a workspace's metadata; a missing file wraps os.ErrNotExist.
func (m *Manager) loadMeta(id string) (*Workspace, error) {
	b, err := os.ReadFile(m.metaPath(id))
	if err != nil {
		return nil, err
	}
	var ws Workspace
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, fmt.Errorf("workspace metadata %s: %w", m.metaPath(id), err)
	}
	if ws.ID != id {
		return nil, fmt.Errorf("workspace metadata %s: names workspace %q", m.metaPath(id), ws.ID)
	}
	return &ws, nil
}

// saveMeta writes ws's metadata atomically: a temporary file in the same
// directory, synced, then renamed over the old one, so a crash leaves either
// the old or the new metadata and never a torn file.
func (m *Manager) saveMeta(ws *Workspace) error {
	b, err := json.MarshalIndent(ws, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(m.threadsDir(), ws.ID+metaSuffix+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, m.metaPath(ws.ID))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save workspace metadata: %w", err)
	}
	return nil
}

// removeMeta deletes a workspace's metadata; a missing file is not an error.
func (m *Manager) removeMeta(id string) error {
	if err := os.Remove(m.metaPath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// touch records that ws was used now.
func (m *Manager) touch(ws *Workspace) error {
	ws.LastUsed = time.Now().UTC()
	return m.saveMeta(ws)
}

// threadsEntries is what Dir/threads holds, by kind.
type threadsEntries struct {
	metas []string // ids with a metadata file
	dirs  []string // ids with a directory
	temps []string // names of leftover temporary metadata files
	other []string // names of anything else
}

// scanThreads lists Dir/threads, sorted.
func (m *Manager) scanThreads() (threadsEntries, error) {
	var e threadsEntries
	entries, err := os.ReadDir(m.threadsDir())
	if err != nil {
		return e, err
	}
	for _, de := range entries {
		name := de.Name()
		switch {
		case de.IsDir():
			e.dirs = append(e.dirs, name)
		case strings.HasSuffix(name, metaSuffix):
			e.metas = append(e.metas, strings.TrimSuffix(name, metaSuffix))
		case strings.Contains(name, metaSuffix+".tmp-"):
			e.temps = append(e.temps, name)
		default:
			e.other = append(e.other, name)
		}
	}
	sort.Strings(e.metas)
	sort.Strings(e.dirs)
	return e, nil
}

// current reloads ws's metadata and checks its worktree still exists, so an
// operation never acts on a workspace that was released meanwhile. The
// caller holds the thread lock.
func (m *Manager) current(ws *Workspace) (*Workspace, error) {
	if ws == nil || ws.ID == "" {
		return nil, errors.New("workspaces: nil or empty workspace")
	}
	cur, err := m.loadMeta(ws.ID)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("thread %s: %w", ws.ThreadID, ErrWorkspaceGone)
	}
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(cur.Path, ".git")); err != nil {
		return nil, fmt.Errorf("thread %s: %w", ws.ThreadID, ErrWorkspaceGone)
	}
	return cur, nil
}
