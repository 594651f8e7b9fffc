package permission

import "strings"

// This file holds the read-only allowlists for git and go subcommands.
// git's own option parser takes unique abbreviations (git blame --outp),
// and its diff options include --output=<file> and --ext-diff, so only the
// options listed here are trusted, written in full.

// gitLogOptions are the diff and revision options of diff, log, show,
// rev-list and shortlog that only change what is printed.
var gitLogOptions = optionSpec{
	short:    "pusWwbRazmcrtiEFPDg",
	shortArg: "nSGLO",
	shortOpt: "MCBUX",
	number:   true,
	long: []string{"--patch", "--no-patch", "--raw", "--patch-with-raw", "--patch-with-stat",
		"--numstat", "--shortstat", "--summary", "--name-only", "--name-status",
		"--compact-summary", "--full-index", "--binary", "--no-color", "--no-ext-diff",
		"--textconv", "--no-textconv", "--cached", "--staged", "--merge-base", "--no-index",
		"--exit-code", "--quiet", "--minimal", "--patience", "--histogram",
		"--ignore-all-space", "--ignore-space-change", "--ignore-space-at-eol",
		"--ignore-cr-at-eol", "--ignore-blank-lines", "--function-context", "--text",
		"--no-prefix", "--default-prefix", "--check", "--full-diff", "--oneline", "--graph",
		"--all", "--first-parent", "--merges", "--no-merges", "--topo-order", "--date-order",
		"--author-date-order", "--reverse", "--left-right", "--cherry-pick", "--cherry-mark",
		"--cherry", "--boundary", "--full-history", "--simplify-merges",
		"--simplify-by-decoration", "--abbrev-commit", "--no-abbrev-commit", "--no-abbrev",
		"--follow", "--source", "--use-mailmap", "--mailmap", "--no-mailmap", "--no-decorate",
		"--parents", "--children", "--regexp-ignore-case", "--extended-regexp",
		"--fixed-strings", "--perl-regexp", "--basic-regexp", "--all-match", "--invert-grep",
		"--count", "--objects", "--no-renames", "--find-copies-harder",
		"--irreversible-delete", "--pickaxe-all", "--pickaxe-regex", "--cc", "--no-notes",
		"--no-relative", "--numbered", "--email", "--committer", "--no-walk", "--do-walk",
		"--stdin", "--not", "--dense", "--sparse", "--remove-empty", "--show-linear-break",
		"--log-size", "--no-merges", "--single-worktree", "--indent-heuristic",
		"--no-indent-heuristic", "--ita-invisible-in-index", "--ita-visible-in-index"},
	longArg: []string{"--since", "--after", "--until", "--before", "--author", "--grep",
		"--max-count", "--skip", "--min-parents", "--max-parents", "--diff-filter",
		"--encoding", "--word-diff-regex", "--src-prefix", "--dst-prefix", "--line-prefix",
		"--exclude", "--max-age", "--min-age", "--grep-reflog", "--diff-algorithm",
		"--anchored", "--rotate-to", "--skip-to", "--group"},
	longOpt: []string{"--stat", "--dirstat", "--color", "--word-diff", "--color-words",
		"--color-moved", "--find-renames", "--find-copies", "--break-rewrites", "--unified",
		"--abbrev", "--decorate", "--branches", "--tags", "--remotes", "--glob",
		"--ancestry-path", "--relative", "--notes", "--submodule", "--pretty", "--format",
		"--date", "--inter-hunk-context", "--ws-error-highlight"},
}

// gitShortlogOptions is gitLogOptions with shortlog's -n (numbered) and -e
// (email), which take no value.
var gitShortlogOptions = func() optionSpec {
	s := gitLogOptions
	s.short += "ne"
	s.shortArg = "SGLO"
	return s
}()

