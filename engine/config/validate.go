package config

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/reasonix/teams/engine/provider"
)

// validate checks the decoded, defaulted and expanded config and returns
// its first problem, or nil.
func validate(c *Config) *problem {
	for _, check := range []func(*Config) *problem{validateProviders, validateDefaultModel, validateAgent, validatePolicy, validateRepos, validateWorkspaces, validateBot, validateAccess, validateSlack} {
		if err := check(c); err != nil {
			return err
		}
	}
	return nil
}

func errAt(p keyPath, format string, args ...any) *problem {
	return &problem{path: p, msg: fmt.Sprintf(format, args...)}
}

// knownKinds is provider.Kinds(), or just "openai" when no kind has
// registered yet: config must not import the kinds' packages, and a binary
// or test that has not linked them still needs the default to validate.
func knownKinds() []string { return kindsOrDefault(provider.Kinds()) }

func kindsOrDefault(registered []string) []string {
	if len(registered) > 0 {
		return registered
	}
	return []string{DefaultKind}
}

func validateProviders(c *Config) *problem {
	if len(c.Providers) == 0 {
		return errAt(keyPath{"providers"}, "no provider is declared; add a [[providers]] entry or remove the empty list to get the DeepSeek default")
	}
	seen := map[string]int{}
	for i := range c.Providers {
		if err := validateProvider(&c.Providers[i], keyPath{"providers"}.index(i)); err != nil {
			return err
		}
		name := c.Providers[i].Name
		if j, dup := seen[name]; dup {
			return errAt(keyPath{"providers"}.index(i).key("name"), "provider name %q is already used by providers[%d]; names must be unique", name, j)
		}
		seen[name] = i
	}
	return nil
}

func validateProvider(pr *Provider, p keyPath) *problem {
	switch {
	case pr.Name == "":
		return errAt(p.key("name"), `is required; name the provider, for example name = "deepseek"`)
	case strings.ContainsAny(pr.Name, "/ \t"):
		return errAt(p.key("name"), `%q must not contain '/' or spaces; it is used in "provider/model" references`, pr.Name)
	}
	if kinds := knownKinds(); !slices.Contains(kinds, pr.Kind) {
		return errAt(p.key("kind"), "unknown kind %q; use %s", pr.Kind, oneOf(kinds))
	}
	if msg := checkHTTPURL(pr.BaseURL); msg != "" {
		return errAt(p.key("base_url"), "%s", msg)
	}
	switch {
	case pr.Model == "" && len(pr.Models) == 0:
		return errAt(p.key("models"), `no model is declared; set model = "NAME" or models = ["NAME", ...]`)
	case pr.Model != "" && len(pr.Models) > 0:
		return errAt(p.key("model"), "is set together with models; keep one of them")
	}
	for j, m := range pr.Models {
		if m == "" {
			return errAt(p.key("models").index(j), "is empty; write the model's name")
		}
		if slices.Index(pr.Models, m) < j {
			return errAt(p.key("models").index(j), "model %q is listed twice", m)
		}
	}
	models := pr.ModelList()
	if !slices.Contains(models, pr.Default) {
		return errAt(p.key("default"), "%q is not one of this provider's models; use %s", pr.Default, oneOf(models))
	}
	if pr.APIKeyEnv != "" && !validEnvName(pr.APIKeyEnv) {
		return errAt(p.key("api_key_env"), "%q is not an environment variable name; write the variable's name, not the key itself", pr.APIKeyEnv)
	}
	switch {
	case pr.ContextWindow < 0:
		return errAt(p.key("context_window"), "%d is negative; give the model's context size in tokens, or 0 if unknown", pr.ContextWindow)
	case pr.MaxOutputTokens < 0:
		return errAt(p.key("max_output_tokens"), "%d is negative; use 0 to let the provider decide", pr.MaxOutputTokens)
	case pr.MaxAttempts < 1:
		return errAt(p.key("max_attempts"), "%d must be at least 1 (1 means no retries)", pr.MaxAttempts)
	case pr.IdleTimeout.Duration <= 0:
		return errAt(p.key("idle_timeout"), `must be greater than 0, like "300s"`)
	}
	for _, m := range sortedKeys(pr.Prices) {
		if !slices.Contains(models, m) {
			return errAt(p.key("prices").key(m), "%q is not one of this provider's models; use %s", m, oneOf(models))
		}
		pp := pr.Prices[m]
		if pp.CacheHit < 0 || pp.CacheMiss < 0 || pp.Output < 0 {
			return errAt(p.key("prices").key(m), "prices cannot be negative; give USD per million tokens")
		}
	}
	return nil
}

