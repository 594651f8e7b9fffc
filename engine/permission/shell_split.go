package permission

import (
	"fmt"
	"strings"
)

// This file splits a bash command line into simple commands (segments) the
// policy can judge one by one. It is a conservative reader of bash syntax,
// not an interpreter: anything it cannot read with confidence is an error,
// and the policy treats an error as "ask a human".

// maxNesting bounds substitution nesting so hostile input cannot exhaust
// the stack.
const maxNesting = 32

// word is one shell word after quote removal.
type word struct {
	text    string // literal value; expansions are kept as written
	quoted  bool   // some part was quoted or backslash-escaped
	dynamic bool   // holds an expansion: $x, ${x}, $(..), `..`, $'..', $((..))
	// splits is true when an expansion is unquoted, so bash may split its
	// value into several words (and expand patterns in them).
	splits bool
	glob   bool // holds an unquoted *, ?, [ or { (pathname or brace expansion)
	tilde  bool // starts with an unquoted ~
	// nameEnd is the length of an unquoted NAME= or NAME+= prefix, 0 if none.
	nameEnd int
}

// isAssignment reports whether the word is a variable assignment.
func (w word) isAssignment() bool { return w.nameEnd > 0 }

// redirect is one redirection of a simple command.
type redirect struct {
	op     string // >, >>, >|, &>, &>>, <>, >&, <, <<, <<-, <<<, <&
	target word
}

// segment is one simple command: its words, without redirections.
type segment struct {
	words  []word
	redirs []redirect
	nested bool // inside a command or process substitution
}

// script is a split command line.
type script struct {
	segments []segment // top-level and nested, in source order
	indirect []string  // why the line executes code indirectly, deduplicated
	grouped  bool      // a subshell, a background job or a function body
	// rereads counts "((" that turned out to be subshells and were read
	// again; it is bounded so nested ones cannot make splitting exponential.
	rereads int
}

// compound reports whether the line is more than one plain simple command.
func (s *script) compound() bool {
	top := 0
	for _, seg := range s.segments {
		if !seg.nested {
			top++
		}
	}
	return top > 1 || s.grouped || len(s.indirect) > 0
}

func (s *script) addIndirect(reason string) {
	for _, r := range s.indirect {
		if r == reason {
			return
		}
	}
	s.indirect = append(s.indirect, reason)
}

// splitError is a command line the splitter cannot read.
type splitError struct {
	pos int
	msg string
}

func (e *splitError) Error() string { return fmt.Sprintf("at byte %d: %s", e.pos, e.msg) }

// splitCommand splits a command line. On error the returned script still
// holds what was read before the problem, so deny rules can be applied to it.
func splitCommand(line string) (*script, error) {
	out := &script{}
	p := &parser{src: line, out: out}
	err := p.parseList(0)
	return out, err
}

// heredoc is a here-document whose body starts after the current line.
type heredoc struct {
	delim  string
	quoted bool // a quoted delimiter: the body is plain data
	strip  bool // <<- strips leading tabs
}

// parser reads one source string. Substitutions get a parser of their own
// that shares the output script.
type parser struct {
	src      string
	pos      int
	depth    int
	nested   bool
	out      *script
	seg      segment
	parens   int
	heredocs []heredoc
}

func (p *parser) fail(msg string) error { return &splitError{pos: p.pos, msg: msg} }

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek(off int) byte {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return 0
}

// sub returns a parser for src (a substitution body) one level deeper.
func (p *parser) sub(src string, pos int) (*parser, error) {
	if p.depth+1 > maxNesting {
		return nil, p.fail("substitutions nested too deeply")
	}
	return &parser{src: src, pos: pos, depth: p.depth + 1, nested: true, out: p.out}, nil
}

// endSegment records the current simple command, if it has anything.
func (p *parser) endSegment() {
	if len(p.seg.words) > 0 || len(p.seg.redirs) > 0 {
		p.seg.nested = p.nested
		p.out.segments = append(p.out.segments, p.seg)
	}
	p.seg = segment{}
}

