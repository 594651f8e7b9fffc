package workspaces

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeForge is a tiny GitHub- or GitLab-shaped REST server keeping pull
// requests in memory.
type fakeForge struct {
	mu    sync.Mutex
	prs   []map[string]any // guarded by mu
	calls []string         // "METHOD path", guarded by mu
}

func (f *fakeForge) record(r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.EscapedPath())
}

func decodeBody(r *http.Request) map[string]any {
	var v map[string]any
	json.NewDecoder(r.Body).Decode(&v)
	return v
}

// github serves /repos/acme/widgets/pulls.
func (f *fakeForge) github() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		if r.Header.Get("Authorization") != "Bearer "+testToken || r.Header.Get("Accept") != "application/vnd.github+json" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"message":"Bad credentials: %s"}`, r.Header.Get("Authorization"))
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		const pulls = "/repos/acme/widgets/pulls"
		switch {
		case r.Method == http.MethodGet && r.URL.Path == pulls:
			open := []map[string]any{}
			for _, pr := range f.prs {
				if "acme:"+pr["head"].(string) == r.URL.Query().Get("head") && r.URL.Query().Get("state") == "open" {
					open = append(open, pr)
				}
			}
			json.NewEncoder(w).Encode(open)
		case r.Method == http.MethodPost && r.URL.Path == pulls:
			pr := decodeBody(r)
			if pr["base"] != "main" {
				w.WriteHeader(http.StatusUnprocessableEntity)
				fmt.Fprint(w, `{"message":"Validation Failed","errors":[{"message":"base is invalid"}]}`)
				return
			}
			n := len(f.prs) + 1
			pr["number"], pr["html_url"] = n, fmt.Sprintf("https://github.com/acme/widgets/pull/%d", n)
			f.prs = append(f.prs, pr)
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(pr)
		case r.Method == http.MethodPatch && r.URL.Path == pulls+"/1":
			for k, v := range decodeBody(r) {
				f.prs[0][k] = v
			}
			json.NewEncoder(w).Encode(f.prs[0])
		default:
			http.NotFound(w, r)
		}
	})
}

// gitlab serves /api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests.
func (f *fakeForge) gitlab() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		if r.Header.Get("PRIVATE-TOKEN") != testToken {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"message":"401 Unauthorized"}`)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		const mrs = "/api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests"
		switch path := r.URL.EscapedPath(); {
		case r.Method == http.MethodGet && path == mrs:
			open := []map[string]any{}
			for _, mr := range f.prs {
				if mr["source_branch"] == r.URL.Query().Get("source_branch") && r.URL.Query().Get("state") == "opened" {
					open = append(open, mr)
				}
			}
			json.NewEncoder(w).Encode(open)
		case r.Method == http.MethodPost && path == mrs:
			mr := decodeBody(r)
			n := len(f.prs) + 1
			mr["iid"], mr["web_url"] = n, fmt.Sprintf("https://gitlab.com/acme/group/widgets/-/merge_requests/%d", n)
			f.prs = append(f.prs, mr)
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(mr)
		case r.Method == http.MethodPut && path == mrs+"/1":
			for k, v := range decodeBody(r) {
				f.prs[0][k] = v
			}
			json.NewEncoder(w).Encode(f.prs[0])
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"404 Project Not Found"}`)
		}
	})
}

func TestOpenPR(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		forge     string
		url       string
		handler   func(f *fakeForge) http.Handler
		apiSuffix string
		bodyKey   string
		wantURL   string
		wantCalls string
	}{
		{"github", ForgeGitHub, "git@github.com:acme/widgets.git", (*fakeForge).github, "", "body",
			"https://github.com/acme/widgets/pull/1",
			"GET /repos/acme/widgets/pulls,POST /repos/acme/widgets/pulls,GET /repos/acme/widgets/pulls,PATCH /repos/acme/widgets/pulls/1"},
		{"gitlab", ForgeGitLab, "https://gitlab.com/acme/group/widgets.git", (*fakeForge).gitlab, "/api/v4", "description",
			"https://gitlab.com/acme/group/widgets/-/merge_requests/1",
			"GET /api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests,POST /api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests," +
				"GET /api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests,PUT /api/v4/projects/acme%2Fgroup%2Fwidgets/merge_requests/1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeForge{}
			srv := httptest.NewServer(tt.handler(f))
			defer srv.Close()
			m := newTestManager(t, Options{HTTPClient: srv.Client()}, Repo{
				Name: "widgets", URL: tt.url, Token: testToken, Forge: tt.forge, ForgeAPIURL: srv.URL + tt.apiSuffix,
			})
			ws := &Workspace{ID: "abc", ThreadID: "t", Repo: "widgets", Branch: "reasonix/abc", Base: "main"}
			ctx := context.Background()
			first, err := m.OpenPR(ctx, ws, "Fix the flaky test", "first body")
			if err != nil {
				t.Fatalf("first OpenPR: %v", err)
			}
			second, err := m.OpenPR(ctx, ws, "Fix the flaky test, take 2", "second body")
			if err != nil {
				t.Fatalf("second OpenPR: %v", err)
			}
			if first != tt.wantURL || second != tt.wantURL {
				t.Errorf("urls: got %v and %v, want %v twice", first, second, tt.wantURL)
			}
			if got := strings.Join(f.calls, ","); got != tt.wantCalls {
				t.Errorf("calls: got %v, want %v", got, tt.wantCalls)
			}
			if len(f.prs) != 1 || f.prs[0]["title"] != "Fix the flaky test, take 2" || f.prs[0][tt.bodyKey] != "second body" {
				t.Errorf("stored: got %v, want one updated request", f.prs)
			}
		})
	}
}

func TestOpenPRErrors(t *testing.T) {
	t.Parallel()
	f := &fakeForge{}
	srv := httptest.NewServer(f.github())
	defer srv.Close()
	tests := []struct {
		name       string
		repo       Repo
		base       string
		wantStatus int
		wantText   string
		wantErr    error
	}{
		{"no forge", Repo{Forge: ForgeNone}, "main", 0, "", ErrNoForge},
		{"validation", Repo{Forge: ForgeGitHub, Token: testToken}, "nope", 422, "Validation Failed: base is invalid", nil},
		{"bad token echoed back", Repo{Forge: ForgeGitHub, Token: "wrong" + testToken}, "main", 401, "Bad credentials: Bearer [REDACTED]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.repo
			r.Name, r.URL, r.ForgeAPIURL = "widgets", "https://github.com/acme/widgets", srv.URL
			m := newTestManager(t, Options{HTTPClient: srv.Client()}, r)
			_, err := m.OpenPR(context.Background(), &Workspace{Repo: "widgets", Branch: "reasonix/x", Base: tt.base}, "t", "b")
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			var fe *ForgeError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *ForgeError", err)
			}
			if fe.Status != tt.wantStatus || fe.Message != tt.wantText {
				t.Errorf("got %d %q, want %d %q", fe.Status, fe.Message, tt.wantStatus, tt.wantText)
			}
		})
	}
}

func TestRepoPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, want string
	}{
		{"https://github.com/acme/widgets.git", "acme/widgets"},
		{"https://github.com/acme/widgets", "acme/widgets"},
		{"git@github.com:acme/widgets.git", "acme/widgets"},
		{"ssh://git@gitlab.example.com:2222/acme/group/widgets.git", "acme/group/widgets"},
		{"https://gitlab.com/acme/group/widgets/", "acme/group/widgets"},
		{"widgets", ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			got, err := repoPath(tt.url)
			if tt.want == "" {
				if err == nil {
					t.Errorf("got %q, want an error", got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v, want %q", got, err, tt.want)
			}
		})
	}
}