var gitBlameOptions = optionSpec{
	short:    "bcefklnpstw",
	shortArg: "LS",
	shortOpt: "MC",
	long: []string{"--root", "--show-stats", "--incremental", "--porcelain", "--line-porcelain",
		"--show-name", "--show-number", "--show-email", "--color-lines", "--color-by-age",
		"--progress", "--no-progress", "--score-debug", "--minimal", "--first-parent"},
	longArg: []string{"--date", "--contents", "--ignore-rev", "--ignore-revs-file", "--reverse",
		"--encoding"},
	longOpt: []string{"--abbrev"},
}

// gitGrepOptions leaves out -O/--open-files-in-pager, which runs a program.
var gitGrepOptions = optionSpec{
	short:    "nivwlLchHpWqIaEFGPzor",
	shortArg: "efABCm",
	number:   true,
	long: []string{"--cached", "--untracked", "--no-index", "--no-exclude-standard",
		"--exclude-standard", "--recurse-submodules", "--text", "--textconv", "--no-textconv",
		"--ignore-case", "--word-regexp", "--invert-match", "--full-name", "--extended-regexp",
		"--basic-regexp", "--perl-regexp", "--fixed-strings", "--line-number", "--column",
		"--files-with-matches", "--name-only", "--files-without-match", "--null",
		"--only-matching", "--count", "--no-color", "--break", "--heading", "--show-function",
		"--function-context", "--and", "--or", "--not", "--all-match", "--quiet", "--recursive",
		"--no-recursive"},
	longArg: []string{"--max-depth", "--threads", "--after-context", "--before-context",
		"--context", "--max-count"},
	longOpt: []string{"--color"},
}

var gitStatusOptions = optionSpec{
	short:    "sbvz",
	shortOpt: "u",
	long: []string{"--short", "--branch", "--show-stash", "--long", "--verbose", "--null",
		"--ahead-behind", "--no-ahead-behind", "--renames", "--no-renames", "--no-column"},
	longOpt: []string{"--porcelain", "--untracked-files", "--ignored", "--ignore-submodules",
		"--column", "--find-renames"},
}

var gitBranchOptions = optionSpec{
	short: "arvli",
	long: []string{"--all", "--remotes", "--verbose", "--list", "--show-current",
		"--ignore-case", "--no-column", "--no-color", "--no-abbrev", "--omit-empty"},
	longArg: []string{"--contains", "--no-contains", "--merged", "--no-merged", "--points-at",
		"--sort", "--format"},
	longOpt: []string{"--column", "--color", "--abbrev"},
}

// gitReadOnly accepts the inspecting subcommands with allowlisted options.
func gitReadOnly(args []word) bool {
	i, why := gitSubcommand(args)
	if why != "" || i >= len(args) || !noExpansions(args[:i+1]) {
		return false
	}
	// Global options that point git at another repository (-C, --git-dir,
	// --work-tree, ...) are not read-only: a bare repository committed
	// inside the workspace can carry a config whose core.fsmonitor or
	// pager runs a program on `status` or `diff`.
	for _, w := range args[:i] {
		if w.text != "--no-pager" && w.text != "-P" {
			return false
		}
	}
	rest := args[i+1:]
	switch args[i].text {
	case "status":
		return gitStatusOptions.accepts(rest)
	case "diff", "log", "show", "rev-list":
		return gitLogOptions.accepts(rest)
	case "shortlog":
		return gitShortlogOptions.accepts(rest)
	case "blame":
		return gitBlameOptions.accepts(rest)
	case "grep":
		return gitGrepOptions.accepts(rest)
	case "branch":
		return gitBranchListing(rest)
	case "rev-parse", "ls-files", "ls-tree", "cat-file", "describe", "merge-base", "show-ref":
		// None of these has an option that writes or runs a program.
		return noExpansions(rest)
	}
	return false
}