func validateDefaultModel(c *Config) *problem {
	if _, _, err := c.lookupModel(c.DefaultModel); err != nil {
		return errAt(keyPath{"default_model"}, "%s", err)
	}
	return nil
}

func validateAgent(c *Config) *problem {
	a, p := c.Agent, keyPath{"agent"}
	switch {
	case a.MaxSteps < 1:
		return errAt(p.key("max_steps"), "%d must be at least 1", a.MaxSteps)
	case a.BashTimeout.Duration <= 0:
		return errAt(p.key("bash_timeout"), `must be greater than 0, like "120s"`)
	case !(a.CompactRatio > 0 && a.CompactRatio < 1):
		return errAt(p.key("compact_ratio"), "%v must be between 0 and 1 (exclusive), like 0.9", a.CompactRatio)
	case a.ParallelReads < 1:
		return errAt(p.key("parallel_reads"), "%d must be at least 1 (1 runs reads one at a time)", a.ParallelReads)
	case a.TranscriptDir == "":
		return errAt(p.key("transcript_dir"), "is empty; give a directory for session transcripts")
	}
	return nil
}

func validatePolicy(c *Config) *problem {
	if modes := []string{"ask", "allow", "deny"}; !slices.Contains(modes, c.Permissions.Mode) {
		return errAt(keyPath{"permissions", "mode"}, "unknown mode %q; use %s", c.Permissions.Mode, oneOf(modes))
	}
	for _, list := range []struct {
		name  string
		rules []string
	}{{"allow", c.Permissions.Allow}, {"ask", c.Permissions.Ask}, {"deny", c.Permissions.Deny}} {
		for i, r := range list.rules {
			if strings.TrimSpace(r) == "" {
				return errAt(keyPath{"permissions", list.name}.index(i), "is an empty rule; remove it")
			}
		}
	}
	if modes := []string{"enforce", "off"}; !slices.Contains(modes, c.Sandbox.Bash) {
		return errAt(keyPath{"sandbox", "bash"}, "unknown value %q; use %s", c.Sandbox.Bash, oneOf(modes))
	}
	for _, list := range []struct {
		name  string
		paths []string
	}{{"allow_write", c.Sandbox.AllowWrite}, {"forbid_read", c.Sandbox.ForbidRead}} {
		for i, path := range list.paths {
			if path == "" {
				return errAt(keyPath{"sandbox", list.name}.index(i), "is an empty path; remove it")
			}
		}
	}
	return nil
}

func validateRepos(c *Config) *problem {
	seen := map[string]int{}
	for i, r := range c.Repos {
		p := keyPath{"repos"}.index(i)
		switch {
		case r.Name == "":
			return errAt(p.key("name"), `is required; name the repo, for example name = "backend"`)
		case !validRepoName(r.Name):
			return errAt(p.key("name"), "%q may only use letters, digits, '.', '_' and '-', and must not start with '.' or '-'", r.Name)
		}
		if j, dup := seen[r.Name]; dup {
			return errAt(p.key("name"), "repo name %q is already used by repos[%d]; names must be unique", r.Name, j)
		}
		seen[r.Name] = i
		if msg := checkRepoURL(r.URL); msg != "" {
			return errAt(p.key("url"), "%s", msg)
		}
		if forges := []string{ForgeGitHub, ForgeGitLab, ForgeNone}; !slices.Contains(forges, r.Forge) {
			return errAt(p.key("forge"), "unknown forge %q; use %s", r.Forge, oneOf(forges))
		}
		if r.ForgeAPIURL != "" {
			if msg := checkHTTPURL(r.ForgeAPIURL); msg != "" {
				return errAt(p.key("forge_api_url"), "%s", msg)
			}
		}
		if r.TokenEnv != "" && !validEnvName(r.TokenEnv) {
			return errAt(p.key("token_env"), "%q is not an environment variable name; write the variable's name, not the token itself", r.TokenEnv)
		}
	}
	return nil
}

