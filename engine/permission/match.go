package permission

import (
	"path"
	"path/filepath"
	"strings"
)

// matchCommand reports whether a Bash rule (not Bash=<literal>) covers the
// simple command c, for an allow: every word the rule names must be
// written plainly, with no expansion.
func (r rule) matchCommand(c command) bool {
	return r.matchWords(c.words, false)
}

// blocksCommand reports whether a deny or ask Bash rule applies to c. It
// errs towards matching: the program may be named by path (/bin/rm), and
// when c is indirect every word that could start a command is tried, so
// sudo rm, xargs rm and find -exec rm all meet a rule for rm. Shell code
// passed as a string (sh -c '...') is checked too, and so is quoted text
// bash may evaluate ('a[$(rm x)]') when the line is indirect.
func (r rule) blocksCommand(c command, indirect bool) bool {
	if r.form == bashAny {
		return true
	}
	if r.matchWords(c.words, true) {
		return true
	}
	if alt := withoutGlobalOptions(c.words); alt != nil && r.matchWords(alt, true) {
		return true
	}
	if indirect || c.indirect != "" {
		for i := range c.all {
			if !strings.HasPrefix(c.all[i].text, "-") && r.matchWords(c.all[i:], true) {
				return true
			}
		}
		for _, in := range c.payload {
			if r.blocksCommand(in, true) {
				return true
			}
		}
	}
	for _, in := range c.inline {
		if r.blocksCommand(in, true) {
			return true
		}
	}
	return false
}

// withoutGlobalOptions drops git's options before its subcommand, so a
// rule for "git push" meets "git -C dir --no-pager push". nil when there
// are none to drop.
func withoutGlobalOptions(ws []word) []word {
	if len(ws) < 2 || filepath.Base(ws[0].text) != "git" {
		return nil
	}
	i, _ := gitSubcommand(ws[1:])
	if i == 0 {
		return nil
	}
	return append([]word{ws[0]}, ws[1+i:]...)
}

// matchWords compares the rule's words with a command's. loose compares
// text only and accepts a path-qualified program (/usr/bin/rm for rm).
func (r rule) matchWords(ws []word, loose bool) bool {
	switch r.form {
	case bashAny:
		return true
	case bashPrefix:
		if len(ws) < len(r.words) {
			return false
		}
	case bashExact:
		if len(ws) != len(r.words) {
			return false
		}
	default:
		return false
	}
	for i, want := range r.words {
		w := ws[i]
		if !loose && w.dynamic {
			return false
		}
		got := w.text
		if loose && i == 0 && got != want {
			got = filepath.Base(got)
		}
		if got != want {
			return false
		}
	}
	if r.form == bashExact && !loose {
		for _, w := range ws {
			if w.dynamic {
				return false
			}
		}
	}
	return true
}

// filePath is a path argument relative to the workspace root.
type filePath struct {
	rel    string // slash-separated, "." for the root
	inside bool   // false when it leaves the workspace
}

// resolvePath makes a tool's path argument relative to root. An empty path
// means the root.
func resolvePath(root, p string) filePath {
	if p == "" {
		return filePath{rel: ".", inside: true}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if !within(root, p) {
		return filePath{rel: p}
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return filePath{rel: p}
	}
	return filePath{rel: filepath.ToSlash(rel), inside: true}
}

// matchPath reports whether an Edit or Read rule covers the path. A rule
// without a pattern covers every path; a pattern only paths inside the
// workspace.
func (r rule) matchPath(p filePath) bool {
	if r.glob == nil {
		return true
	}
	if !p.inside {
		return false
	}
	var segs []string
	if p.rel != "." {
		segs = strings.Split(p.rel, "/")
	}
	return globMatch(r.glob, segs)
}

// globMatch matches path segments: '**' spans any number of segments, the
// other pattern segments follow path.Match.
func globMatch(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globMatch(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// escapeGlob quotes the pattern characters of a literal path so an
// Edit(<path>) grant covers exactly that path.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
