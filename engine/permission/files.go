package permission

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// fileArgs holds the path arguments of the file built-ins.
type fileArgs struct {
	Path        string `json:"path"`
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// callPaths returns the paths a file tool call touches.
func (p *Policy) callPaths(call Call) ([]filePath, []string, bool) {
	var a fileArgs
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return nil, nil, false
	}
	raw := []string{a.Path}
	if call.Tool == "move_file" {
		raw = []string{a.Source, a.Destination}
		if a.Source == "" || a.Destination == "" {
			return nil, nil, false
		}
	} else if a.Path == "" && (call.Tool == "read_file" || writerTools[call.Tool]) {
		return nil, nil, false
	}
	out := make([]filePath, len(raw))
	for i, r := range raw {
		out[i] = resolvePath(p.root, r)
		if !out[i].inside && p.realRoot != "" && filepath.IsAbs(r) {
			out[i] = resolvePath(p.realRoot, r)
		}
	}
	return out, raw, true
}

// checkEdit decides write_file, edit_file and move_file. A deny or ask rule
// applies when it matches any of the paths; an allow needs every path
// covered, so Edit(docs/**) does not let a file move out of docs/.
func (p *Policy) checkEdit(call Call) Decision {
	paths, raw, ok := p.callPaths(call)
	if !ok {
		return p.askOrYolo(Decision{Subject: call.Tool}, "arguments not understood", "")
	}
	d := Decision{Subject: strings.Join(raw, " → ")}
	return p.checkPaths(d, kindEdit, paths, false)
}

// checkRead decides read_file, ls, glob and grep by the path they read or
// search. Inside the workspace they run unless a rule says otherwise.
func (p *Policy) checkRead(call Call) Decision {
	paths, raw, ok := p.callPaths(call)
	if !ok {
		return p.askOrYolo(Decision{Subject: call.Tool}, "arguments not understood", "")
	}
	subject := raw[0]
	if subject == "" {
		subject = "."
	}
	return p.checkPaths(Decision{Subject: subject}, kindRead, paths, true)
}

// checkPaths applies the rules of one family to a call's paths.
func (p *Policy) checkPaths(d Decision, kind ruleKind, paths []filePath, readOnly bool) Decision {
	hits := func(r rule) bool {
		if r.kind != kind {
			return false
		}
		for _, fp := range paths {
			if r.matchPath(fp) {
				return true
			}
		}
		return false
	}
	for _, r := range p.deny {
		if hits(r) {
			d.Verdict, d.Rule = Deny, "deny rule "+r.text
			return d
		}
	}
	for _, r := range p.ask {
		if hits(r) {
			return p.askOrYolo(d, "ask rule "+r.text, "")
		}
	}
	allowed, name := true, ""
	allow := p.allowRules()
	for _, fp := range paths {
		covered := false
		for _, r := range allow {
			if r.kind == kind && r.matchPath(fp) {
				covered, name = true, r.name
				break
			}
		}
		allowed = allowed && covered
	}
	if allowed {
		d.Verdict, d.Rule, d.ReadOnly = Allow, name, readOnly
		return d
	}
	for _, fp := range paths {
		if !fp.inside {
			if !readOnly && p.mode == "deny" {
				d.Verdict, d.Rule = Deny, "fallback: writers denied (mode = deny)"
				return d
			}
			return p.askOrYolo(d, "path outside the workspace: "+fp.rel, "")
		}
	}
	if readOnly {
		d.Verdict, d.Rule, d.ReadOnly = Allow, "fallback: read-only tool", true
		return d
	}
	return p.writerFallback(d, editScope(paths))
}
