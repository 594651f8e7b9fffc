package permission

import (
	"fmt"
	"path"
	"strings"
)

// Rules is the [permissions] table as configured: the writer fallback and
// the three rule lists.
type Rules struct {
	// Mode is the fallback for writers no rule matches: "ask" (the default
	// when empty), "allow" or "deny".
	Mode string
	// Allow, Ask and Deny hold rules such as "Bash(go test:*)",
	// "Edit(docs/**)" or a bare tool name.
	Allow, Ask, Deny []string
}

// RuleError reports a rule that does not parse. Msg says what to fix.
type RuleError struct {
	Rule string
	Msg  string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("permission rule %q: %s", e.Rule, e.Msg)
}

// ConfigError reports an invalid policy setting other than a rule: the
// mode, the posture or the workspace root.
type ConfigError struct {
	Field string // "mode", "posture" or "root"
	Value string
	Msg   string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("permission %s %q: %s", e.Field, e.Value, e.Msg)
}

// ruleKind is the family a rule belongs to.
type ruleKind int

const (
	kindBash ruleKind = iota // Bash, Bash(...), Bash=...
	kindEdit                 // Edit, Edit(glob): the file-mutating built-ins
	kindRead                 // Read, Read(glob): the read-only file built-ins
	kindTool                 // any other tool, by bare name
)

// bashForm says how a Bash rule matches a command.
type bashForm int

const (
	bashAny     bashForm = iota // Bash: any command
	bashPrefix                  // Bash(go test:*): these leading words
	bashExact                   // Bash(npm run build): exactly these words
	bashLiteral                 // Bash=<literal>: the whole command string
)

// rule is one parsed rule. It is immutable once parsed.
type rule struct {
	text string // as written, for Decision.Rule
	kind ruleKind

	// kindTool
	tool string

	// kindBash
	form    bashForm
	words   []string // bashPrefix, bashExact
	literal string   // bashLiteral, trimmed

	// kindEdit, kindRead: nil matches every path.
	glob []string // slash-separated pattern segments
}

// readOnlyTools and writerTools are the built-ins whose calls the Read and
// Edit families cover. Their bare names are not valid rules.
var (
	readOnlyTools = map[string]bool{"read_file": true, "ls": true, "glob": true, "grep": true}
	writerTools   = map[string]bool{"write_file": true, "edit_file": true, "move_file": true}
)

// parseRule parses one rule string.
func parseRule(s string) (rule, error) {
	text := strings.TrimSpace(s)
	bad := func(format string, args ...any) (rule, error) {
		return rule{}, &RuleError{Rule: s, Msg: fmt.Sprintf(format, args...)}
	}
	if text == "" {
		return bad("empty rule; remove it")
	}
	if lit, ok := strings.CutPrefix(text, "Bash="); ok {
		lit = strings.TrimSpace(lit)
		if lit == "" {
			return bad("Bash= needs the exact command after '=', e.g. Bash=make lint")
		}
		return rule{text: text, kind: kindBash, form: bashLiteral, literal: lit}, nil
	}
	name, spec, hasSpec := text, "", false
	if i := strings.IndexByte(text, '('); i >= 0 {
		if !strings.HasSuffix(text, ")") {
			return bad("missing closing ')'")
		}
		name, spec, hasSpec = text[:i], text[i+1:len(text)-1], true
		if strings.TrimSpace(spec) == "" {
			return bad("empty parentheses; write %s alone to match every call", name)
		}
	}
	switch name {
	case "Bash":
		if !hasSpec {
			return rule{text: text, kind: kindBash, form: bashAny}, nil
		}
		return parseBashSpec(s, text, spec)
	case "Edit", "Read":
		kind := kindEdit
		if name == "Read" {
			kind = kindRead
		}
		if !hasSpec {
			return rule{text: text, kind: kind}, nil
		}
		glob, msg := parseGlob(spec)
		if msg != "" {
			return bad("%s", msg)
		}
		return rule{text: text, kind: kind, glob: glob}, nil
	}
	if !validToolName(name) {
		return bad("unknown rule form; use Bash, Bash(cmd:*), Bash(cmd), Bash=<command>, Edit, Edit(glob), Read, Read(glob) or a tool name")
	}
	if hasSpec {
		return bad("only Bash, Edit and Read take a pattern; write %s alone", name)
	}
	switch {
	case name == "bash":
		return bad("write Bash (capital B) to match shell commands")
	case writerTools[name]:
		return bad("%s is covered by the Edit family; write Edit or Edit(glob)", name)
	case readOnlyTools[name]:
		return bad("%s is covered by the Read family; write Read or Read(glob)", name)
	}
	return rule{text: text, kind: kindTool, tool: name}, nil
}

// parseBashSpec parses the inside of Bash(...).
func parseBashSpec(orig, text, spec string) (rule, error) {
	bad := func(msg string) (rule, error) { return rule{}, &RuleError{Rule: orig, Msg: msg} }
	form := bashExact
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		form, spec = bashPrefix, p
	}
	words := strings.Fields(spec)
	if len(words) == 0 {
		return bad("no command before ':*'")
	}
	if strings.ContainsAny(spec, "*?") {
		return bad("wildcards are not supported inside Bash(...); use a prefix rule such as Bash(go test:*)")
	}
	if strings.ContainsAny(spec, ";&|<>`$()\"'\\\n") {
		return bad("shell operators, quotes and expansions cannot appear in Bash(...); use Bash=<command> for one exact command line")
	}
	return rule{text: text, kind: kindBash, form: form, words: words}, nil
}

// parseGlob validates and normalises a path pattern relative to the
// workspace root. It returns the segments, or a message saying what is wrong.
func parseGlob(spec string) ([]string, string) {
	p := strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(p, "/"):
		return nil, "paths are relative to the workspace root; drop the leading '/'"
	case strings.HasPrefix(p, "~"):
		return nil, "paths are relative to the workspace root; '~' is not expanded"
	}
	for strings.HasPrefix(p, "./") {
		p = strings.TrimLeft(p[2:], "/")
	}
	if p == "" || p == "." {
		return nil, "empty path; write the family alone to match every path"
	}
	segs := strings.Split(p, "/")
	out := segs[:0]
	for _, seg := range segs {
		switch {
		case seg == "" || seg == ".":
			continue
		case seg == "..":
			return nil, "'..' is not allowed; rules cover paths inside the workspace only"
		case seg != "**" && strings.Contains(seg, "**"):
			return nil, "'**' must be a whole path segment, as in src/**/x.go"
		}
		if _, err := path.Match(seg, ""); err != nil {
			return nil, fmt.Sprintf("bad pattern segment %q: %v", seg, err)
		}
		out = append(out, seg)
	}
	if len(out) == 0 {
		return nil, "empty path; write the family alone to match every path"
	}
	return out, ""
}

// validToolName reports whether s looks like a tool name: letters, digits,
// '_', '-', '.' and ':' (MCP tools are often namespaced).
func validToolName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := r == '_' || r == '-' || r == '.' || r == ':' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// parseRules parses a list, returning the first error.
func parseRules(list []string) ([]rule, error) {
	out := make([]rule, 0, len(list))
	for _, s := range list {
		r, err := parseRule(s)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
