package permission

import (
	"path/filepath"
	"strings"
)

// wrappers run another command (or code) given in their arguments, so the
// program a rule would see is not the one that runs.
var wrappers = map[string]bool{
	"eval": true, "source": true, ".": true, "exec": true, "command": true, "builtin": true,
	"xargs": true, "sudo": true, "doas": true, "su": true, "nohup": true, "timeout": true,
	"nice": true, "ionice": true, "stdbuf": true, "setsid": true, "chroot": true,
	"unshare": true, "nsenter": true, "strace": true, "ltrace": true, "watch": true,
	"time": true, "parallel": true, "flock": true, "script": true, "busybox": true,
	"trap": true, "alias": true, "hash": true, "enable": true, "fc": true, "chrt": true,
	"taskset": true, "numactl": true, "systemd-run": true, "run-parts": true,
	"unbuffer": true, "firejail": true, "bwrap": true, "expect": true, "caffeinate": true,
	"pwsh": true, "powershell": true, "cmd": true, "cmd.exe": true,
}

// interpreter describes how a language runtime takes code on its command
// line instead of from a file.
type interpreter struct {
	inline string   // short flags whose value is code (python -c, perl -e)
	long   []string // long flags whose value is code
	value  string   // short flags that take a (non-code) value
	module string   // short flags naming a program to run (python -m)
	shell  bool     // the code is shell: split it for deny rules
}

var interpreters = map[string]interpreter{
	"sh": {inline: "cs", value: "oO", shell: true}, "bash": {inline: "cs", value: "oO", shell: true},
	"zsh": {inline: "cs", value: "oO", shell: true}, "dash": {inline: "cs", value: "oO", shell: true},
	"ksh": {inline: "cs", value: "oO", shell: true}, "ash": {inline: "cs", value: "oO", shell: true},
	"mksh": {inline: "cs", value: "oO", shell: true}, "fish": {inline: "c", long: []string{"--command", "--init-command"}, shell: true},
	"csh": {inline: "cs", shell: true}, "tcsh": {inline: "cs", shell: true},
	"python":  {inline: "c", value: "WXQ", module: "m"},
	"node":    {inline: "ep", long: []string{"--eval", "--print"}, value: "r"},
	"nodejs":  {inline: "ep", long: []string{"--eval", "--print"}, value: "r"},
	"bun":     {inline: "ep", long: []string{"--eval", "--print"}},
	"perl":    {inline: "eE", value: "IMm"},
	"ruby":    {inline: "e", value: "Ir"},
	"php":     {inline: "rBRFE"},
	"lua":     {inline: "e", value: "l"},
	"Rscript": {inline: "e"}, "osascript": {inline: "e"},
}

// interpreterFor returns the interpreter entry for a program's base name.
func interpreterFor(base string) (interpreter, bool) {
	if strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy") {
		return interpreters["python"], true
	}
	in, ok := interpreters[base]
	return in, ok
}

