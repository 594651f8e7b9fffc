package permission

import "strings"

// This file reads the programs of sed and awk, which can write files and
// run commands from inside their scripts.

// sedOptions are GNU sed's options. -i and --in-place are known so that a
// rule can cover sed -i; the read-only check refuses them.
var sedOptions = optionSpec{
	short:    "nErsuzb",
	shortArg: "efl",
	shortOpt: "i",
	long: []string{"--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered",
		"--null-data", "--zero-terminated", "--binary", "--posix", "--debug", "--sandbox",
		"--follow-symlinks", "--help", "--version"},
	longArg: []string{"--expression", "--file", "--line-length"},
	longOpt: []string{"--in-place"},
}

// sedScripts collects sed's scripts from its arguments, and reports -i
// (edit in place) and -f (a script file the policy cannot see). ok is
// false when an argument is not understood.
func sedScripts(args []word) (scripts []string, inPlace, fromFile, ok bool) {
	p, ok := sedOptions.parse(args)
	if !ok {
		return nil, false, false, false
	}
	for _, o := range p.opts {
		switch o.name {
		case "-e", "--expression":
			scripts = append(scripts, o.value)
		case "-f", "--file":
			fromFile = true
		case "-i", "--in-place":
			inPlace = true
		}
	}
	if !p.has("-e", "--expression", "-f", "--file") && len(p.operands) > 0 {
		scripts = append(scripts, p.operands[0].text)
	}
	return scripts, inPlace, fromFile, true
}

// sedReadOnly accepts sed without -i, -f, and w/W/e commands.
func sedReadOnly(args []word) bool {
	scripts, inPlace, fromFile, ok := sedScripts(args)
	if !ok || inPlace || fromFile {
		return false
	}
	for _, s := range scripts {
		if writes, executes, ok := sedAnalyze(s); writes || executes || !ok {
			return false
		}
	}
	return true
}

// sedAnalyze reads a sed script's commands and reports whether any writes
// a file (w, W, s///w) or runs a command (e, s///e). ok is false when the
// script is not understood.
func sedAnalyze(s string) (writes, executes, ok bool) {
	i := 0
	toEOL := func() {
		for i < len(s) && s[i] != '\n' {
			i++
		}
	}
	for i < len(s) {
		for i < len(s) && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		var good bool
		if i, good = sedAddress(s, i); !good {
			return writes, executes, false
		}
		if i < len(s) && s[i] == ',' {
			if i, good = sedAddress(s, i+1); !good {
				return writes, executes, false
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '!') {
			i++
		}
		if i >= len(s) {
			return writes, executes, false
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case '#', 'a', 'i', 'c', 'r', 'R', ':', 'b', 't', 'T', 'v':
			toEOL()
		case 'w', 'W':
			writes = true
			toEOL()
		case 'e':
			executes = true
			toEOL()
		case 'l', 'L', 'q', 'Q':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case 's', 'y':
			parts := 2
			var end int
			if end, good = sedDelimited(s, i, parts); !good {
				return writes, executes, false
			}
			i = end
			if c == 'y' {
				continue
			}
			for i < len(s) && strings.IndexByte(";\n} ", s[i]) < 0 {
				switch s[i] {
				case 'w':
					writes = true
					toEOL()
					continue
				case 'e':
					executes = true
				}
				i++
			}
		default:
			return writes, executes, false
		}
	}
	return writes, executes, true
}

// sedAddress skips one address (a line number, $, /re/ or \cREc, with
// GNU's first~step and +N forms) starting at i.
func sedAddress(s string, i int) (int, bool) {
	switch {
	case i >= len(s):
		return i, true
	case s[i] == '$':
		return i + 1, true
	case s[i] >= '0' && s[i] <= '9', s[i] == '+', s[i] == '~':
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
			i++
		}
		return i, true
	case s[i] == '/':
		end, ok := sedDelimited(s, i, 1)
		for ok && end < len(s) && (s[end] == 'I' || s[end] == 'M') {
			end++
		}
		return end, ok
	case s[i] == '\\' && i+1 < len(s):
		end, ok := sedDelimited(s, i+1, 1)
		for ok && end < len(s) && (s[end] == 'I' || s[end] == 'M') {
			end++
		}
		return end, ok
	}
	return i, true
}

// sedDelimited skips a delimiter at s[i] followed by n parts, each ended by
// the delimiter; a backslash escapes the next character.
func sedDelimited(s string, i, n int) (int, bool) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return i, false
	}
	delim := s[i]
	i++
	for part := 0; part < n; part++ {
		for {
			if i >= len(s) {
				return i, false
			}
			if s[i] == '\\' {
				i += 2
				continue
			}
			if s[i] == delim {
				i++
				break
			}
			i++
		}
	}
	return i, true
}

func isAwk(base string) bool {
	return base == "awk" || base == "gawk" || base == "mawk" || base == "nawk"
}

// awkOptions are the awk options the policy reads: -F and -v take plain
// values; -f/--file and gawk's -E/--exec read the program from a file;
// -e/--source give program text; -i/--include and -l/--load load code.
// Other options (gawk's -o, -p and -d write files; mawk's -W exec reads a
// program) are not understood.
var awkOptions = optionSpec{
	shortArg: "FvfEeil",
	longArg: []string{"--field-separator", "--assign", "--file", "--exec", "--source",
		"--include", "--load"},
}

// awkProgram finds awk's program text. fromFile reports a program read
// from a file; ok is false for options that load code or are not
// understood.
func awkProgram(args []word) (prog string, fromFile, ok bool) {
	p, ok := awkOptions.parse(args)
	if !ok {
		return "", false, false
	}
	var progs []string
	for _, o := range p.opts {
		switch o.name {
		case "-f", "--file", "-E", "--exec":
			fromFile = true
		case "-e", "--source":
			progs = append(progs, o.value)
		case "-i", "--include", "-l", "--load":
			return "", false, false
		}
	}
	if len(progs) == 0 && !fromFile && len(p.operands) > 0 {
		progs = append(progs, p.operands[0].text)
	}
	return strings.Join(progs, "\n"), fromFile, true
}

// awkRunsCode reports programs that run commands or load code: system(),
// pipes to and from commands, @include/@load, and gawk's indirect calls
// (@f() can call system by a name built at run time).
func awkRunsCode(prog string) bool {
	if strings.Contains(prog, "system") || strings.Contains(prog, "|") {
		return true
	}
	for i := strings.IndexByte(prog, '@'); i >= 0; i = strings.IndexByte(prog, '@') {
		prog = prog[i+1:]
		if strings.HasPrefix(prog, "include") || strings.HasPrefix(prog, "load") ||
			strings.HasPrefix(prog, "nsinclude") {
			return true
		}
		n := nameLen(prog)
		if n > 0 && strings.HasPrefix(strings.TrimLeft(prog[n:], " \t"), "(") {
			return true
		}
	}
	return false
}

// awkReadOnly accepts awk programs with no output redirection and nothing
// that runs code. It is deliberately blunt: any '>' counts as a redirection.
func awkReadOnly(args []word) bool {
	prog, fromFile, ok := awkProgram(args)
	if !ok || fromFile {
		return false
	}
	return !strings.Contains(prog, ">") && !awkRunsCode(prog)
}
