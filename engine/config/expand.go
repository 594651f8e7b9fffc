package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// expandEnv replaces ${VAR} with the value of the environment variable VAR
// and ${VAR:-text} with that value or, when VAR is unset or empty, text.
// A ${VAR} whose variable is unset is an error rather than an empty string:
// a silently empty URL or directory is harder to diagnose than a message
// naming the variable. A '$' not followed by '{' is kept as written.
func expandEnv(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		start := strings.Index(s, "${")
		if start < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:start])
		end := strings.IndexByte(s[start:], '}')
		if end < 0 {
			return "", fmt.Errorf("unterminated %q; write ${NAME} or ${NAME:-default}", s[start:])
		}
		expr := s[start+2 : start+end]
		s = s[start+end+1:]
		name, fallback, hasDefault := strings.Cut(expr, ":-")
		if !validEnvName(name) {
			return "", fmt.Errorf("%q is not a valid variable name in ${%s}; use letters, digits and '_'", name, expr)
		}
		val, set := os.LookupEnv(name)
		switch {
		case hasDefault && val == "":
			val = fallback
		case !set:
			return "", fmt.Errorf("environment variable %s is not set; export it or write ${%s:-default}", name, name)
		}
		b.WriteString(val)
	}
}

func validEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expandHome turns a leading "~" or "~/" into the user's home directory.
// Other uses of '~' ("~bob/x", "a/~/b") are kept as written.
func expandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("cannot expand ~ because $HOME is not set; set HOME or write an absolute path")
	}
	return filepath.Join(home, path[1:]), nil
}

// expandStrings applies ${VAR} expansion to the string values that hold
// URLs and paths, and ~ expansion to the path values. Other strings
// (commands, permission rules, env var names) are kept verbatim, because
// shells and rule matchers give '$' and '~' their own meaning.
func expandStrings(c *Config) *problem {
	type field struct {
		p    keyPath
		v    *string
		path bool
	}
	var fields []field
	for i := range c.Providers {
		fields = append(fields, field{keyPath{"providers"}.index(i).key("base_url"), &c.Providers[i].BaseURL, false})
	}
	fields = append(fields,
		field{keyPath{"agent", "transcript_dir"}, &c.Agent.TranscriptDir, true},
		field{keyPath{"workspaces", "dir"}, &c.Workspaces.Dir, true},
		field{keyPath{"store", "dir"}, &c.Store.Dir, true},
		field{keyPath{"store", "url"}, &c.Store.URL, false},
		field{keyPath{"slack", "api_url"}, &c.Slack.APIURL, false})
	for i := range c.Sandbox.AllowWrite {
		fields = append(fields, field{keyPath{"sandbox", "allow_write"}.index(i), &c.Sandbox.AllowWrite[i], true})
	}
	for i := range c.Sandbox.ForbidRead {
		fields = append(fields, field{keyPath{"sandbox", "forbid_read"}.index(i), &c.Sandbox.ForbidRead[i], true})
	}
	for i := range c.Repos {
		r := keyPath{"repos"}.index(i)
		fields = append(fields,
			field{r.key("url"), &c.Repos[i].URL, false},
			field{r.key("forge_api_url"), &c.Repos[i].ForgeAPIURL, false})
	}
	for _, f := range fields {
		v, err := expandEnv(*f.v)
		if err == nil && f.path {
			v, err = expandHome(v)
		}
		if err != nil {
			return &problem{path: f.p, msg: err.Error()}
		}
		*f.v = v
	}
	return nil
}
