package permission

import (
	"path/filepath"
	"strings"
)

// maxGlobMatches bounds the expansion done at check time; a pattern that
// matches more stays unresolved (and the call asks).
const maxGlobMatches = 10000

// defuseGlobs looks at what an argument pattern that starts with a
// wildcard (`*.go`, `?x`, `[ab]*`) would match in the directory the
// command runs in. A pattern whose matches cannot start with "-" cannot
// turn into an option, so it is passed on as a plain operand; any other
// pattern keeps its mark and the classifier refuses it.
//
// Go's filepath.Match is a superset of bash's pathname expansion here (its
// "*" also matches names starting with "."), so "no match starts with -"
// holds for bash too. Brace expansion can make option-like words out of
// the pattern itself, so words with "{" are never defused; neither is
// anything after a cd, whose directory is not known.
func (a *analyzer) defuseGlobs(args []word) []word {
	if a.cwdMoved || a.root == "" {
		return args
	}
	var out []word
	for i, w := range args {
		if !w.glob || w.dynamic || !leadingWildcard(w.text) || strings.Contains(w.text, "{") || !a.safePattern(w.text) {
			continue
		}
		if out == nil {
			out = append([]word(nil), args...)
		}
		out[i].glob = false
	}
	if out == nil {
		return args
	}
	return out
}

// safePattern reports that no match of pattern, relative to the root,
// starts with "-".
func (a *analyzer) safePattern(pattern string) bool {
	if filepath.IsAbs(pattern) {
		return false
	}
	matches, err := filepath.Glob(filepath.Join(a.root, pattern))
	if err != nil || len(matches) > maxGlobMatches {
		return false
	}
	for _, m := range matches {
		rel, err := filepath.Rel(a.root, m)
		if err != nil || strings.HasPrefix(rel, "-") {
			return false
		}
	}
	return true
}
