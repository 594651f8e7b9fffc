package config

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// Forges a repo can open pull requests on.
const (
	ForgeGitHub = "github"
	ForgeGitLab = "gitlab"
	ForgeNone   = "none"
)

// Repo returns the [[repos]] entry called name.
func (c *Config) Repo(name string) (Repo, bool) {
	for _, r := range c.Repos {
		if r.Name == name {
			return r, true
		}
	}
	return Repo{}, false
}

// scpLike matches git's scp-style remote, user@host:path.
var scpLike = regexp.MustCompile(`^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(.+)$`)

// repoHost returns the lower-cased host of a clone URL, "" when it has none
// (a file:// URL or a local path) or the URL is not one of the accepted
// forms.
func repoHost(raw string) string {
	if m := scpLike.FindStringSubmatch(raw); m != nil {
		return strings.ToLower(m[1])
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// forgeFor guesses the forge from a clone URL's host.
func forgeFor(raw string) string {
	switch strings.TrimPrefix(repoHost(raw), "www.") {
	case "github.com":
		return ForgeGitHub
	case "gitlab.com":
		return ForgeGitLab
	}
	return ForgeNone
}

// checkRepoURL says what is wrong with a clone URL, or "" when it is one of
// the accepted forms: https://, http://, ssh://, git@host:path, file:// or
// an absolute path.
func checkRepoURL(raw string) string {
	const use = "; use https://host/path, ssh://host/path, git@host:path, file:///path or an absolute path"
	if raw == "" {
		return "is required" + use
	}
	if scpLike.MatchString(raw) || filepath.IsAbs(raw) {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "is not a clone URL" + use
	}
	switch u.Scheme {
	case "https", "http", "ssh":
		if u.Host == "" {
			return "has no host" + use
		}
	case "file":
		if u.Path == "" {
			return "has no path" + use
		}
	default:
		return "uses scheme " + quote(u.Scheme) + use
	}
	return ""
}

// validRepoName reports whether a repo name is safe as a directory name and
// a word in chat (repo=NAME): letters, digits, '.', '_' and '-', not
// starting with '.' or '-'.
var validRepoName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`).MatchString
