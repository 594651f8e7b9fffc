package permission

import (
	"encoding/json"
	"strings"
)

// bashArgs is the bash tool's argument object.
type bashArgs struct {
	Command string `json:"command"`
}

// checkBash decides one bash command line. The line is split into simple
// commands; each must be allowed for the whole to be. Deny rules are
// checked first and see every command, nested ones included; indirect
// execution can only be covered by an exact Bash=<literal> rule.
func (p *Policy) checkBash(raw json.RawMessage) Decision {
	var a bashArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return p.askOrYolo(Decision{Subject: "bash"}, "arguments not understood", "")
	}
	line := strings.TrimSpace(a.Command)
	d := Decision{Subject: line}
	if line == "" {
		d.Verdict, d.Rule = Ask, "empty command"
		return d
	}
	literal := "Bash=" + line

	s, splitErr := splitCommand(line)
	an := &analyzer{root: p.root}
	cmds := an.commands(s)
	// Any indirect command makes deny rules look through every command of
	// the line: a variable set in one can carry the code another runs.
	indirect := len(s.indirect) > 0
	for _, c := range cmds {
		indirect = indirect || c.indirect != ""
	}

	// deny > ask > allow > fallback.
	for _, r := range p.deny {
		if r.kind == kindBash && r.coversLine(line, cmds, indirect) {
			d.Verdict, d.Rule = Deny, "deny rule "+r.text
			return d
		}
	}
	if splitErr != nil {
		// Deny rules could not see the whole line, so nothing but an exact
		// grant of this very text runs it, whatever the posture.
		for _, r := range p.allowRules() {
			if r.kind == kindBash && r.form == bashLiteral && r.literal == line {
				d.Verdict, d.Rule = Allow, r.name
				return d
			}
		}
		d.Verdict, d.Rule, d.Scope = Ask, "command not understood ("+splitErr.Error()+")", literal
		return d
	}
	for _, r := range p.ask {
		if r.kind == kindBash && r.coversLine(line, cmds, indirect) {
			return p.askOrYolo(d, "ask rule "+r.text, "")
		}
	}
	readOnly := !indirect
	for _, c := range cmds {
		readOnly = readOnly && c.readOnly
	}
	allow := p.allowRules()
	for _, r := range allow {
		if r.kind == kindBash && r.form == bashLiteral && r.literal == line {
			d.Verdict, d.Rule, d.ReadOnly = Allow, r.name, readOnly
			return d
		}
	}
	if why := uncoverable(s, cmds); why != "" {
		return p.askOrYolo(d, why, literal)
	}

	covered, name := true, ""
	for _, c := range cmds {
		if n := firstAllow(allow, c); n != "" {
			name = n
			continue
		}
		covered = covered && c.readOnly
	}
	switch {
	case covered && name != "":
		d.Verdict, d.Rule, d.ReadOnly = Allow, name, readOnly
		return d
	case covered:
		d.Verdict, d.Rule, d.ReadOnly = Allow, "fallback: read-only command", true
		return d
	}
	return p.writerFallback(d, bashScope(line, s, cmds))
}

// coversLine applies a deny or ask rule to a whole line: a literal rule
// compares the text, the others each simple command.
func (r rule) coversLine(line string, cmds []command, indirect bool) bool {
	if r.form == bashLiteral {
		return r.literal == line
	}
	for _, c := range cmds {
		if r.blocksCommand(c, indirect) {
			return true
		}
	}
	return false
}

// firstAllow names the first allow rule covering c, or "".
func firstAllow(allow []namedRule, c command) string {
	for _, r := range allow {
		if r.kind == kindBash && r.form != bashLiteral && r.matchCommand(c) {
			return r.name
		}
	}
	return ""
}

// uncoverable says why no reusable rule may cover the line: indirect
// execution anywhere, or a write outside the workspace. "" when none.
func uncoverable(s *script, cmds []command) string {
	reasons := append([]string(nil), s.indirect...)
	for _, c := range cmds {
		if c.indirect != "" && !contains(reasons, c.indirect) {
			reasons = append(reasons, c.indirect)
		}
	}
	if len(reasons) > 0 {
		return "indirect execution (" + strings.Join(reasons, ", ") + ")"
	}
	for _, c := range cmds {
		if c.escapes != "" {
			return "writes outside the workspace (" + c.escapes + ")"
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