// parseList reads commands until closer (')' inside $( ) or <( ), or the end
// of the source when closer is 0.
func (p *parser) parseList(closer byte) error {
	for {
		for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
			p.pos++
		}
		if p.eof() {
			p.endSegment()
			switch {
			case closer != 0:
				return p.fail("unterminated substitution: missing ')'")
			case p.parens > 0:
				return p.fail("unclosed '('")
			}
			return p.readHeredocs()
		}
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.endSegment()
			p.pos++
			if err := p.readHeredocs(); err != nil {
				return err
			}
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ';':
			p.endSegment()
			for !p.eof() && (p.src[p.pos] == ';' || p.src[p.pos] == '&') {
				p.pos++
			}
		case c == '&' && p.peek(1) == '>':
			if err := p.redirection(); err != nil {
				return err
			}
		case c == '&':
			p.endSegment()
			if p.peek(1) == '&' {
				p.pos += 2
			} else {
				p.out.grouped = true // a background job
				p.pos++
			}
		case c == '|':
			p.endSegment()
			p.pos++
			if p.peek(0) == '|' || p.peek(0) == '&' {
				p.pos++
			}
		case c == '(':
			if len(p.seg.words) == 0 && p.peek(1) == '(' {
				done, err := p.arithmeticCommand()
				if err != nil {
					return err
				}
				if done {
					continue
				}
			}
			if len(p.seg.words) > 0 {
				if err := p.functionDefinition(); err != nil {
					return err
				}
				continue
			}
			p.endSegment()
			p.parens++
			p.out.grouped = true
			p.pos++
		case c == ')':
			p.endSegment()
			p.pos++
			switch {
			case p.parens > 0:
				p.parens--
			case closer == ')':
				return p.readHeredocs()
			default:
				p.pos--
				return p.fail("unexpected ')'")
			}
		case (c == '<' || c == '>') && p.peek(1) == '(':
			w, err := p.lexWord()
			if err != nil {
				return err
			}
			p.seg.words = append(p.seg.words, w)
		case c == '<' || c == '>':
			if err := p.redirection(); err != nil {
				return err
			}
		default:
			w, err := p.lexWord()
			if err != nil {
				return err
			}
			if next := p.peek(0); (next == '<' || next == '>') && isFD(w) {
				if err := p.redirection(); err != nil {
					return err
				}
				continue
			}
			p.seg.words = append(p.seg.words, w)
		}
	}
}

// functionDefinition handles "name() body": bash would define a function,
// which runs nothing now but can shadow any command later.
func (p *parser) functionDefinition() error {
	p.pos++
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.peek(0) != ')' {
		return p.fail("unexpected '(' after a word")
	}
	p.pos++
	p.out.addIndirect("function definition")
	p.out.grouped = true
	p.endSegment()
	return nil
}

// isFD reports whether w is a file-descriptor number written before a
// redirection operator, as in 2>file.
func isFD(w word) bool {
	if w.quoted || w.dynamic || w.text == "" {
		return false
	}
	for _, r := range w.text {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// redirection reads an operator at p.pos and its target.
func (p *parser) redirection() error {
	ops := []string{"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">"}
	var op string
	for _, o := range ops {
		if strings.HasPrefix(p.src[p.pos:], o) {
			op = o
			break
		}
	}
	p.pos += len(op)
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	procSubst := (p.peek(0) == '<' || p.peek(0) == '>') && p.peek(1) == '('
	if p.eof() || !procSubst && strings.IndexByte(" \t\n;&|()<>", p.src[p.pos]) >= 0 {
		return p.fail("redirection " + op + " without a target")
	}
	target, err := p.lexWord()
	if err != nil {
		return err
	}
	if op == "<<" || op == "<<-" {
		p.heredocs = append(p.heredocs, heredoc{delim: target.text, quoted: target.quoted, strip: op == "<<-"})
	}
	p.seg.redirs = append(p.seg.redirs, redirect{op: op, target: target})
	return nil
}

// readHeredocs consumes the bodies of the here-documents opened on the line
// that just ended. A quoted delimiter makes the body data; an unquoted one
// means bash expands $(...) and backticks in it, so those are read too.
func (p *parser) readHeredocs() error {
	docs := p.heredocs
	p.heredocs = nil
	for _, h := range docs {
		p.pos = min(p.pos, len(p.src))
		start := p.pos
		end := len(p.src)
		for p.pos < len(p.src) {
			nl := strings.IndexByte(p.src[p.pos:], '\n')
			lineEnd := len(p.src)
			if nl >= 0 {
				lineEnd = p.pos + nl
			}
			line := p.src[p.pos:lineEnd]
			if h.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == h.delim {
				end = p.pos
				p.pos = min(lineEnd+1, len(p.src))
				break
			}
			p.pos = min(lineEnd+1, len(p.src))
		}
		if h.quoted {
			continue
		}
		body := p.src[start:min(end, len(p.src))]
		sp, err := p.sub(body, 0)
		if err != nil {
			return err
		}
		sp.nested = p.nested
		if err := sp.expandText(); err != nil {
			return err
		}
	}
	return nil
}

// expandText scans p.src as the body of an unquoted here-document: only
// backslashes, $ and backticks are special.
func (p *parser) expandText() error {
	var b wordBuilder
	for !p.eof() {
		switch c := p.src[p.pos]; c {
		case '\\':
			p.pos += 2
		case '$':
			if err := p.dollar(&b); err != nil {
				return err
			}
		case '`':
			if err := p.backtick(&b); err != nil {
				return err
			}
		default:
			p.pos++
		}
	}
	return nil
}
