package permission

import "strings"

// readOnlyPrograms are commands that only read, whatever their arguments
// (redirections are judged separately). None has an option that writes a
// file, runs a program or changes the system; commands that do are in
// readOnlyCheckers instead. The test builtins ([[, [, test) are here
// because the arithmetic and subscripts they can evaluate are caught as
// indirect execution before this table is consulted.
var readOnlyPrograms = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true,
	"egrep": true, "fgrep": true, "pwd": true, "echo": true, "which": true,
	"stat": true, "du": true, "df": true, "diff": true, "cut": true, "tr": true, "jq": true,
	"basename": true, "dirname": true, "realpath": true, "readlink": true, "true": true,
	"false": true, "test": true, "[": true, "[[": true, "nl": true, "tac": true, "rev": true,
	"cmp": true, "comm": true, "column": true, "fold": true, "paste": true, "expand": true,
	"unexpand": true, "seq": true, "whoami": true, "id": true, "uname": true, "type": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "sha512sum": true, "cksum": true,
	"od": true, "hexdump": true, "strings": true, "cd": true, "pushd": true, "popd": true,
	":": true,
}

// readOnlyCheckers decide for commands that are read-only only with some
// arguments. Each gets the arguments after the program name. They work
// from allowlists: an option they do not know makes the command a writer.
var readOnlyCheckers = map[string]func(args []word) bool{
	"find":   findReadOnly,
	"tree":   treeOptions.accepts,
	"sort":   sortOptions.accepts,
	"uniq":   uniqReadOnly,
	"file":   fileOptions.accepts,
	"date":   dateReadOnly,
	"printf": printfReadOnly,
	"rg":     rgOptions.accepts,
	"set":    setReadOnly,
	"sed":    sedReadOnly,
	"awk":    awkReadOnly,
	"gawk":   awkReadOnly,
	"mawk":   awkReadOnly,
	"nawk":   awkReadOnly,
	"git":    gitReadOnly,
	"go":     goReadOnly,
	"gofmt":  gofmtReadOnly,
}

// classifyReadOnly reports whether the program, run with args, cannot
// change anything. The program must be named plainly (not ./ls).
func classifyReadOnly(name string, args []word) bool {
	if readOnlyPrograms[name] {
		return true
	}
	if check, ok := readOnlyCheckers[name]; ok {
		return check(args)
	}
	return false
}

// sortOptions leaves out -o/--output, -T/--temporary-directory and
// --compress-program (which runs a program).
var sortOptions = optionSpec{
	short:    "bdfgiMhnRrVcCmsuz",
	shortArg: "ktS",
	long: []string{"--ignore-leading-blanks", "--dictionary-order", "--ignore-case",
		"--general-numeric-sort", "--ignore-nonprinting", "--month-sort", "--human-numeric-sort",
		"--numeric-sort", "--random-sort", "--reverse", "--version-sort", "--merge", "--stable",
		"--unique", "--zero-terminated", "--debug", "--help", "--version"},
	longArg: []string{"--key", "--field-separator", "--buffer-size", "--sort", "--parallel",
		"--batch-size", "--files0-from", "--random-source"},
	longOpt: []string{"--check"},
}

// uniqOptions: uniq writes its second operand, so at most one is allowed.
var uniqOptions = optionSpec{
	short:    "cdDiuz",
	shortArg: "fsw",
	long: []string{"--count", "--repeated", "--ignore-case", "--unique", "--zero-terminated",
		"--help", "--version"},
	longArg: []string{"--skip-fields", "--skip-chars", "--check-chars"},
	longOpt: []string{"--all-repeated", "--group"},
}

func uniqReadOnly(args []word) bool {
	p, ok := uniqOptions.parse(args)
	return ok && len(p.operands) <= 1
}

