package permission

import "strings"

// wordBuilder accumulates one word while it is lexed.
type wordBuilder struct {
	b       strings.Builder
	started bool
	quoted  bool
	dynamic bool
	splits  bool
	glob    bool
	tilde   bool
	// quoteAt is the text length when the first quote or expansion began,
	// -1 while the word is still all plain characters.
	quoteAt int
}

func newWordBuilder() wordBuilder { return wordBuilder{quoteAt: -1} }

func (w *wordBuilder) plain(c byte) {
	w.started = true
	w.b.WriteByte(c)
}

// special marks the start of quoted or expanded text.
func (w *wordBuilder) special() {
	w.started = true
	if w.quoteAt < 0 {
		w.quoteAt = w.b.Len()
	}
}

func (w *wordBuilder) word() word {
	out := word{text: w.b.String(), quoted: w.quoted, dynamic: w.dynamic, splits: w.splits, glob: w.glob, tilde: w.tilde}
	plain := out.text
	if w.quoteAt >= 0 {
		plain = out.text[:w.quoteAt]
	}
	if eq := strings.IndexByte(plain, '='); eq > 0 {
		name := plain[:eq]
		name = strings.TrimSuffix(name, "+")
		if isName(name) {
			out.nameEnd = eq + 1
		}
	}
	return out
}

// isName reports whether s is a shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// lexWord reads one word starting at p.pos: up to an unquoted blank, newline
// or operator character.
func (p *parser) lexWord() (word, error) {
	b := newWordBuilder()
	if c := p.peek(0); (c == '<' || c == '>') && p.peek(1) == '(' {
		if err := p.processSubstitution(&b); err != nil {
			return word{}, err
		}
	}
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case ' ', '\t', '\n', ';', '&', '|', ')', '<', '>':
			return b.word(), nil
		case '(':
			// NAME=(a b c) is an array assignment; anything else ends the word.
			if t := b.b.String(); b.started && strings.HasSuffix(t, "=") && b.quoteAt < 0 && isName(strings.TrimSuffix(t[:len(t)-1], "+")) {
				if err := p.arrayValue(&b); err != nil {
					return word{}, err
				}
				continue
			}
			return b.word(), nil
		case '\\':
			if p.peek(1) == '\n' {
				p.pos += 2
				continue
			}
			b.special()
			b.quoted = true
			if p.pos+1 >= len(p.src) {
				b.b.WriteByte('\\') // a trailing backslash stays literal
				p.pos++
				continue
			}
			b.b.WriteByte(p.src[p.pos+1])
			p.pos += 2
		case '\'':
			b.special()
			b.quoted = true
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				return word{}, p.fail("unterminated single quote")
			}
			b.b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
		case '"':
			b.special()
			b.quoted = true
			p.pos++
			if err := p.doubleQuoted(&b); err != nil {
				return word{}, err
			}
		case '$':
			next := p.peek(1)
			if err := p.dollar(&b); err != nil {
				return word{}, err
			}
			// Unquoted $x, ${x}, $(..) and $((..)) are split; $'..' and $".." are not.
			b.splits = b.splits || b.dynamic && next != '\'' && next != '"'
		case '`':
			if err := p.backtick(&b); err != nil {
				return word{}, err
			}
			b.splits = true
		case '*', '?', '[', '{':
			b.glob = true
			b.plain(c)
			p.pos++
		case '~':
			if !b.started {
				b.tilde = true
			}
			b.plain(c)
			p.pos++
		default:
			b.plain(c)
			p.pos++
		}
	}
	return b.word(), nil
}

// doubleQuoted reads the inside of "..." after the opening quote.
func (p *parser) doubleQuoted(b *wordBuilder) error {
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case '"':
			p.pos++
			return nil
		case '\\':
			next := p.peek(1)
			switch next {
			case '\n':
				p.pos += 2
			case '$', '`', '"', '\\':
				b.b.WriteByte(next)
				p.pos += 2
			default:
				b.b.WriteByte('\\')
				p.pos++
			}
		case '$':
			start := b.b.Len()
			if err := p.dollar(b); err != nil {
				return err
			}
			// "$@" and "${a[@]}" expand to several words even when quoted.
			if strings.Contains(b.b.String()[start:], "@") {
				b.splits = true
			}
		case '`':
			if err := p.backtick(b); err != nil {
				return err
			}
		default:
			b.b.WriteByte(c)
			p.pos++
		}
	}
	return p.fail("unterminated double quote")
}

