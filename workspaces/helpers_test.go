package workspaces

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain isolates the git CLI from the machine's configuration and gives
// test-made commits an identity.
func TestMain(m *testing.M) {
	for k, v := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
	} {
		os.Setenv(k, v)
	}
	os.Exit(m.Run())
}

// runGit runs the git CLI in dir and returns its trimmed stdout.
func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// writeFile writes content to dir/name, creating parent directories.
func writeFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRemote makes a bare repository with two commits on main and a branch
// dev, and returns its path.
func newRemote(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join(root, "src")
	runGit(t, root, "init", "--quiet", "-b", "main", src)
	writeFile(t, src, "README.md", "# widgets\n")
	writeFile(t, src, ".gitignore", "*.log\nbuild/\n")
	writeFile(t, src, "old.txt", "to be deleted\n")
	runGit(t, src, "add", "-A")
	runGit(t, src, "commit", "--quiet", "-m", "first")
	writeFile(t, src, "main.go", "package main\n\nfunc main() {}\n")
	runGit(t, src, "add", "-A")
	runGit(t, src, "commit", "--quiet", "-m", "second")
	runGit(t, src, "branch", "dev")
	bare := filepath.Join(root, "remote.git")
	runGit(t, root, "clone", "--quiet", "--bare", src, bare)
	return bare
}

// addRemoteCommit commits a new file on main in the bare remote.
func addRemoteCommit(t testing.TB, bare, name string) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	runGit(t, filepath.Dir(work), "clone", "--quiet", bare, work)
	writeFile(t, work, name, name+"\n")
	runGit(t, work, "add", "-A")
	runGit(t, work, "commit", "--quiet", "-m", "add "+name)
	runGit(t, work, "push", "--quiet", "origin", "main")
	return runGit(t, work, "rev-parse", "HEAD")
}

// newTestManager makes a Manager in a temporary directory.
func newTestManager(t testing.TB, opts Options, repos ...Repo) *Manager {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	m, err := NewManager(opts, repos)
	if err != nil {
		t.Fatalf("NewManager: %v", err)
	}
	return m
}

// fileRepo is a Repo for a bare repository on disk.
func fileRepo(name, bare string) Repo {
	return Repo{Name: name, URL: "file://" + bare, DefaultBranch: "main", Forge: ForgeNone}
}

// prepare calls Prepare and fails the test on error.
func prepare(t testing.TB, m *Manager, repo, thread string) *Workspace {
	t.Helper()
	ws, err := m.Prepare(context.Background(), repo, thread, "")
	if err != nil {
		t.Fatalf("Prepare(%s, %s): %v", repo, thread, err)
	}
	return ws
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// setIdle rewrites a workspace's last-used time as if it had been idle for d.
func setIdle(t testing.TB, m *Manager, ws *Workspace, d time.Duration) {
	t.Helper()
	cur, err := m.loadMeta(ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.LastUsed = time.Now().Add(-d).UTC()
	if err := m.saveMeta(cur); err != nil {
		t.Fatal(err)
	}
}
