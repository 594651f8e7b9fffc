package permission

import "strings"

// readOnlyPrograms are commands that only read, whatever their arguments
// (redirections are judged separately).
var readOnlyPrograms = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true,
	"egrep": true, "fgrep": true, "pwd": true, "echo": true, "printf": true, "which": true,
	"stat": true, "du": true, "df": true, "diff": true, "cut": true, "tr": true, "jq": true,
	"basename": true, "dirname": true, "realpath": true, "readlink": true, "true": true,
	"false": true, "test": true, "[": true, "[[": true, "nl": true, "tac": true, "rev": true,
	"cmp": true, "comm": true, "column": true, "fold": true, "paste": true, "expand": true,
	"unexpand": true, "seq": true, "whoami": true, "id": true, "uname": true, "type": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "sha512sum": true, "cksum": true,
	"od": true, "hexdump": true, "strings": true, "cd": true, "pushd": true, "popd": true,
	":": true, "rg": true,
}

// readOnlyCheckers decide for commands that are read-only only with some
// arguments. Each gets the arguments after the program name.
var readOnlyCheckers = map[string]func(args []word) bool{
	"find": findReadOnly,
	"tree": func(args []word) bool { return !hasShortFlag(args, 'o') },
	"sort": func(args []word) bool { return !hasShortFlag(args, 'o') && !hasFlag(args, "--output") },
	"uniq": func(args []word) bool { return len(positionals(args)) <= 1 },
	"file": func(args []word) bool { return !hasShortFlag(args, 'C') && !hasFlag(args, "--compile") },
	"date": func(args []word) bool {
		return !hasShortFlag(args, 's') && !hasFlag(args, "--set") && allFormats(positionals(args))
	},
	"set":   setReadOnly,
	"sed":   sedReadOnly,
	"awk":   awkReadOnly,
	"gawk":  awkReadOnly,
	"mawk":  awkReadOnly,
	"nawk":  awkReadOnly,
	"git":   gitReadOnly,
	"go":    goReadOnly,
	"gofmt": func(args []word) bool { return !hasShortFlag(args, 'w') },
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

// hasFlag reports whether any argument is one of the flags, alone or as
// flag=value.
func hasFlag(args []word, flags ...string) bool {
	for _, w := range args {
		for _, f := range flags {
			if w.text == f || strings.HasPrefix(w.text, f+"=") {
				return true
			}
		}
	}
	return false
}

// hasShortFlag reports whether a short-flag cluster contains c.
func hasShortFlag(args []word, c byte) bool {
	for _, w := range args {
		t := w.text
		if strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.IndexByte(t[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// positionals returns the arguments that are not flags.
func positionals(args []word) []word {
	var out []word
	for _, w := range args {
		if !strings.HasPrefix(w.text, "-") || w.text == "-" {
			out = append(out, w)
		}
	}
	return out
}

func allFormats(ws []word) bool {
	for _, w := range ws {
		if !strings.HasPrefix(w.text, "+") {
			return false
		}
	}
	return true
}

func findReadOnly(args []word) bool {
	for _, w := range args {
		switch w.text {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
			return false
		}
	}
	return true
}

// setReadOnly accepts shell option changes such as set -euo pipefail.
func setReadOnly(args []word) bool {
	for _, w := range args {
		t := w.text
		if t == "--" || (!strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") && !isName(t)) {
			return false
		}
	}
	return true
}

// gitReadOnly accepts the inspecting subcommands in their listing forms.
func gitReadOnly(args []word) bool {
	i, why := gitSubcommand(args)
	if why != "" || i >= len(args) {
		return false
	}
	rest := args[i+1:]
	switch args[i].text {
	case "status", "rev-parse", "ls-files", "ls-tree", "cat-file", "describe", "shortlog",
		"rev-list", "merge-base", "show-ref":
		return true
	case "blame":
		return !hasFlag(rest, "--output")
	case "diff", "log", "show":
		return !hasFlag(rest, "--output", "--ext-diff")
	case "grep":
		return !hasShortFlag(rest, 'O') && !hasFlag(rest, "--open-files-in-pager")
	case "branch":
		return gitBranchListing(rest)
	}
	return false
}

// gitBranchListing accepts git branch forms that only list branches.
func gitBranchListing(args []word) bool {
	valued := map[string]bool{"--contains": true, "--no-contains": true, "--merged": true,
		"--no-merged": true, "--points-at": true, "--sort": true, "--format": true, "--column": true}
	list := false
	names := 0
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--list" || t == "-l":
			list = true
		case valued[t]:
			i++
		case strings.HasPrefix(t, "--"):
			for _, bad := range []string{"--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--no-track", "--create-reflog"} {
				if t == bad || strings.HasPrefix(t, bad+"=") {
					return false
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if strings.ContainsAny(t[1:], "dDmMcCfut") {
				return false
			}
			if strings.Contains(t[1:], "l") {
				list = true
			}
		default:
			names++
		}
	}
	return names == 0 || list
}

// goReadOnly accepts go version, env (not -w/-u), list, vet and doc.
func goReadOnly(args []word) bool {
	i := 0
	if len(args) > 1 && args[0].text == "-C" {
		i = 2
	}
	if i >= len(args) {
		return false
	}
	rest := args[i+1:]
	switch args[i].text {
	case "version", "list", "vet", "doc":
		return true
	case "env":
		return !hasShortFlag(rest, 'w') && !hasShortFlag(rest, 'u')
	}
	return false
}
