package config

import (
	"strconv"
	"strings"
)

// Error is a configuration problem an operator can fix: which file, which
// line (0 when unknown), which dotted key (providers[0].kind), what is wrong
// and what to do about it. Commands map it to exit code 2.
type Error struct {
	File string // the config file, "" for built-in defaults or a flag value
	Key  string // dotted key with array indexes, "" when the problem is not one key's
	Line int    // 1-based line in File, 0 when unknown
	Msg  string // what is wrong and what to do
	// Err is the underlying cause, if any (a read error, for instance).
	Err error
}

// Error renders the problem on one line:
//
//	reasonix.toml:12: providers[0].kind: unknown kind "foo"; use "openai"
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(oneLine(e.Msg))
	return b.String()
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// oneLine folds a message onto a single line so that log lines and chat
// replies carrying it stay intact.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(parts, "; ")
}

// problem is one thing wrong with one value, before it becomes an *Error
// with the file and line.
type problem struct {
	path keyPath
	msg  string
}
