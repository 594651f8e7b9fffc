package permission

import "strings"

// This file reads the programs of sed and awk, which can write files and
// run commands from inside their scripts.

// sedScripts collects sed's scripts from its arguments, and reports -i
// (edit in place) and -f (a script file the policy cannot see).
func sedScripts(args []word) (scripts []string, inPlace, fromFile bool) {
	explicit := false
	var first string
	havePositional := false
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			if !explicit && !havePositional && i+1 < len(args) {
				first, havePositional = args[i+1].text, true
			}
			i = len(args)
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t, "=")
			switch name {
			case "--in-place":
				inPlace = true
			case "--expression":
				explicit = true
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i].text
				}
				scripts = append(scripts, val)
			case "--file":
				fromFile = true
			case "--line-length":
				if !hasVal {
					i++
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			cluster := t[1:]
			for j := 0; j < len(cluster); j++ {
				switch cluster[j] {
				case 'i':
					inPlace = true
					j = len(cluster) // -i.bak: the rest is a suffix
				case 'e', 'f', 'l':
					val := cluster[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].text
					}
					switch cluster[j] {
					case 'e':
						explicit = true
						scripts = append(scripts, val)
					case 'f':
						fromFile = true
					}
					j = len(cluster)
				}
			}
		default:
			if !havePositional {
				first, havePositional = t, true
			}
		}
	}
	if !explicit && havePositional {
		scripts = append(scripts, first)
	}
	return scripts, inPlace, fromFile
}

// sedReadOnly accepts sed without -i, -f, and w/W/e commands.
func sedReadOnly(args []word) bool {
	scripts, inPlace, fromFile := sedScripts(args)
	if inPlace || fromFile {
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

// awkProgram finds awk's program text. fromFile reports -f; ok is false
// for options that load code (-i, -l, --include, --load).
func awkProgram(args []word) (prog string, fromFile, ok bool) {
	var progs []string
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			if len(progs) == 0 && i+1 < len(args) {
				progs = append(progs, args[i+1].text)
			}
			return strings.Join(progs, "\n"), fromFile, true
		case t == "-f" || strings.HasPrefix(t, "--file"):
			fromFile = true
			i++
		case t == "-e" || t == "--source":
			if i+1 < len(args) {
				i++
				progs = append(progs, args[i].text)
			}
		case t == "-i" || t == "-l" || strings.HasPrefix(t, "--include") || strings.HasPrefix(t, "--load"):
			return "", false, false
		case t == "-F" || t == "-v":
			i++
		case strings.HasPrefix(t, "-") && len(t) > 1:
			// -F: or -vX=1 carry their value; other flags stand alone.
		default:
			if len(progs) == 0 && !fromFile {
				progs = append(progs, t)
			}
			return strings.Join(progs, "\n"), fromFile, true
		}
	}
	return strings.Join(progs, "\n"), fromFile, true
}

// awkReadOnly accepts awk programs with no output redirection, pipe or
// system() call. It is deliberately blunt: any '>' counts as a redirection.
func awkReadOnly(args []word) bool {
	prog, fromFile, ok := awkProgram(args)
	if !ok || fromFile {
		return false
	}
	return !strings.ContainsAny(prog, ">|") && !strings.Contains(prog, "system") && !strings.Contains(prog, "@load")
}