// fileOptions leaves out -C/--compile (writes a magic file), -p (resets
// access times), -S/--no-sandbox and -z/-Z (may run decompressors).
var fileOptions = optionSpec{
	short:    "bcdEhiIkLlNnrsv0",
	shortArg: "efFmP",
	long: []string{"--brief", "--mime", "--mime-type", "--mime-encoding", "--extension",
		"--apple", "--keep-going", "--dereference", "--no-dereference", "--uncompress",
		"--uncompress-noreport", "--special-files", "--raw", "--no-pad", "--no-buffer",
		"--print0", "--help", "--version", "--list"},
	longArg: []string{"--exclude", "--exclude-quiet", "--files-from", "--separator",
		"--magic-file", "--parameter"},
}

// treeOptions leaves out -o (output file) and -R (writes 00Tree.html in
// every directory).
var treeOptions = optionSpec{
	short:    "adlfxpugshDFvtcUrnCASqNQJXi",
	shortArg: "LPIHT",
	long: []string{"--help", "--version", "--inodes", "--device", "--noreport", "--nolinks",
		"--dirsfirst", "--filesfirst", "--si", "--du", "--prune", "--matchdirs", "--ignore-case",
		"--gitignore", "--fromfile", "--metafirst", "--info"},
	longArg: []string{"--charset", "--filelimit", "--timefmt", "--sort"},
}

// dateOptions leaves out -s/--set; operands other than +FORMAT set the
// clock too.
var dateOptions = optionSpec{
	short:    "uR",
	shortArg: "dfr",
	shortOpt: "I",
	long:     []string{"--utc", "--universal", "--rfc-email", "--debug", "--help", "--version"},
	longArg:  []string{"--date", "--file", "--reference", "--rfc-3339"},
	longOpt:  []string{"--iso-8601"},
}

func dateReadOnly(args []word) bool {
	p, ok := dateOptions.parse(args)
	if !ok {
		return false
	}
	for _, w := range p.operands {
		if !strings.HasPrefix(w.text, "+") {
			return false
		}
	}
	return true
}

// printfReadOnly refuses printf -v, which assigns a variable (printf -v
// PATH changes which programs later commands run). A format that is an
// expansion could be -v too.
func printfReadOnly(args []word) bool {
	if len(args) == 0 {
		return true
	}
	first := args[0]
	return !first.dynamic && !(first.glob && leadingWildcard(first.text)) &&
		(first.text == "--" || !strings.HasPrefix(first.text, "-"))
}

// rgOptions leaves out --pre and --pre-glob (run a program on each file),
// --hostname-bin (runs a program), -z/--search-zip (runs decompressors)
// and the hyperlink options.
var rgOptions = optionSpec{
	short:    "abcFHhIiLlnNopPqsSUuvVwx0.",
	shortArg: "ABCdEefgjmMrtT",
	long: []string{"--text", "--byte-offset", "--count", "--count-matches", "--fixed-strings",
		"--with-filename", "--no-filename", "--ignore-case", "--case-sensitive", "--smart-case",
		"--follow", "--files-with-matches", "--files-without-match", "--line-number",
		"--no-line-number", "--only-matching", "--pretty", "--pcre2", "--quiet", "--unrestricted",
		"--invert-match", "--word-regexp", "--line-regexp", "--null", "--null-data", "--hidden",
		"--no-hidden", "--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-dot",
		"--no-ignore-global", "--no-ignore-exclude", "--no-ignore-files", "--no-ignore-messages",
		"--ignore", "--no-config", "--no-messages", "--files", "--type-list", "--json",
		"--no-json", "--vimgrep", "--heading", "--no-heading", "--column", "--no-column",
		"--multiline", "--no-multiline", "--multiline-dotall", "--crlf", "--no-crlf", "--stats",
		"--trim", "--no-trim", "--passthru", "--passthrough", "--binary", "--no-binary",
		"--one-file-system", "--glob-case-insensitive", "--no-unicode", "--mmap", "--no-mmap",
		"--line-buffered", "--block-buffered", "--debug", "--trace", "--help", "--version",
		"--sort-files", "--no-context-separator", "--include-zero", "--no-pcre2-unicode",
		"--auto-hybrid-regex", "--no-require-git", "--max-columns-preview", "--no-filename",
		"--no-search-zip", "--no-pre", "--ignore-file-case-insensitive"},
	longArg: []string{"--after-context", "--before-context", "--context", "--max-depth",
		"--maxdepth", "--encoding", "--regexp", "--file", "--glob", "--iglob", "--threads",
		"--max-count", "--max-columns", "--replace", "--type", "--type-not", "--type-add",
		"--type-clear", "--sort", "--sortr", "--color", "--colors", "--ignore-file",
		"--max-filesize", "--path-separator", "--context-separator", "--field-match-separator",
		"--field-context-separator", "--dfa-size-limit", "--regex-size-limit", "--engine"},
}

