package permission

import "strings"

// This file finds shell builtins that evaluate their arguments as code or
// set variables that change what runs. Bash evaluates array subscripts as
// arithmetic, and arithmetic runs $(...) found in a subscript even when the
// text is data: [[ 'a[$(rm x)]' -eq 0 ]], test -v 'a[$(rm x)]' and
// read 'a[$(rm x)]' all run rm. The test builtin ([ and test) does not
// evaluate -eq operands as arithmetic (bash checks them as plain numbers),
// but its -v does evaluate subscripts, like [['s.

// arithmeticOps are the comparisons [[ evaluates as arithmetic.
var arithmeticOps = map[string]bool{"-eq": true, "-ne": true, "-lt": true, "-le": true, "-gt": true, "-ge": true}

// testUnary and testBinary are the test operators whose operands are plain
// data. -v and -R are left out: their operand is a variable name.
var (
	testUnary = map[string]bool{"-b": true, "-c": true, "-d": true, "-e": true, "-f": true,
		"-g": true, "-h": true, "-k": true, "-L": true, "-n": true, "-N": true, "-O": true,
		"-G": true, "-p": true, "-r": true, "-s": true, "-S": true, "-t": true, "-u": true,
		"-w": true, "-x": true, "-z": true}
	testBinary = map[string]bool{"=": true, "==": true, "!=": true, "<": true, ">": true,
		"-nt": true, "-ot": true, "-ef": true, "-eq": true, "-ne": true, "-lt": true,
		"-le": true, "-gt": true, "-ge": true, "-a": true, "-o": true}
)

// evaluation reports why the builtin base, run with args, evaluates text
// as code or sets a variable that changes what runs; "" when it does not.
func evaluation(base string, args []word) string {
	switch base {
	case "[[":
		return condRisk(trimCloser(args, "]]"), true)
	case "[":
		return condRisk(trimCloser(args, "]"), false)
	case "test":
		return condRisk(args, false)
	case "let":
		return "let evaluates arithmetic"
	case "declare", "typeset", "local", "export", "readonly":
		return declareRisk(args)
	case "read", "mapfile", "readarray", "getopts", "wait", "unset":
		return nameArgsRisk(base, args)
	case "printf":
		return printfRisk(args)
	}
	return ""
}

// trimCloser drops the closing ]] or ] of a test.
func trimCloser(args []word, closer string) []word {
	if n := len(args); n > 0 && args[n-1].text == closer && !args[n-1].dynamic {
		return args[:n-1]
	}
	return args
}

// condRisk checks the words of [[ ]] (cond) or test / [ ].
func condRisk(args []word, cond bool) string {
	for i, w := range args {
		t := w.text
		switch {
		case (t == "-v" || t == "-R") && !w.dynamic:
			if i+1 < len(args) && nameRisk(args[i+1]) != "" {
				return "test " + t + " evaluates an array subscript"
			}
		case cond && arithmeticOps[t]:
			if i == 0 || i+1 >= len(args) || !numericOperand(args[i-1]) || !numericOperand(args[i+1]) {
				return "[[ " + t + " evaluates its operands as arithmetic"
			}
		case cond:
			// [[ does not split words or read operators from expansions.
		case w.splits || w.glob && leadingWildcard(t):
			return "test word may split into operators"
		case w.dynamic && len(args) > 1:
			// An expansion could be -v; it is safe only where it must be
			// an operand: after a data operator or before a binary one.
			prev := i > 0 && !args[i-1].dynamic && (testUnary[args[i-1].text] || testBinary[args[i-1].text])
			next := i+1 < len(args) && !args[i+1].dynamic && testBinary[args[i+1].text]
			if !prev && !next {
				return "test word may be an operator"
			}
		}
	}
	return ""
}

// numericOperand accepts operands that are surely numbers: literals, $#,
// $? and ${#name}.
func numericOperand(w word) bool {
	t := w.text
	if !w.dynamic {
		return integerLiteral(t)
	}
	switch t {
	case "$#", "$?", "${#}", "${?}":
		return true
	}
	if inner, ok := strings.CutPrefix(t, "${#"); ok && strings.HasSuffix(inner, "}") {
		inner = strings.TrimSuffix(inner, "}")
		inner = strings.TrimSuffix(strings.TrimSuffix(inner, "[@]"), "[*]")
		return isName(inner)
	}
	return false
}

// nameRisk reports why a word used as a variable name is unsafe: an
// expansion (its value is unknown), a subscript (evaluated as arithmetic),
// or a variable that changes what runs.
func nameRisk(w word) string {
	switch {
	case w.dynamic:
		return "variable name is an expansion"
	case !isName(w.text):
		return "array subscript"
	case riskyVariable(w.text):
		return "sets " + w.text
	}
	return ""
}

// declareRisk checks declare and its kin: -i makes later assignments
// arithmetic, -n makes a name a reference (subscripts included), and a
// compound array value evaluates its subscripts.
func declareRisk(args []word) string {
	arrays := false
	for _, w := range args {
		t := w.text
		switch {
		case w.isAssignment():
			name := strings.TrimSuffix(t[:w.nameEnd-1], "+")
			if riskyVariable(name) {
				return "sets " + name
			}
			if arrays && strings.Contains(t, "[") {
				return "array subscript"
			}
		case w.dynamic:
			return "declare argument is an expansion"
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
			if strings.ContainsAny(t[1:], "in") {
				return "declare " + t + " evaluates values"
			}
			arrays = arrays || strings.ContainsAny(t[1:], "aA")
		default:
			if !isName(t) {
				return "array subscript"
			}
		}
	}
	return ""
}

// nameArgsRisk checks builtins whose operands (or some option values) are
// variable names: read, mapfile, getopts, wait -p, unset.
func nameArgsRisk(base string, args []word) string {
	values := map[string]string{"read": "dinNptu", "mapfile": "dnOsuc", "readarray": "dnOsuc"}[base]
	names := map[string]string{"read": "a", "wait": "p"}[base]
	operands := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text
		if !w.dynamic && strings.HasPrefix(t, "-") && len(t) > 1 {
			if (base == "mapfile" || base == "readarray") && strings.Contains(t, "C") {
				return base + " -C runs a callback"
			}
			for j := 1; j < len(t); j++ {
				valued, named := strings.IndexByte(values, t[j]) >= 0, strings.IndexByte(names, t[j]) >= 0
				if !valued && !named {
					continue
				}
				v := word{text: t[j+1:]}
				if j+1 == len(t) {
					if i+1 >= len(args) {
						break
					}
					i++
					v = args[i]
				}
				if why := nameRisk(v); named && why != "" {
					return why
				}
				break
			}
			continue
		}
		operands++
		if base == "getopts" && operands == 1 {
			continue // the option string
		}
		if why := nameRisk(w); why != "" {
			return why
		}
	}
	return ""
}

// printfRisk checks printf -v, which assigns the output to a variable.
func printfRisk(args []word) string {
	if len(args) == 0 {
		return ""
	}
	first := args[0]
	switch {
	case first.splits:
		return "printf format may be -v"
	case !first.dynamic && strings.HasPrefix(first.text, "-v"):
		if len(first.text) > 2 {
			return nameRisk(word{text: first.text[2:]})
		}
		if len(args) > 1 {
			return nameRisk(args[1])
		}
	case first.dynamic && len(args) > 1:
		return nameRisk(args[1])
	}
	return ""
}