// indirection reports why c runs code its words do not show, or "".
func (a *analyzer) indirection(c *command) string {
	w0 := c.words[0]
	name := w0.text
	switch {
	case w0.dynamic:
		return "command name is an expansion"
	case w0.glob && name != "[" && name != "[[":
		return "command name is a pattern"
	}
	base := filepath.Base(name)
	args := c.words[1:]
	if why := evaluation(base, args); why != "" {
		return why
	}
	switch {
	case wrappers[base]:
		if base == "eval" {
			a.inlineCode(c, strings.Join(texts(args), " "))
		}
		return base
	case base == "env":
		for _, w := range args {
			if w.text == "-S" || strings.HasPrefix(w.text, "--split-string") || !strings.HasPrefix(w.text, "-") && !w.isAssignment() {
				return "env runs a command"
			}
		}
	case base == "find":
		for i, w := range args {
			switch {
			case w.text == "-exec" || w.text == "-execdir" || w.text == "-ok" || w.text == "-okdir":
				return "find " + w.text
			case w.splits || w.dynamic && (i == 0 || findPredicates[args[i-1].text] != 1):
				// $act may be -exec rm {} ;, "$act" may be -exec.
				return "find argument is an expansion"
			}
		}
	case base == "git":
		return a.gitIndirection(c, args)
	case programOptions[base] != nil:
		return a.programOption(c, base, args, programOptions[base])
	case base == "deno" && len(args) > 0 && args[0].text == "eval":
		return "deno eval"
	case isAwk(base):
		prog, fromFile, ok := awkProgram(args)
		switch {
		case !ok:
			return "awk options not understood or loading code"
		case fromFile:
			return "awk program from a file"
		case awkRunsCode(prog):
			return "awk runs commands"
		}
	case base == "sed":
		scripts, _, fromFile, ok := sedScripts(args)
		switch {
		case !ok:
			return "sed arguments not understood (an unknown option or an expansion)"
		case fromFile:
			return "sed script from a file"
		}
		for _, s := range scripts {
			if _, executes, ok := sedAnalyze(s); executes || !ok {
				return "sed script runs commands or is not understood"
			}
		}
	}
	if in, ok := interpreterFor(base); ok {
		return a.interpreterIndirection(c, base, in, args)
	}
	return ""
}

// interpreterIndirection spots inline code (-c, -e, ...) and programs read
// from standard input.
func (a *analyzer) interpreterIndirection(c *command, base string, in interpreter, args []word) string {
	inline := ""
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-":
			return base + " reads a program from standard input"
		case t == "--":
			if i+1 < len(args) {
				if inline == "" {
					return ""
				}
				if in.shell {
					a.inlineCode(c, args[i+1].text)
				}
				return inline
			}
			if inline != "" {
				return inline
			}
			return base + " reads a program from standard input"
		case strings.HasPrefix(t, "--"):
			for _, l := range in.long {
				if t == l || strings.HasPrefix(t, l+"=") {
					return base + " " + l
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			cluster := t[1:]
			for j := 0; j < len(cluster); j++ {
				ch := cluster[j]
				switch {
				case strings.IndexByte(in.inline, ch) >= 0:
					inline = base + " -" + string(ch)
					if !in.shell {
						return inline
					}
				case strings.IndexByte(in.module, ch) >= 0:
					return ""
				case strings.IndexByte(in.value, ch) >= 0:
					if j == len(cluster)-1 {
						i++
					}
					j = len(cluster)
				}
			}
		default:
			if inline != "" && in.shell {
				a.inlineCode(c, t)
				return inline
			}
			return ""
		}
	}
	if inline != "" {
		return inline
	}
	return base + " reads a program from standard input"
}

// gitIndirection spots git options that run programs: global -c and
// friends, and git grep -O (--open-files-in-pager), whose value is the
// program to run.
func (a *analyzer) gitIndirection(c *command, args []word) string {
	i, why := gitSubcommand(args)
	if why != "" || i >= len(args) || args[i].text != "grep" {
		return why
	}
	return a.programOption(c, "git grep", args[i+1:], []programFlag{{long: "--open-files-in-pager", min: len("--op"), short: 'O'}})
}

// gitSubcommand finds the index of git's subcommand in args (len(args)
// when there is none) and reports global options that run programs.
func gitSubcommand(args []word) (int, string) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case args[i].splits:
			// $opts may split into -c core.pager=...
			return i, "git option from an expansion"
		case t == "-c" || strings.HasPrefix(t, "--config-env") || strings.HasPrefix(t, "--exec-path="):
			return i, "git " + strings.SplitN(t, "=", 2)[0]
		case t == "-C" || t == "--git-dir" || t == "--work-tree" || t == "--namespace" || t == "--super-prefix":
			i++
		case !strings.HasPrefix(t, "-"):
			return i, ""
		}
	}
	return len(args), ""
}

// texts returns the words' texts.
func texts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}
