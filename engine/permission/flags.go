package permission

import "strings"

// This file reads a command's options against an allowlist. The read-only
// classifier only trusts options it knows: an option added in a later
// release, or a GNU long option abbreviation (getopt_long takes --outp for
// --output), is simply not on the list, so the command is not read-only.

// optionSpec lists the options a program accepts in a read-only call.
type optionSpec struct {
	short    string   // short options that stand alone and may be clustered (-nr)
	shortArg string   // short options taking a value, attached (-k2) or as the next word
	shortOpt string   // short options with an optional value, attached only (-Iseconds)
	long     []string // long options that stand alone
	longArg  []string // long options taking a value, as --opt=v or the next word
	longOpt  []string // long options with an optional value, as --opt=v only
	number   bool     // -NUM is accepted (git log -5, git grep -3)
}

// option is one option read from a command line, named as written in the
// spec ("-e", "--expression").
type option struct {
	name  string
	value string
}

// parsedArgs is a command line read against an optionSpec.
type parsedArgs struct {
	opts     []option
	operands []word
}

// has reports whether any of the named options was given.
func (p parsedArgs) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// parse reads args. ok is false when an argument is not understood: an
// unknown option, a value that is missing or looks like an option, or a
// word whose expansion could turn into options (an unquoted or quoted
// expansion, a pattern starting with a wildcard). GNU programs take options
// after operands too, so every argument before "--" is checked.
func (s optionSpec) parse(args []word) (parsedArgs, bool) {
	var out parsedArgs
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text
		switch {
		case w.dynamic:
			// "$x" may be --output=f, and $x may split into several options.
			return out, false
		case t == "--":
			out.operands = append(out.operands, args[i+1:]...)
			for _, rest := range args[i+1:] {
				if rest.dynamic {
					return out, false
				}
			}
			return out, true
		case w.glob && leadingWildcard(t):
			// A pattern can expand to a file named --compress-program=sh.
			return out, false
		case strings.HasPrefix(t, "--"):
			o, took, ok := s.longOption(t, args[i+1:])
			if !ok {
				return out, false
			}
			out.opts = append(out.opts, o)
			i += took
		case strings.HasPrefix(t, "-") && len(t) > 1:
			opts, took, ok := s.shortOptions(t[1:], args[i+1:])
			if !ok {
				return out, false
			}
			out.opts = append(out.opts, opts...)
			i += took
		default:
			out.operands = append(out.operands, w)
		}
	}
	return out, true
}

// accepts reports whether args parse.
func (s optionSpec) accepts(args []word) bool {
	_, ok := s.parse(args)
	return ok
}

// longOption reads --name, --name=value or --name value; took counts the
// following words used as the value.
func (s optionSpec) longOption(t string, next []word) (o option, took int, ok bool) {
	name, val, hasVal := strings.Cut(t, "=")
	switch {
	case inList(s.long, name):
		return option{name: name}, 0, !hasVal
	case inList(s.longOpt, name):
		return option{name: name, value: val}, 0, true
	case inList(s.longArg, name):
		if hasVal {
			return option{name: name, value: val}, 0, true
		}
		v, ok := optionValue(next)
		return option{name: name, value: v}, 1, ok
	}
	return option{}, 0, false
}

// shortOptions reads one cluster such as nr, k2 or e followed by a value.
func (s optionSpec) shortOptions(cluster string, next []word) (opts []option, took int, ok bool) {
	if s.number && allDigits(cluster) {
		return []option{{name: "-" + cluster}}, 0, true
	}
	for j := 0; j < len(cluster); j++ {
		c := cluster[j]
		name := "-" + string(c)
		switch {
		case strings.IndexByte(s.short, c) >= 0:
			opts = append(opts, option{name: name})
		case strings.IndexByte(s.shortOpt, c) >= 0:
			return append(opts, option{name: name, value: cluster[j+1:]}), 0, true
		case strings.IndexByte(s.shortArg, c) >= 0:
			if j+1 < len(cluster) {
				return append(opts, option{name: name, value: cluster[j+1:]}), 0, true
			}
			v, ok := optionValue(next)
			return append(opts, option{name: name, value: v}), 1, ok
		default:
			return nil, 0, false
		}
	}
	return opts, 0, true
}

// optionValue takes the next word as an option's value. A value that looks
// like an option is refused: if the program did not expect a value there,
// it would read that word as an option the allowlist never checked.
func optionValue(next []word) (string, bool) {
	if len(next) == 0 {
		return "", false
	}
	w := next[0]
	if w.splits || strings.HasPrefix(w.text, "-") && len(w.text) > 1 {
		return "", false
	}
	if w.glob && leadingWildcard(w.text) {
		return "", false
	}
	return w.text, true
}

// leadingWildcard reports a pattern word that starts with a wildcard or
// brace, so its expansion may start with '-'.
func leadingWildcard(t string) bool {
	return t != "" && strings.IndexByte("*?[{", t[0]) >= 0
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
