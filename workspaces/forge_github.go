package workspaces

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// defaultGitHubAPI is GitHub's REST base; GitHub Enterprise servers use
// https://HOST/api/v3 through Repo.ForgeAPIURL.
const defaultGitHubAPI = "https://api.github.com"

type githubPull struct {
	Number  int    `json:"number"`
	HTMLURL string `json:"html_url"`
}

// githubPR opens or updates the pull request of ws's branch.
func (m *Manager) githubPR(ctx context.Context, r Repo, ws *Workspace, title, body string) (string, error) {
	path, err := repoPath(r.URL)
	if err != nil {
		return "", err
	}
	owner, name, ok := strings.Cut(path, "/")
	if !ok || strings.Contains(name, "/") {
		return "", fmt.Errorf("repo url %q is not a GitHub owner/repository", r.URL)
	}
	pulls := apiBase(r, defaultGitHubAPI) + "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(name) + "/pulls"
	header := func(h http.Header) {
		h.Set("Accept", "application/vnd.github+json")
		h.Set("X-GitHub-Api-Version", "2022-11-28")
		if r.Token != "" {
			h.Set("Authorization", "Bearer "+r.Token)
		}
	}

	var open []githubPull
	q := url.Values{"head": {owner + ":" + ws.Branch}, "state": {"open"}}
	if err := m.call(ctx, r, forgeRequest{method: http.MethodGet, url: pulls + "?" + q.Encode(), header: header, out: &open}); err != nil {
		return "", err
	}
	var pr githubPull
	if len(open) > 0 {
		update := map[string]string{"title": title, "body": body}
		err = m.call(ctx, r, forgeRequest{method: http.MethodPatch, url: fmt.Sprintf("%s/%d", pulls, open[0].Number), header: header, in: update, out: &pr})
	} else {
		create := map[string]string{"title": title, "body": body, "head": ws.Branch, "base": ws.Base}
		err = m.call(ctx, r, forgeRequest{method: http.MethodPost, url: pulls, header: header, in: create, out: &pr})
	}
	if err != nil {
		return "", err
	}
	if pr.HTMLURL == "" {
		return "", fmt.Errorf("GitHub answered without a pull request URL")
	}
	return pr.HTMLURL, nil
}