// gitBranchListing accepts git branch forms that only list branches: no
// name unless --list makes it a pattern. --merged and its kin take an
// optional commit, so a trailing one stands alone.
func gitBranchListing(args []word) bool {
	if n := len(args); n > 0 {
		switch args[n-1].text {
		case "--merged", "--no-merged", "--contains", "--no-contains":
			args = args[:n-1]
		}
	}
	p, ok := gitBranchOptions.parse(args)
	return ok && (len(p.operands) == 0 || p.has("--list", "-l"))
}

// noExpansions reports that no word is an expansion or a pattern that
// could expand to an option.
func noExpansions(args []word) bool {
	for _, w := range args {
		if w.dynamic || w.glob && leadingWildcard(w.text) {
			return false
		}
	}
	return true
}

// goReadOnly accepts go version, env (to read), list, vet and doc with
// allowlisted flags: -mod=mod would rewrite go.mod, -toolexec and -vettool
// run programs, go doc -http serves and opens a browser.
func goReadOnly(args []word) bool {
	i := 0
	if len(args) > 1 && args[0].text == "-C" {
		i = 2
	}
	if i >= len(args) || !noExpansions(args[:i+1]) {
		return false
	}
	rest := args[i+1:]
	switch args[i].text {
	case "version":
		return goFlags(rest, []string{"m", "v", "json"}, nil, nil)
	case "env":
		return goFlags(rest, []string{"json", "changed"}, nil, nil)
	case "doc":
		return goFlags(rest, []string{"all", "c", "cmd", "short", "src", "u"}, nil, nil)
	case "list":
		return goFlags(rest, []string{"e", "json", "m", "deps", "test", "find", "versions",
			"retracted", "n", "x", "v", "race", "trimpath"}, []string{"f", "tags", "mod"}, goModReadOnly)
	case "vet":
		return goFlags(rest, append([]string{"json", "n", "x", "v", "race", "trimpath"}, vetAnalyzers...),
			[]string{"c", "tags", "mod"}, goModReadOnly)
	}
	return false
}

// vetAnalyzers are go vet's analyzer switches (-printf, -printf.funcs=...).
var vetAnalyzers = []string{"appends", "asmdecl", "assign", "atomic", "bools", "buildtag",
	"cgocall", "composites", "copylocks", "defers", "directive", "errorsas", "framepointer",
	"httpresponse", "ifaceassert", "loopclosure", "lostcancel", "nilfunc", "printf", "shift",
	"sigchanyzer", "slog", "stdmethods", "stdversion", "stringintconv", "structtag",
	"testinggoroutine", "tests", "timeformat", "unmarshal", "unreachable", "unsafeptr",
	"unusedresult", "waitgroup", "hostport"}

// goModReadOnly accepts -mod only in its modes that leave go.mod alone.
func goModReadOnly(name, value string) bool {
	return name != "mod" || value == "readonly" || value == "vendor"
}

// goFlags checks flags in the style of Go's flag package: -name or --name,
// -name=value, and -name value for valued flags; no clusters and no
// abbreviations. bools may carry =true or =false (any value for json, which
// takes a field list); "analyzer.setting=value" is accepted when the
// analyzer is one of bools.
func goFlags(args []word, bools, valued []string, check func(name, value string) bool) bool {
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text
		if w.dynamic || w.glob && leadingWildcard(t) {
			return false
		}
		if t == "--" {
			return noExpansions(args[i+1:])
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(t[1:], "-"), "=")
		analyzer, _, sub := strings.Cut(name, ".")
		switch {
		case inList(bools, name):
			if hasVal && name != "json" && val != "true" && val != "false" {
				return false
			}
		case sub && hasVal && inList(vetAnalyzers, analyzer) && inList(bools, analyzer):
		case inList(valued, name):
			if !hasVal {
				v, ok := optionValue(args[i+1:])
				if !ok {
					return false
				}
				val = v
				i++
			}
		default:
			return false
		}
		if check != nil && !check(name, val) {
			return false
		}
	}
	return true
}
