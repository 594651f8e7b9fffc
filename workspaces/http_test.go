package workspaces

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const testToken = "ghp_s3cretTOKENvalue1234567890"

// lockedBuffer is a bytes.Buffer safe for concurrent log writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newHTTPRemote serves bare repositories under root with git http-backend,
// accepting only requests whose basic-auth password is testToken, and
// returns the URL of repo.git.
func newHTTPRemote(t *testing.T) (url, bare string) {
	t.Helper()
	src := newRemote(t)
	root := t.TempDir()
	bare = filepath.Join(root, "repo.git")
	runGit(t, root, "clone", "--quiet", "--bare", src, bare)
	runGit(t, bare, "config", "http.receivepack", "true")
	backend := &cgi.Handler{
		Path: filepath.Join(runGit(t, root, "--exec-path"), "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pass, ok := r.BasicAuth(); !ok || pass != testToken {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/repo.git", bare
}

func TestHTTPRemoteWithToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, bare := newHTTPRemote(t)
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	dir := t.TempDir()
	repo := Repo{Name: "widgets", URL: url, DefaultBranch: "main", Token: testToken, Forge: ForgeNone}
	m := newTestManager(t, Options{Dir: dir, Logger: logger}, repo)
	var errTexts []string

	// Clone, commit, push (go-git over http), then a second thread fetches.
	ws := prepare(t, m, "widgets", "thread-1")
	writeFile(t, ws.Path, "feature.txt", "over http\n")
	res, err := m.Commit(ctx, ws, "Add feature", Author{Name: "Ada", Email: "ada@example.com"})
	if err != nil || !res.Committed {
		t.Fatalf("Commit: %+v, %v", res, err)
	}
	if err := m.Push(ctx, ws); err != nil {
		t.Fatalf("Push: %v", err)
	}
	if got := runGit(t, bare, "rev-parse", ws.Branch); got != res.Hash {
		t.Errorf("remote branch: got %v, want %v", got, res.Hash)
	}
	latest := addRemoteCommit(t, bare, "later.txt")
	second := prepare(t, m, "widgets", "thread-2")
	if got := runGit(t, second.Path, "rev-parse", "HEAD"); got != latest {
		t.Errorf("second thread after fetch: got %v, want %v", got, latest)
	}
	writeFile(t, ws.Path, "more.txt", "more\n")
	if _, err := m.Commit(ctx, ws, "More", Author{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Push(ctx, ws); err != nil {
		t.Fatalf("second Push: %v", err)
	}

	// Without the token, or with a wrong one: typed auth errors.
	tests := []struct {
		name  string
		token string
	}{
		{"no token", ""},
		{"wrong token", "wrong-" + testToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := repo
			bad.Token = tt.token
			other := newTestManager(t, Options{Logger: logger}, bad)
			_, err := other.Prepare(ctx, "widgets", "thread-1", "")
			var pe *PrepareError
			if !errors.As(err, &pe) || pe.Kind != KindAuth {
				t.Fatalf("Prepare: got %v, want a *PrepareError of kind auth", err)
			}
			errTexts = append(errTexts, err.Error())

			// Same workspaces dir, bad token: the push is refused.
			sameDir := newTestManager(t, Options{Dir: dir, Logger: logger}, bad)
			writeFile(t, ws.Path, tt.name+".txt", "x\n")
			if _, err := sameDir.Commit(ctx, ws, "x", Author{}); err != nil {
				t.Fatal(err)
			}
			err = sameDir.Push(ctx, ws)
			var push *PushError
			if !errors.As(err, &push) || push.Kind != KindAuth {
				t.Fatalf("Push: got %v, want a *PushError of kind auth", err)
			}
			errTexts = append(errTexts, err.Error())
		})
	}

	// The token is nowhere on disk, in errors or in the logs.
	secrets := []string{testToken, base64.StdEncoding.EncodeToString([]byte("x-access-token:" + testToken))}
	for _, text := range append(errTexts, logs.String()) {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("secret leaked into %q", text)
			}
		}
	}
	if !strings.Contains(logs.String(), "workspaces: pushed") {
		t.Errorf("logs: want a push record, got:\n%s", logs.String())
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, string(filepath.Separator)+"objects"+string(filepath.Separator)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("secret stored in %s", path)
			}
		}
		return nil
	})
	cfg, err := os.ReadFile(filepath.Join(m.mirrorPath("widgets"), "config"))
	if err != nil || !strings.Contains(string(cfg), "url = "+url+"\n") {
		t.Errorf("mirror config: got %s, %v, want the plain URL", cfg, err)
	}
}
