package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasonix/teams/engine/tool"
)

// maxGlobResults bounds one glob answer.
const maxGlobResults = 1000

type globTool struct{ ws *workspace }

var _ tool.Tool = (*globTool)(nil)

func (*globTool) Name() string { return "glob" }

func (*globTool) Description() string {
	return "Find files by path pattern, e.g. **/*.go or cmd/*/main.go. " +
		"Returns matching file paths relative to the workspace root, sorted."
}

func (*globTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern": {"type": "string", "description": "Glob relative to path: * and ? match within a name, ** matches any number of directories, {a,b} gives alternatives."},
		"path": {"type": "string", "description": "Directory to search (default: the workspace root)."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)
}

func (*globTool) ReadOnly() bool { return true }

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

func (t *globTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args globArgs
	if err := decodeArgs(t.Name(), raw, &args, "pattern"); err != nil {
		return tool.Result{}, err
	}
	m, err := compileGlob(args.Pattern)
	if err != nil {
		return tool.Result{}, argsErrorf(t.Name(), "%v", err)
	}
	if args.Path == "" {
		args.Path = "."
	}
	base, err := t.ws.resolveRead(args.Path)
	if err != nil {
		return tool.Result{}, err
	}
	fi, err := os.Stat(base.real)
	if err != nil {
		return tool.Result{}, statError(args.Path, err)
	}
	if !fi.IsDir() {
		return tool.Result{}, &PathError{Path: args.Path, Reason: "is not a directory", Err: fs.ErrInvalid}
	}

	var found []string
	more := false
	start := t.ws.walkStart(base.real, literalPrefix(m))
	err = t.ws.walkFiles(ctx, start, func(abs string, d fs.DirEntry) error {
		rel, err := filepath.Rel(base.real, abs)
		if err != nil || !m.Match(filepath.ToSlash(rel)) {
			return nil
		}
		if len(found) == maxGlobResults {
			more = true
			return filepath.SkipAll
		}
		found = append(found, t.ws.relative(abs))
		return nil
	})
	if err != nil {
		return tool.Result{}, err
	}
	if len(found) == 0 {
		return tool.Result{Output: fmt.Sprintf("no files match %s\n", args.Pattern)}, nil
	}
	out := strings.Join(found, "\n") + "\n"
	if more {
		out += fmt.Sprintf("... more than %d files match; use a narrower pattern or path\n", maxGlobResults)
	}
	return tool.Result{Output: out}, nil
}

// literalPrefix returns the leading directory elements that every
// alternative of m spells out without wildcards: where a walk can start.
func literalPrefix(m *globMatcher) []string {
	var prefix []string
	for i, alt := range m.alternatives {
		var lit []string
		for _, e := range alt[:max(len(alt)-1, 0)] {
			if e == "**" || strings.ContainsAny(e, `*?[\`) {
				break
			}
			lit = append(lit, e)
		}
		if i == 0 {
			prefix = lit
			continue
		}
		n := 0
		for n < len(prefix) && n < len(lit) && prefix[n] == lit[n] {
			n++
		}
		prefix = prefix[:n]
	}
	return prefix
}

// walkStart returns the directory under base where a walk for a pattern
// with the given literal prefix can begin. It falls back to base whenever
// starting deeper could differ from a full walk: a symlink, .git or a
// forbidden directory on the way.
func (w *workspace) walkStart(base string, prefix []string) string {
	if len(prefix) == 0 {
		return base
	}
	start := filepath.Join(append([]string{base}, prefix...)...)
	for _, e := range prefix {
		if e == ".git" {
			return base
		}
	}
	if real, err := filepath.EvalSymlinks(start); err != nil || real != start || w.isForbidden(start) {
		return base
	}
	return start
}
