package builtin

import (
	"errors"
	"path"
	"strings"
)

// maxGlobAlternatives bounds brace expansion ({a,b}{c,d} multiplies).
const maxGlobAlternatives = 256

// globMatcher matches slash-separated relative paths against a pattern in
// which ** stands for any number of directories, {a,b} for alternatives,
// and *, ?, [...] work within one path element as in path.Match (a leading
// dot needs no special match). A trailing ** needs at least one element.
type globMatcher struct {
	alternatives [][]string // each split into path elements
}

// compileGlob parses a pattern. Absolute patterns and ".." are refused:
// patterns are relative to the directory searched.
func compileGlob(pattern string) (*globMatcher, error) {
	if pattern == "" {
		return nil, errors.New("empty glob pattern")
	}
	if strings.HasPrefix(pattern, "/") {
		return nil, errors.New("glob pattern must be relative; pass the directory as path")
	}
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	m := &globMatcher{}
	for _, alt := range alts {
		var elems []string
		for _, e := range strings.Split(alt, "/") {
			switch {
			case e == "" || e == ".":
				continue
			case e == "..":
				return nil, errors.New("glob pattern must not contain a \"..\" element")
			case e == "**":
				if len(elems) > 0 && elems[len(elems)-1] == "**" {
					continue // a/**/**/b is a/**/b
				}
			default:
				if _, err := path.Match(e, ""); err != nil {
					return nil, errors.New("malformed glob pattern " + pattern)
				}
			}
			elems = append(elems, e)
		}
		m.alternatives = append(m.alternatives, elems)
	}
	return m, nil
}

// Match reports whether the slash-separated relative path rel matches.
func (m *globMatcher) Match(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, alt := range m.alternatives {
		if matchElems(alt, parts) {
			return true
		}
	}
	return false
}

func matchElems(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				// A trailing ** stands for what is inside, as in
				// gitignore: "dir/**" does not match "dir".
				return len(parts) > 0
			}
			for i := 0; i <= len(parts); i++ {
				if matchElems(rest, parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], parts[0]); !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// expandBraces turns "a{b,c}d" into ["abd", "acd"], recursively. A brace
// without its pair is kept literally; a backslash escapes the next byte.
func expandBraces(s string) ([]string, error) {
	open, close, commas := -1, -1, []int(nil)
	depth := 0
scan:
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
				commas = commas[:0]
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				close = i
				break scan
			}
		}
	}
	if open < 0 || close < 0 {
		return []string{s}, nil
	}
	prefix, suffix := s[:open], s[close+1:]
	var choices []string
	start := open + 1
	for _, c := range append(commas, close) {
		choices = append(choices, s[start:c])
		start = c + 1
	}
	rest, err := expandBraces(suffix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range choices {
		inner, err := expandBraces(c)
		if err != nil {
			return nil, err
		}
		for _, in := range inner {
			for _, r := range rest {
				out = append(out, prefix+in+r)
				if len(out) > maxGlobAlternatives {
					return nil, errors.New("glob pattern expands to too many alternatives")
				}
			}
		}
	}
	return out, nil
}
