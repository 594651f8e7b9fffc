package workspaces

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"
)

// maxErrText bounds the stderr or command output kept in an error.
const maxErrText = 4096

// inheritedGitVars are dropped from the environment so a git command run by
// the manager never acts on some other repository the process was started in.
var inheritedGitVars = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_COMMON_DIR", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
	"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
}

// git runs the git CLI in dir for repository r and returns its stdout.
// The token, if any, travels in an http.extraHeader set through
// GIT_CONFIG_* environment variables: never in argv, a URL or a file.
func (m *Manager) git(ctx context.Context, r Repo, dir string, args ...string) ([]byte, error) {
	return m.gitWithEnv(ctx, r, dir, nil, args...)
}

// gitWithEnv is git with extra environment variables.
func (m *Manager) gitWithEnv(ctx context.Context, r Repo, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.WaitDelay = pipeWaitDelay
	cmd.Env = append(gitEnviron(r), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	m.log.Debug("git", "repo", r.Name, "args", strings.Join(args, " "), "took", time.Since(start), "ok", err == nil)
	if err != nil {
		return stdout.Bytes(), &GitError{
			Args:   args,
			Stderr: tail(scrub(stderr.String(), r.Token), maxErrText),
			Err:    err,
		}
	}
	return stdout.Bytes(), nil
}

// gitEnviron is the process environment made safe for git: no inherited
// repository pointers, no interactive prompts, English messages (stderr is
// classified by text) and, for http(s) remotes with a token, the auth header.
func gitEnviron(r Repo) []string {
	env := make([]string, 0, len(os.Environ())+8)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if isInheritedGitVar(name) {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "LANGUAGE=C", "GCM_INTERACTIVE=never")
	if r.Token != "" && isHTTPURL(r.URL) {
		env = append(env,
			"GIT_CONFIG_COUNT=1",
			"GIT_CONFIG_KEY_0=http.extraHeader",
			"GIT_CONFIG_VALUE_0=Authorization: Basic "+basicCredential(r.Token),
		)
	}
	return env
}

func isInheritedGitVar(name string) bool {
	for _, v := range inheritedGitVars {
		if name == v {
			return true
		}
	}
	return strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// basicCredential is the base64 user:password pair forges accept for a token.
func basicCredential(token string) string {
	return base64.StdEncoding.EncodeToString([]byte(tokenUser + ":" + token))
}

// tokenUser is the user name sent with a token; GitHub requires this one
// and GitLab accepts any.
const tokenUser = "x-access-token"

// isHTTPURL reports whether u is an http or https remote.
func isHTTPURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "https" || p.Scheme == "http")
}

// scrub removes every form of token that could reach a message: the token
// itself, its URL-escaped form, and the base64 credential built from it.
func scrub(s, token string) string {
	if token == "" {
		return s
	}
	for _, secret := range []string{basicCredential(token), token, url.QueryEscape(token), url.PathEscape(token)} {
		s = strings.ReplaceAll(s, secret, "[REDACTED]")
	}
	return s
}

// tail keeps the last n bytes of s, marking the cut.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
