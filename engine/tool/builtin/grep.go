package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/reasonix/teams/engine/tool"
)

const (
	defaultGrepResults = 200
	maxGrepResults     = 2000
	// maxGrepFileSize: larger files are not searched (generated data, logs).
	maxGrepFileSize = 10 << 20
	// maxGrepLineRunes cuts long matching lines (minified code).
	maxGrepLineRunes = 300
)

type grepTool struct {
	ws *workspace
	// rgPath is ripgrep's location, or "" to use the built-in scanner.
	rgPath string
}

var _ tool.Tool = (*grepTool)(nil)

func (*grepTool) Name() string { return "grep" }

func (*grepTool) Description() string {
	return "Search file contents with a regular expression (RE2 syntax); returns path:line:text for each matching line, sorted by path. " +
		"Use it to find definitions and usages before reading files."
}

func (*grepTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern": {"type": "string", "description": "Regular expression, matched against each line."},
		"path": {"type": "string", "description": "File or directory to search (default: the workspace root)."},
		"glob": {"type": "string", "description": "Only search files matching this glob: *.go matches file names at any depth, src/**/*.ts paths under path."},
		"ignore_case": {"type": "boolean", "description": "Match case-insensitively (default false)."},
		"max_results": {"type": "integer", "minimum": 1, "description": "Maximum number of matching lines to return (default 200)."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)
}

func (*grepTool) ReadOnly() bool { return true }

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	IgnoreCase bool   `json:"ignore_case"`
	MaxResults int    `json:"max_results"`
}

// grepQuery is a validated search, shared by both scanners.
type grepQuery struct {
	pattern    string         // as given, for rg
	re         *regexp.Regexp // the same, compiled, for the native scanner
	ignoreCase bool
	glob       string       // as given, "" for none
	filter     *globMatcher // compiled glob
	base       target       // file or directory searched
	baseIsDir  bool
	limit      int // collect at most limit+1 matches, to know there are more
}

// grepMatch is one matching line.
type grepMatch struct {
	path string // relative to the workspace root
	line int
	text string
}

func (t *grepTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args grepArgs
	if err := decodeArgs(t.Name(), raw, &args, "pattern"); err != nil {
		return tool.Result{}, err
	}
	q, err := t.query(args)
	if err != nil {
		return tool.Result{}, err
	}
	var matches []grepMatch
	if t.rgPath != "" && q.baseIsDir {
		matches, err = t.searchRipgrep(ctx, q)
	} else {
		matches, err = t.searchNative(ctx, q)
	}
	if err != nil {
		return tool.Result{}, err
	}
	return tool.Result{Output: formatMatches(matches, q.limit, args.Pattern)}, nil
}

// query validates the arguments.
func (t *grepTool) query(args grepArgs) (*grepQuery, error) {
	if args.Pattern == "" {
		return nil, argsErrorf(t.Name(), "pattern is empty")
	}
	if args.MaxResults < 0 {
		return nil, argsErrorf(t.Name(), "max_results must be positive")
	}
	q := &grepQuery{pattern: args.Pattern, ignoreCase: args.IgnoreCase, glob: args.Glob, limit: defaultGrepResults}
	if args.MaxResults > 0 {
		q.limit = min(args.MaxResults, maxGrepResults)
	}
	expr := args.Pattern
	if args.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, argsErrorf(t.Name(), "invalid regular expression: %v", err)
	}
	q.re = re
	if args.Glob != "" {
		if q.filter, err = compileGlob(args.Glob); err != nil {
			return nil, argsErrorf(t.Name(), "%v", err)
		}
	}
	if args.Path == "" {
		args.Path = "."
	}
	if q.base, err = t.ws.resolveRead(args.Path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(q.base.real)
	if err != nil {
		return nil, statError(args.Path, err)
	}
	q.baseIsDir = fi.IsDir()
	if !q.baseIsDir && !fi.Mode().IsRegular() {
		return nil, &PathError{Path: args.Path, Reason: "is not a regular file", Err: fs.ErrInvalid}
	}
	return q, nil
}

// wants reports whether a file found under the searched directory passes
// the glob filter. rel is relative to the workspace root. A pattern
// without a slash is matched against the file name, as rg does.
func (t *grepTool) wants(q *grepQuery, rel string) bool {
	if q.filter == nil || !q.baseIsDir {
		return true
	}
	if !strings.Contains(q.glob, "/") {
		return q.filter.Match(path.Base(rel))
	}
	under := rel
	if base := t.ws.relative(q.base.real); base != "." {
		under = strings.TrimPrefix(rel, base+"/")
	}
	return q.filter.Match(under)
}

// formatMatches renders matches as path:line:text in path order, at most
// limit of them, with a note when there were more.
func formatMatches(matches []grepMatch, limit int, pattern string) string {
	if len(matches) == 0 {
		return fmt.Sprintf("no matches for %s\n", pattern)
	}
	sort.SliceStable(matches, func(i, j int) bool {
		if matches[i].path != matches[j].path {
			return pathLess(matches[i].path, matches[j].path)
		}
		return matches[i].line < matches[j].line
	})
	more := len(matches) > limit
	if more {
		matches = matches[:limit]
	}
	var b strings.Builder
	for _, m := range matches {
		text := strings.TrimSuffix(m.text, "\r")
		fmt.Fprintf(&b, "%s:%d:%s\n", m.path, m.line, cutLine(text, maxGrepLineRunes))
	}
	if more {
		fmt.Fprintf(&b, "... results stop at %d matching lines; narrow the pattern, path or glob, or raise max_results\n", limit)
	}
	return b.String()
}
