package permission

import (
	"path/filepath"
	"strings"
	"sync"
)

// Posture is the session's approval stance, chosen by the people driving it.
type Posture string

// The postures.
const (
	// PostureAsk follows the policy: writers no rule allows ask a person.
	PostureAsk Posture = "ask"
	// PostureAuto allows the writer fallback; explicit ask and deny rules,
	// and indirect shell commands, still stop.
	PostureAuto Posture = "auto"
	// PostureYolo turns every ask into an allow. Deny rules still block.
	PostureYolo Posture = "yolo"
)

// Policy is the configured permission policy for one session's workspace.
// It implements Gate and Granter and is safe for concurrent use.
type Policy struct {
	// Immutable after NewPolicy.
	root string
	// realRoot is root with symlinks resolved, when that differs, so paths
	// written either way are recognised as inside.
	realRoot string
	mode     string // ask | allow | deny
	posture  Posture
	allow    []rule
	ask      []rule
	deny     []rule

	mu     sync.RWMutex
	grants []rule // guarded by mu; session grants, in order
}

var (
	_ Gate    = (*Policy)(nil)
	_ Granter = (*Policy)(nil)
)

// NewPolicy parses the rules for a session rooted at root (the workspace,
// an absolute path). An unparseable rule is a *RuleError; a bad mode,
// posture or root a *ConfigError.
func NewPolicy(rules Rules, posture Posture, root string) (*Policy, error) {
	mode := rules.Mode
	switch mode {
	case "":
		mode = "ask"
	case "ask", "allow", "deny":
	default:
		return nil, &ConfigError{Field: "mode", Value: rules.Mode, Msg: `use "ask", "allow" or "deny"`}
	}
	switch posture {
	case "":
		posture = PostureAsk
	case PostureAsk, PostureAuto, PostureYolo:
	default:
		return nil, &ConfigError{Field: "posture", Value: string(posture), Msg: `use "ask", "auto" or "yolo"`}
	}
	if !filepath.IsAbs(root) {
		return nil, &ConfigError{Field: "root", Value: root, Msg: "the workspace root must be an absolute path"}
	}
	p := &Policy{root: filepath.Clean(root), mode: mode, posture: posture}
	if real, err := filepath.EvalSymlinks(p.root); err == nil && real != p.root {
		p.realRoot = real
	}
	var err error
	if p.allow, err = parseRules(rules.Allow); err != nil {
		return nil, err
	}
	if p.ask, err = parseRules(rules.Ask); err != nil {
		return nil, err
	}
	if p.deny, err = parseRules(rules.Deny); err != nil {
		return nil, err
	}
	return p, nil
}

// Posture returns the session's posture.
func (p *Policy) Posture() Posture { return p.posture }

// Grant implements Granter: it adds scope as an allow rule for the rest of
// the session. A scope is one rule, or for file edits several Edit rules
// one per line. Lines that do not parse are ignored.
func (p *Policy) Grant(scope string) {
	lines := []string{scope}
	if !strings.HasPrefix(strings.TrimSpace(scope), "Bash=") {
		lines = strings.Split(scope, "\n")
	}
	var add []rule
	for _, l := range lines {
		if r, err := parseRule(l); err == nil {
			add = append(add, r)
		}
	}
	p.mu.Lock()
	p.grants = append(p.grants, add...)
	p.mu.Unlock()
}

// allowRules returns the configured allow rules followed by the grants,
// each paired with how a decision should name it.
func (p *Policy) allowRules() []namedRule {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]namedRule, 0, len(p.allow)+len(p.grants))
	for _, r := range p.allow {
		out = append(out, namedRule{rule: r, name: "allow rule " + r.text})
	}
	for _, r := range p.grants {
		out = append(out, namedRule{rule: r, name: "session grant " + r.text})
	}
	return out
}

// namedRule is a rule with its label for Decision.Rule.
type namedRule struct {
	rule
	name string
}

// Check implements Gate.
func (p *Policy) Check(call Call) Decision {
	switch {
	case call.Tool == "bash":
		return p.checkBash(call.Args)
	case writerTools[call.Tool]:
		return p.checkEdit(call)
	case readOnlyTools[call.Tool]:
		return p.checkRead(call)
	}
	return p.checkTool(call)
}

// writerFallback decides a writer no rule matched.
func (p *Policy) writerFallback(d Decision, scope string) Decision {
	switch {
	case p.mode == "deny":
		d.Verdict, d.Rule = Deny, "fallback: writers denied (mode = deny)"
	case p.posture == PostureYolo:
		d.Verdict, d.Rule = Allow, "posture yolo"
	case p.posture == PostureAuto:
		d.Verdict, d.Rule = Allow, "posture auto: writer fallback"
	case p.mode == "allow":
		d.Verdict, d.Rule = Allow, "fallback: writer in allow mode"
	default:
		d.Verdict, d.Rule, d.Scope = Ask, "fallback: writer in ask mode", scope
	}
	return d
}

// askOrYolo turns an ask into an allow under the yolo posture.
func (p *Policy) askOrYolo(d Decision, rule, scope string) Decision {
	if p.posture == PostureYolo {
		d.Verdict, d.Rule = Allow, "posture yolo (over "+rule+")"
		return d
	}
	d.Verdict, d.Rule, d.Scope = Ask, rule, scope
	return d
}

// checkTool decides a tool outside the built-in families, by bare name.
func (p *Policy) checkTool(call Call) Decision {
	d := Decision{Subject: call.Tool}
	matches := func(r rule) bool { return r.kind == kindTool && r.tool == call.Tool }
	for _, r := range p.deny {
		if matches(r) {
			d.Verdict, d.Rule = Deny, "deny rule "+r.text
			return d
		}
	}
	for _, r := range p.ask {
		if matches(r) {
			return p.askOrYolo(d, "ask rule "+r.text, "")
		}
	}
	for _, r := range p.allowRules() {
		if matches(r.rule) {
			d.Verdict, d.Rule, d.ReadOnly = Allow, r.name, call.ReadOnly
			return d
		}
	}
	if call.ReadOnly {
		d.Verdict, d.Rule, d.ReadOnly = Allow, "fallback: read-only tool", true
		return d
	}
	return p.writerFallback(d, call.Tool)
}