func validateWorkspaces(c *Config) *problem {
	// ttl and fetch_interval may be 0: the workspaces manager reads 0 as
	// "no idle limit" and "fetch before every new worktree".
	if c.Workspaces.Dir == "" {
		return errAt(keyPath{"workspaces", "dir"}, "is empty; give a directory for working copies")
	}
	return nil
}

// checkHTTPURL says what is wrong with an http(s) URL, or "".
func checkHTTPURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return "is required; give an http:// or https:// URL"
	case err != nil || (u.Scheme != "http" && u.Scheme != "https"):
		return fmt.Sprintf("%q is not an http:// or https:// URL", raw)
	case u.Host == "":
		return fmt.Sprintf("%q has no host", raw)
	}
	return ""
}

// oneOf spells a list of allowed values: "a" or one of "a", "b".
func oneOf(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = quote(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return "one of " + strings.Join(q, ", ")
}

func quote(s string) string { return strconv.Quote(s) }

func validateBot(c *Config) *problem {
	b := c.Bot
	switch {
	case b.MaxConcurrentTurns < 1:
		return errAt(keyPath{"bot", "max_concurrent_turns"}, "must be at least 1")
	case b.EditInterval.Duration <= 0:
		return errAt(keyPath{"bot", "edit_interval"}, "must be positive, e.g. \"1s\"")
	case b.ApprovalTimeout.Duration <= 0:
		return errAt(keyPath{"bot", "approval_timeout"}, "must be positive, e.g. \"30m\"")
	case b.ShutdownGrace.Duration <= 0:
		return errAt(keyPath{"bot", "shutdown_grace"}, "must be positive, e.g. \"20s\"")
	case !slices.Contains([]string{"ask", "auto", "yolo"}, b.Posture):
		return errAt(keyPath{"bot", "posture"}, "must be %s, not %s", oneOf([]string{"ask", "auto", "yolo"}), quote(b.Posture))
	}
	if c.Store.URL == "" && c.Store.Dir == "" {
		return errAt(keyPath{"store", "dir"}, "is empty; give a directory for the embedded state store, or set [store] url")
	}
	if c.Store.CredsEnv != "" && !validEnvName(c.Store.CredsEnv) {
		return errAt(keyPath{"store", "creds_env"}, "%s is not an environment variable name", quote(c.Store.CredsEnv))
	}
	if c.Store.URL != "" && !strings.HasPrefix(c.Store.URL, "nats://") && !strings.HasPrefix(c.Store.URL, "tls://") {
		return errAt(keyPath{"store", "url"}, "must be a nats:// or tls:// URL, not %s", quote(c.Store.URL))
	}
	return nil
}

// validateAccess checks that every entry is "platform:id".
func validateAccess(c *Config) *problem {
	lists := []struct {
		key  string
		vals []string
	}{{"users", c.Access.Users}, {"channels", c.Access.Channels}, {"approvers", c.Access.Approvers}, {"admins", c.Access.Admins}}
	for _, l := range lists {
		for i, v := range l.vals {
			platform, id, ok := strings.Cut(v, ":")
			if !ok || platform == "" || id == "" || strings.ContainsAny(v, " \t") {
				return errAt(keyPath{"access", l.key}.index(i), "%s is not platform:id; write it like \"slack:U0123ABCD\"", quote(v))
			}
		}
	}
	return nil
}

func validateSlack(c *Config) *problem {
	s := c.Slack
	if s.Mode != "socket" && s.Mode != "http" {
		return errAt(keyPath{"slack", "mode"}, "must be %s, not %s", oneOf([]string{"socket", "http"}), quote(s.Mode))
	}
	if msg := checkHTTPURL(s.APIURL); msg != "" {
		return errAt(keyPath{"slack", "api_url"}, "%s", msg)
	}
	for i, ch := range s.Channels {
		p := keyPath{"slack", "channels"}.index(i)
		if ch.ID == "" {
			return errAt(p.key("id"), "is required: the channel id, like \"C0123ABCD\"")
		}
		if _, ok := c.Repo(ch.Repo); !ok {
			return errAt(p.key("repo"), "names no [[repos]] entry: %s", quote(ch.Repo))
		}
	}
	return nil
}
