package permission

import "strings"

// This file reads the places where bash evaluates text as an arithmetic
// expression: $(( )), $[ ], the (( )) command, and array subscripts and
// substring offsets in ${ }. Arithmetic is a way to run code: bash reads a
// variable named in an expression as an expression in its turn, and an
// array subscript inside one has its $(...) run, even when the text came
// from a single-quoted word or a variable. So
//
//	x='a[$(rm -rf ~)]'; echo $((x))
//
// runs rm. An expression made only of numbers and operators is harmless;
// one that names a variable, expands a parameter or holds quoted text makes
// the line indirect.

// arithmeticReason is the indirect reason for arithmetic on anything but
// number literals.
const arithmeticReason = "arithmetic on variables"

// arithmetic reads an expression after its opener ("$((" or "((" when
// closer is ')', "$[" when it is ']') and past its closer. Substitutions
// inside are split like any other, so deny rules see them.
func (p *parser) arithmetic(closer byte) error {
	open, depth := byte('('), 2
	if closer == ']' {
		open, depth = '[', 1
	}
	risky, number := false, false
	var discard wordBuilder
	for !p.eof() {
		c := p.src[p.pos]
		inName := isNameByte(c, false) || c == '#' || c == '@'
		if !inName {
			number = false
		}
		switch {
		case c == open:
			depth++
			p.pos++
		case c == closer:
			depth--
			p.pos++
			if closer == ')' && depth == 1 && p.peek(0) != ')' {
				// Like bash: "((" is arithmetic only when the parenthesis
				// it opened is closed by "))"; "((ls); (pwd))" is not.
				return p.fail("not an arithmetic expression")
			}
			if depth == 0 {
				if risky {
					p.out.addIndirect(arithmeticReason)
				}
				return nil
			}
		case c == '\\':
			p.pos += 2
			risky = true
		case c == '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				return p.fail("unterminated single quote")
			}
			p.dataCode(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
			risky = true
		case c == '"':
			p.pos++
			if err := p.doubleQuoted(&discard); err != nil {
				return err
			}
			risky = true
		case c == '$':
			start := p.pos
			if err := p.dollar(&discard); err != nil {
				return err
			}
			// $# and $? are always numbers; anything else may hold text.
			if s := p.src[start:min(p.pos, len(p.src))]; s != "$#" && s != "$?" {
				risky = true
			}
		case c == '`':
			if err := p.backtick(&discard); err != nil {
				return err
			}
			risky = true
		case inName:
			// A token starting with a digit is a number (0x1f, 16#ff);
			// one starting with a letter names a variable.
			if !number {
				if c >= '0' && c <= '9' {
					number = true
				} else {
					risky = true
				}
			}
			p.pos++
		default:
			p.pos++
		}
	}
	if closer == ']' {
		return p.fail("unterminated $[...]")
	}
	return p.fail("unterminated $((...))")
}

// maxRereads bounds how many "((" may be read again as subshells.
const maxRereads = 8

// arithmeticCommand reads "(( expr ))" at the start of a command. It
// reports false, with nothing consumed, when the text is not one; bash then
// reads it as nested subshells, and so does the caller.
func (p *parser) arithmeticCommand() (bool, error) {
	save := p.pos
	p.pos += 2
	if err := p.arithmetic(')'); err != nil {
		p.pos = save
		p.out.rereads++
		if p.out.rereads > maxRereads {
			return false, p.fail("too many '((' that are not arithmetic")
		}
		return false, nil
	}
	p.out.grouped = true
	return true, nil
}

// dataCode splits quoted text that bash will evaluate as an expression, so
// deny rules see the commands a subscript in it would run. Text that does
// not parse is left alone: the line is indirect anyway.
func (p *parser) dataCode(text string) {
	if !strings.ContainsAny(text, "$`") {
		return
	}
	sp, err := p.sub(text, 0)
	if err != nil {
		return
	}
	_ = sp.parseList(0)
}

// parameterRisk reports why the inside of ${ } makes bash evaluate text as
// code, "" when it does not: a subscript or substring offset that is not a
// number literal, indirection (${!name}), and prompt expansion (${x@P}),
// which runs $(...) found in the value.
func parameterRisk(body string) string {
	if rest, ok := strings.CutPrefix(body, "!"); ok && rest != "" {
		n := nameLen(rest)
		switch tail := rest[n:]; {
		case n > 0 && (tail == "*" || tail == "@" || tail == "[@]" || tail == "[*]"):
			return "" // lists names or keys, expands nothing
		}
		return "indirect parameter expansion"
	}
	i := 0
	if len(body) > 1 && body[0] == '#' {
		i = 1 // ${#x}: the length
	}
	switch n := nameLen(body[i:]); {
	case n > 0:
		i += n
	case i < len(body) && body[i] >= '0' && body[i] <= '9':
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
	case i < len(body) && strings.IndexByte("@*#?$!-", body[i]) >= 0:
		i++
	default:
		return ""
	}
	if i < len(body) && body[i] == '[' {
		end := strings.LastIndexByte(body, ']')
		if end < i || !plainSubscript(body[i+1:end]) {
			return "array subscript"
		}
		i = end + 1
	}
	rest := body[i:]
	switch {
	case strings.HasPrefix(rest, "@P"):
		return "prompt expansion"
	case len(rest) > 1 && rest[0] == ':' && strings.IndexByte("-=?+", rest[1]) < 0:
		for _, part := range strings.Split(rest[1:], ":") {
			if !integerLiteral(strings.TrimSpace(part)) {
				return "substring offset"
			}
		}
	}
	return ""
}

// nameLen is the length of the variable name at the start of s.
func nameLen(s string) int {
	n := 0
	for n < len(s) && isNameByte(s[n], n == 0) {
		n++
	}
	return n
}

// plainSubscript accepts the subscripts bash does not evaluate as code:
// @, * and number literals.
func plainSubscript(s string) bool {
	return s == "@" || s == "*" || integerLiteral(s)
}

// integerLiteral reports a decimal number with an optional sign.
func integerLiteral(s string) bool {
	return allDigits(strings.TrimLeft(s, "+-")) && len(s)-len(strings.TrimLeft(s, "+-")) <= 1
}
