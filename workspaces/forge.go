package workspaces

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxForgeBody bounds how much of a forge answer is read.
const maxForgeBody = 1 << 20

// OpenPR opens a pull request (GitHub) or merge request (GitLab) from the
// thread branch into the branch the workspace started from, or updates the
// title and body of the one already open for the branch, and returns its
// web URL. Push the branch first. A repo with forge = none returns
// ErrNoForge; an error answer from the API is a *ForgeError.
func (m *Manager) OpenPR(ctx context.Context, ws *Workspace, title, body string) (string, error) {
	r, err := m.repo(ws.Repo)
	if err != nil {
		return "", err
	}
	var link string
	switch r.Forge {
	case ForgeGitHub:
		link, err = m.githubPR(ctx, r, ws, title, body)
	case ForgeGitLab:
		link, err = m.gitlabMR(ctx, r, ws, title, body)
	default:
		return "", ErrNoForge
	}
	if err != nil {
		return "", err
	}
	m.log.Info("workspaces: pull request ready", "repo", r.Name, "thread", ws.ThreadID, "branch", ws.Branch, "url", link)
	return link, nil
}

// repoPath returns the "owner/name" (or "group/sub/name") part of a remote
// URL, for https, ssh:// and scp-like (git@host:owner/name.git) forms.
func repoPath(remote string) (string, error) {
	var path string
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.Host != "" {
		path = u.Path
	} else if at := strings.Index(remote, ":"); at > 0 && !strings.Contains(remote[:at], "/") {
		path = remote[at+1:]
	} else {
		return "", fmt.Errorf("cannot tell the forge project from repo url %q", remote)
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	if !strings.Contains(path, "/") {
		return "", fmt.Errorf("repo url %q does not name an owner and a repository", remote)
	}
	return path, nil
}

// forgeRequest is one REST call to a forge.
type forgeRequest struct {
	method string
	url    string
	header func(h http.Header) // sets the forge's headers, the token among them
	in     any                 // JSON body, or nil
	out    any                 // decoded from a 2xx answer
}

// call performs req. An answer outside 2xx is a *ForgeError; nothing the
// caller sees contains r's token.
func (m *Manager) call(ctx context.Context, r Repo, req forgeRequest) error {
	var body io.Reader
	if req.in != nil {
		b, err := json.Marshal(req.in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, req.url, body)
	if err != nil {
		return fmt.Errorf("forge request: %w", scrubErr(err, r.Token))
	}
	if req.in != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	req.header(hr.Header)
	resp, err := m.http.Do(hr)
	if err != nil {
		return fmt.Errorf("forge %s %s: %w", req.method, hr.URL.Redacted(), scrubErr(err, r.Token))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxForgeBody))
	if err != nil {
		return fmt.Errorf("forge %s %s: %w", req.method, hr.URL.Redacted(), scrubErr(err, r.Token))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &ForgeError{Status: resp.StatusCode, Message: scrub(forgeMessage(raw), r.Token)}
	}
	if req.out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, req.out); err != nil {
		return fmt.Errorf("forge %s %s: unexpected answer: %w", req.method, hr.URL.Redacted(), err)
	}
	return nil
}

// forgeMessage extracts the human part of an error answer: GitHub's
// "message" plus its "errors" details, GitLab's "message" (a string, a list
// or a map of field errors) or "error", else the start of the body.
func forgeMessage(raw []byte) string {
	var v struct {
		Message json.RawMessage `json:"message"`
		Error   string          `json:"error"`
		Errors  []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(raw, &v) != nil || (len(v.Message) == 0 && v.Error == "") {
		return tail(strings.TrimSpace(string(raw)), 500)
	}
	parts := []string{}
	var s string
	if json.Unmarshal(v.Message, &s) == nil {
		parts = append(parts, s)
	} else if len(v.Message) > 0 {
		parts = append(parts, string(v.Message))
	}
	if v.Error != "" {
		parts = append(parts, v.Error)
	}
	for _, e := range v.Errors {
		if e.Message != "" {
			parts = append(parts, e.Message)
		}
	}
	return strings.Join(parts, ": ")
}

// apiBase is the repo's forge API URL without a trailing slash.
func apiBase(r Repo, fallback string) string {
	if r.ForgeAPIURL != "" {
		return strings.TrimRight(r.ForgeAPIURL, "/")
	}
	return fallback
}
