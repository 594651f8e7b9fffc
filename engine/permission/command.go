package permission

import (
	"path/filepath"
	"strings"
)

// command is one segment read for the policy: what runs, with what, and
// what it can reach.
type command struct {
	// words are the program and its arguments, without leading variable
	// assignments, shell keywords and redirections.
	words []word
	// all is every word of the segment, for deny matching that must see
	// through wrappers and keywords.
	all []word
	// indirect says why the command runs code that is not visible in its
	// own words ("eval", "sh -c", ...); "" when it does not.
	indirect string
	// inline holds shell code passed as a string (sh -c '...', eval '...'),
	// split so deny rules can be applied to it.
	inline []command
	// payload holds the commands in quoted text that bash may still
	// evaluate, such as the arithmetic operand 'a[$(curl x)]'. Deny and ask
	// rules look at them when the line runs code indirectly.
	payload  []command
	readOnly bool
	writes   bool   // redirects output to a file
	escapes  string // an output target outside the workspace (or unknown)
	cd       bool   // cd, pushd or popd: later relative paths are unknown
}

// program is the command name as written, "" when there is none.
func (c command) program() string {
	if len(c.words) == 0 {
		return ""
	}
	return c.words[0].text
}

// keywords the splitter leaves at the start of a simple command. Those that
// open a control structure make the command indirect: its body is not a
// plain sequence of commands any more.
var (
	passKeywords    = map[string]bool{"!": true, "{": true, "}": true, "time": true, "then": true, "do": true, "else": true, "fi": true, "done": true, "esac": true}
	controlKeywords = map[string]bool{"if": true, "elif": true, "while": true, "until": true, "for": true, "select": true, "case": true, "function": true, "coproc": true}
)

// riskyVariables change which program runs or what it loads; setting one
// in front of a command (or on its own) makes the line indirect.
var riskyVariables = map[string]bool{
	"PATH": true, "BASH_ENV": true, "ENV": true, "IFS": true, "PROMPT_COMMAND": true,
	"SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "CDPATH": true,
	"GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true,
	"PAGER": true, "GIT_EDITOR": true, "EDITOR": true, "VISUAL": true, "GIT_EXEC_PATH": true,
	"GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	"NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "PERL5OPT": true,
	"PERL5LIB": true, "RUBYOPT": true, "GOFLAGS": true, "GOTOOLCHAIN": true, "CC": true, "CXX": true,
}

func riskyVariable(name string) bool {
	return riskyVariables[name] || strings.HasPrefix(name, "LD_") ||
		strings.HasPrefix(name, "DYLD_") || strings.HasPrefix(name, "GIT_CONFIG")
}

// analyzer turns segments into commands. It carries what earlier segments
// changed: a cd makes later relative redirect targets unknown.
type analyzer struct {
	root     string
	cwdMoved bool
	depth    int
}

// commands analyses every segment of a split line, in order.
func (a *analyzer) commands(s *script) []command {
	out := make([]command, 0, len(s.segments))
	for _, seg := range s.segments {
		c := a.command(seg)
		if c.cd {
			a.cwdMoved = true
		}
		out = append(out, c)
	}
	return out
}

// command analyses one segment.
func (a *analyzer) command(seg segment) command {
	c := command{all: seg.words}
	words := seg.words
	for len(words) > 0 {
		w := words[0]
		if w.isAssignment() {
			name := strings.TrimSuffix(w.text[:w.nameEnd-1], "+")
			if riskyVariable(name) {
				c.indirect = "sets " + name
			}
			words = words[1:]
			continue
		}
		if w.quoted || w.dynamic {
			break
		}
		if controlKeywords[w.text] {
			c.indirect = "shell control structure (" + w.text + ")"
			words = words[1:]
			continue
		}
		if passKeywords[w.text] {
			words = words[1:]
			if w.text == "time" && len(words) > 0 && words[0].text == "-p" {
				words = words[1:]
			}
			continue
		}
		break
	}
	c.words = words
	a.redirects(&c, seg.redirs)
	for _, w := range seg.words {
		if w.quoted && !w.dynamic && (strings.Contains(w.text, "$(") || strings.Contains(w.text, "`")) {
			a.payloadCode(&c, w.text)
		}
	}
	if len(words) == 0 {
		c.readOnly = c.indirect == "" && !c.writes
		return c
	}
	if why := a.indirection(&c); c.indirect == "" {
		c.indirect = why
	}
	name := c.program()
	c.cd = name == "cd" || name == "pushd" || name == "popd"
	c.readOnly = c.indirect == "" && !c.writes && classifyReadOnly(name, a.defuseGlobs(c.words[1:]))
	return c
}

// redirects records output redirections. Redirecting to /dev/null or a
// standard stream writes nothing.
func (a *analyzer) redirects(c *command, redirs []redirect) {
	for _, r := range redirs {
		if netRedirect(r.target) {
			// bash opens a socket for /dev/tcp and /dev/udp, in either direction.
			c.writes, c.escapes = true, r.target.text
			continue
		}
		switch r.op {
		case ">", ">>", ">|", "&>", "&>>", "<>":
		case ">&":
			if isFD(r.target) || r.target.text == "-" {
				continue
			}
		default:
			continue
		}
		t := r.target
		if !t.dynamic && !t.glob && (t.text == "/dev/null" || t.text == "/dev/stdout" || t.text == "/dev/stderr") {
			continue
		}
		c.writes = true
		if c.escapes == "" && (netRedirect(t) || !a.inside(t)) {
			c.escapes = t.text
		}
	}
}

// netRedirect reports a redirection to bash's network pseudo-files.
func netRedirect(t word) bool {
	return strings.HasPrefix(t.text, "/dev/tcp/") || strings.HasPrefix(t.text, "/dev/udp/")
}

// inside reports whether a redirect target is surely inside the workspace.
func (a *analyzer) inside(t word) bool {
	if t.dynamic || t.glob || t.tilde || t.text == "" {
		return false
	}
	p := t.text
	if !filepath.IsAbs(p) {
		if a.cwdMoved {
			return false
		}
		p = filepath.Join(a.root, p)
	}
	return within(a.root, filepath.Clean(p))
}

// within reports whether the clean absolute path p is root or under it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// maxInlineDepth bounds how deeply sh -c strings are unpacked.
const maxInlineDepth = 4

// inlineCode splits shell code passed as a string so deny rules can see it.
func (a *analyzer) inlineCode(c *command, code string) {
	if a.depth >= maxInlineDepth {
		return
	}
	s, _ := splitCommand(code)
	sub := &analyzer{root: a.root, cwdMoved: true, depth: a.depth + 1}
	c.inline = append(c.inline, sub.commands(s)...)
}

// payloadCode splits quoted text as shell code for deny matching only.
func (a *analyzer) payloadCode(c *command, code string) {
	if a.depth >= maxInlineDepth {
		return
	}
	s, _ := splitCommand(code)
	sub := &analyzer{root: a.root, cwdMoved: true, depth: a.depth + 1}
	c.payload = append(c.payload, sub.commands(s)...)
}