// findPredicates are the find options a read-only call may use, with the
// number of values each takes. Actions that run programs (-exec, -ok...),
// delete (-delete) or write files (-fprint, -fls...) are left out.
var findPredicates = map[string]int{
	"-P": 0, "-L": 0, "-H": 0, "-D": 1,
	"-print": 0, "-print0": 0, "-ls": 0, "-prune": 0, "-quit": 0, "-true": 0, "-false": 0,
	"-empty": 0, "-readable": 0, "-writable": 0, "-executable": 0, "-nouser": 0,
	"-nogroup": 0, "-depth": 0, "-d": 0, "-follow": 0, "-xdev": 0, "-mount": 0, "-noleaf": 0,
	"-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-daystart": 0, "-not": 0,
	"-a": 0, "-and": 0, "-o": 0, "-or": 0, "-help": 0, "--help": 0, "-version": 0,
	"--version": 0, "-warn": 0, "-nowarn": 0,
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1,
	"-regex": 1, "-iregex": 1, "-regextype": 1, "-type": 1, "-xtype": 1, "-maxdepth": 1,
	"-mindepth": 1, "-size": 1, "-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1,
	"-ctime": 1, "-cmin": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-used": 1, "-perm": 1,
	"-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-links": 1, "-inum": 1, "-samefile": 1,
	"-lname": 1, "-ilname": 1, "-fstype": 1, "-context": 1, "-printf": 1, "-files0-from": 1,
}

// findReadOnly checks find's arguments against findPredicates. Values may
// start with '-' (-mtime -1), so they are skipped by count; an expansion or
// a leading wildcard outside a quoted value could become an action.
func findReadOnly(args []word) bool {
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text
		if w.dynamic || w.glob && leadingWildcard(t) {
			return false
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			continue // a starting point, or ( ) ! ,
		}
		n, ok := findPredicates[t]
		switch {
		case ok:
		case len(t) == 3 && strings.HasPrefix(t, "-O") && t[2] >= '0' && t[2] <= '9':
		case len(t) == 8 && strings.HasPrefix(t, "-newer"):
			n = 1 // -newerXY
		default:
			return false
		}
		for ; n > 0; n-- {
			i++
			if i >= len(args) || args[i].splits || args[i].glob && leadingWildcard(args[i].text) {
				return false
			}
		}
	}
	return true
}

// setReadOnly accepts shell option changes such as set -euo pipefail.
func setReadOnly(args []word) bool {
	for _, w := range args {
		t := w.text
		if w.dynamic || t == "--" || (!strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") && !isName(t)) {
			return false
		}
	}
	return true
}

// gofmtReadOnly accepts gofmt's listing and diff modes. Go's flag package
// takes -flag and --flag alike; -w rewrites files and -cpuprofile writes
// one, so only -l, -d, -e, -s and -r are allowed.
func gofmtReadOnly(args []word) bool {
	return goFlags(args, []string{"l", "d", "e", "s"}, []string{"r"}, nil)
}
