package config

import (
	"strconv"
	"strings"
)

// lineIndex maps a rendered keyPath to the line where it first appears in
// the source. The toml package reports lines for syntax errors only, so a
// light scan of the text finds them for unknown keys, wrong types and
// invalid values. It understands table headers, arrays of tables, dotted
// and quoted keys, and skips the insides of multi-line strings and arrays;
// a key it cannot place (inside an inline table, say) falls back to the
// line of its nearest parent.
type lineIndex map[string]int

// lineOf returns the line of p, or of its nearest parent the scan placed,
// or 0.
func (ix lineIndex) lineOf(p keyPath) int {
	for ; len(p) > 0; p = p.parent() {
		if n, ok := ix[p.String()]; ok {
			return n
		}
	}
	return 0
}

func (ix lineIndex) record(p keyPath, line int) {
	if _, seen := ix[p.String()]; !seen {
		ix[p.String()] = line
	}
}

// indexLines scans TOML source text. It never fails: text it does not
// understand is skipped, and decoding reports the real syntax errors.
func indexLines(src string) lineIndex {
	ix := lineIndex{}
	arrays := map[string]int{} // array-of-tables path -> index of its last element
	var table keyPath
	openString := "" // delimiter of a multi-line string still open
	depth := 0       // brackets and braces still open in a multi-line value
	for i, line := range strings.Split(src, "\n") {
		lineNo := i + 1
		if openString != "" {
			end := strings.Index(line, openString)
			if end < 0 {
				continue
			}
			line, openString = line[end+3:], ""
			depth, openString = scanValue(line, depth)
			continue
		}
		if depth > 0 {
			depth, openString = scanValue(line, depth)
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "" || t[0] == '#':
		case strings.HasPrefix(t, "[["):
			if segs, rest, ok := parseKey(t[2:]); ok && strings.HasPrefix(rest, "]]") {
				table = headerPath(ix, arrays, segs, true, lineNo)
			}
		case t[0] == '[':
			if segs, rest, ok := parseKey(t[1:]); ok && strings.HasPrefix(rest, "]") {
				table = headerPath(ix, arrays, segs, false, lineNo)
			}
		default:
			segs, rest, ok := parseKey(t)
			if !ok || !strings.HasPrefix(rest, "=") {
				continue
			}
			p := table
			for _, s := range segs {
				p = p.key(s)
				ix.record(p, lineNo)
			}
			depth, openString = scanValue(rest[1:], 0)
		}
	}
	return ix
}

// headerPath resolves a [table] or [[array]] header to the path it opens,
// indexing through arrays of tables the way TOML does (a sub-table belongs
// to the array's last element), and records the header's line.
func headerPath(ix lineIndex, arrays map[string]int, segs []string, isArray bool, line int) keyPath {
	var p keyPath
	for i, s := range segs {
		p = p.key(s)
		k := p.String()
		if isArray && i == len(segs)-1 {
			idx, seen := arrays[k]
			if seen {
				idx++
			}
			arrays[k] = idx
			ix.record(p, line)
			p = p.index(idx)
		} else if idx, ok := arrays[k]; ok {
			p = p.index(idx)
		}
		ix.record(p, line)
	}
	return p
}

// parseKey reads a possibly dotted, possibly quoted key from the start of s
// and returns its segments and the text after it (spaces trimmed).
func parseKey(s string) (segs []string, rest string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, "", false
		}
		var seg string
		switch s[0] {
		case '"':
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, "", false
			}
			unq, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, "", false
			}
			seg, s = unq, s[end+1:]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, "", false
			}
			seg, s = s[1:end+1], s[end+2:]
		default:
			end := 0
			for end < len(s) && isBareKeyRune(rune(s[end])) {
				end++
			}
			if end == 0 {
				return nil, "", false
			}
			seg, s = s[:end], s[end:]
		}
		segs = append(segs, seg)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return segs, s, true
		}
		s = s[1:]
	}
}

// scanValue follows one line of a value and reports how many brackets and
// braces remain open after it, and the delimiter of a multi-line string it
// leaves open ("" when none). Comments end the line.
func scanValue(s string, depth int) (int, string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '#':
			return depth, ""
		case '[', '{':
			depth++
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			delim := string(c)
			if strings.HasPrefix(s[i:], strings.Repeat(delim, 3)) {
				delim = strings.Repeat(delim, 3)
			}
			end := closing(s[i+len(delim):], delim)
			if end < 0 {
				if len(delim) == 3 {
					return depth, delim
				}
				return depth, "" // unterminated: the decoder will say so
			}
			i += len(delim) + end + len(delim) - 1
		}
	}
	return depth, ""
}

// closing finds the end delimiter of a string body, honouring backslash
// escapes in basic strings.
func closing(s, delim string) int {
	for i := 0; i < len(s); i++ {
		if delim[0] == '"' && s[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], delim) {
			return i
		}
	}
	return -1
}