// dollar reads an expansion starting at '$'.
func (p *parser) dollar(b *wordBuilder) error {
	start := p.pos
	next := p.peek(1)
	switch {
	case next == '(' && p.peek(2) == '(':
		b.special()
		b.dynamic = true
		p.pos += 3
		if err := p.arithmetic(')'); err != nil {
			return err
		}
	case next == '(':
		b.special()
		b.dynamic = true
		sp, err := p.sub(p.src, p.pos+2)
		if err != nil {
			return err
		}
		p.out.addIndirect("command substitution")
		if err := sp.parseList(')'); err != nil {
			return err
		}
		p.pos = sp.pos
	case next == '{':
		b.special()
		b.dynamic = true
		p.pos += 2
		body := p.pos
		if err := p.parameter(); err != nil {
			return err
		}
		if why := parameterRisk(p.src[body : p.pos-1]); why != "" {
			p.out.addIndirect(why)
		}
	case next == '\'':
		// $'...' decodes escapes such as \x72, so its value is not what it
		// looks like: treat it as an expansion.
		b.special()
		b.dynamic = true
		p.pos += 2
		for !p.eof() && p.src[p.pos] != '\'' {
			if p.src[p.pos] == '\\' {
				p.pos++
			}
			p.pos++
		}
		if p.eof() {
			return p.fail("unterminated $'...'")
		}
		p.pos++
	case next == '"':
		b.special()
		b.quoted = true
		p.pos += 2
		return p.doubleQuoted(b)
	case next == '[':
		// $[ ] is bash's old spelling of $(( )).
		b.special()
		b.dynamic = true
		p.pos += 2
		if err := p.arithmetic(']'); err != nil {
			return err
		}
	case isNameByte(next, true) || strings.IndexByte("@*#?$!-0123456789", next) >= 0 && next != 0:
		b.special()
		b.dynamic = true
		p.pos += 2
		if isNameByte(next, true) {
			for !p.eof() && isNameByte(p.src[p.pos], false) {
				p.pos++
			}
		}
	default:
		b.plain('$')
		p.pos++
		return nil
	}
	b.b.WriteString(p.src[start:min(p.pos, len(p.src))])
	return nil
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

// skipNested steps over the escape, quoted string or nested expansion
// starting at p.pos, parsing its inside so commands in it are still seen.
// It reports false when the byte there starts none of them.
func (p *parser) skipNested() (bool, error) {
	var discard wordBuilder
	switch p.src[p.pos] {
	case '\\':
		p.pos += 2
	case '\'':
		end := strings.IndexByte(p.src[p.pos+1:], '\'')
		if end < 0 {
			return true, p.fail("unterminated single quote")
		}
		p.pos += end + 2
	case '"':
		p.pos++
		return true, p.doubleQuoted(&discard)
	case '$':
		return true, p.dollar(&discard)
	case '`':
		return true, p.backtick(&discard)
	default:
		return false, nil
	}
	return true, nil
}

// parameter reads the inside of ${ ... } after the brace, following nested
// expansions and quotes.
func (p *parser) parameter() error {
	depth := 1
	for !p.eof() {
		if nested, err := p.skipNested(); err != nil {
			return err
		} else if nested {
			continue
		}
		switch p.src[p.pos] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				p.pos++
				return nil
			}
		}
		p.pos++
	}
	return p.fail("unterminated ${...}")
}

// backtick reads `...`, unescapes its body and splits it as a nested command.
func (p *parser) backtick(b *wordBuilder) error {
	b.special()
	b.dynamic = true
	start := p.pos
	p.pos++
	var body strings.Builder
	for {
		if p.eof() {
			return p.fail("unterminated backquote")
		}
		c := p.src[p.pos]
		if c == '`' {
			p.pos++
			break
		}
		if c == '\\' && p.pos+1 < len(p.src) && strings.IndexByte("`\\$", p.src[p.pos+1]) >= 0 {
			body.WriteByte(p.src[p.pos+1])
			p.pos += 2
			continue
		}
		body.WriteByte(c)
		p.pos++
	}
	b.b.WriteString(p.src[start:p.pos])
	p.out.addIndirect("command substitution")
	sp, err := p.sub(body.String(), 0)
	if err != nil {
		return err
	}
	return sp.parseList(0)
}

// processSubstitution reads <( ... ) or >( ... ) as a word.
func (p *parser) processSubstitution(b *wordBuilder) error {
	b.special()
	b.dynamic = true
	start := p.pos
	sp, err := p.sub(p.src, p.pos+2)
	if err != nil {
		return err
	}
	p.out.addIndirect("process substitution")
	if err := sp.parseList(')'); err != nil {
		return err
	}
	p.pos = sp.pos
	b.b.WriteString(p.src[start:p.pos])
	return nil
}

// arrayValue reads the ( ... ) of NAME=( ... ).
func (p *parser) arrayValue(b *wordBuilder) error {
	b.special()
	b.dynamic = true
	start := p.pos
	p.pos++
	for !p.eof() {
		if nested, err := p.skipNested(); err != nil {
			return err
		} else if nested {
			continue
		}
		switch p.src[p.pos] {
		case ')':
			p.pos++
			b.b.WriteString(p.src[start:p.pos])
			return nil
		case '[':
			// ([sub]=v): bash evaluates an indexed array's subscripts as
			// arithmetic, which can run code.
			p.out.addIndirect("array subscript")
		}
		p.pos++
	}
	return p.fail("unterminated array assignment")
}
