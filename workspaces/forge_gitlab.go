package workspaces

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// defaultGitLabAPI is gitlab.com's REST base; self-hosted instances use
// https://HOST/api/v4 through Repo.ForgeAPIURL.
const defaultGitLabAPI = "https://gitlab.com/api/v4"

type gitlabMR struct {
	IID    int    `json:"iid"`
	WebURL string `json:"web_url"`
}

// gitlabMR opens or updates the merge request of ws's branch.
func (m *Manager) gitlabMR(ctx context.Context, r Repo, ws *Workspace, title, body string) (string, error) {
	path, err := repoPath(r.URL)
	if err != nil {
		return "", err
	}
	// The project id may be its URL-escaped full path ("group%2Fsub%2Fname").
	mrs := apiBase(r, defaultGitLabAPI) + "/projects/" + url.PathEscape(path) + "/merge_requests"
	header := func(h http.Header) {
		if r.Token != "" {
			h.Set("PRIVATE-TOKEN", r.Token)
		}
	}

	var open []gitlabMR
	q := url.Values{"source_branch": {ws.Branch}, "state": {"opened"}}
	if err := m.call(ctx, r, forgeRequest{method: http.MethodGet, url: mrs + "?" + q.Encode(), header: header, out: &open}); err != nil {
		return "", err
	}
	var mr gitlabMR
	if len(open) > 0 {
		update := map[string]string{"title": title, "description": body}
		err = m.call(ctx, r, forgeRequest{method: http.MethodPut, url: fmt.Sprintf("%s/%d", mrs, open[0].IID), header: header, in: update, out: &mr})
	} else {
		create := map[string]string{"title": title, "description": body, "source_branch": ws.Branch, "target_branch": ws.Base}
		err = m.call(ctx, r, forgeRequest{method: http.MethodPost, url: mrs, header: header, in: create, out: &mr})
	}
	if err != nil {
		return "", err
	}
	if mr.WebURL == "" {
		return "", fmt.Errorf("GitLab answered without a merge request URL")
	}
	return mr.WebURL, nil
}
