package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/BurntSushi/toml"
)

// Parse decodes reasonix.toml text, fills the defaults of every key it
// leaves out, expands ${VAR} and ~/ in URL and path values, and validates
// the result. source names the file in errors and becomes Config.Source;
// empty data gives the built-in defaults. Every error is an *Error.
func Parse(data []byte, source string) (*Config, error) {
	src := string(data)
	var raw map[string]any
	if _, err := toml.Decode(src, &raw); err != nil {
		return nil, syntaxError(source, err)
	}
	lines := indexLines(src)
	fail := func(p problem) *Error {
		return &Error{File: source, Key: p.path.String(), Line: lines.lineOf(p.path), Msg: p.msg}
	}

	var problems []problem
	checkSchema(raw, reflect.TypeFor[Config](), nil, &problems)
	if len(problems) > 0 {
		return nil, fail(firstInFile(problems, lines))
	}

	var c Config
	md, err := toml.Decode(src, &c)
	if err != nil {
		// checkSchema accepts only what decodes; this is a safety net.
		return nil, syntaxError(source, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		var p keyPath
		for _, k := range undecoded[0] {
			p = p.key(k)
		}
		return nil, fail(problem{p, "unknown key; see reasonix.example.toml for the keys"})
	}

	applyDefaults(&c, raw)
	if p := expandStrings(&c); p != nil {
		return nil, fail(*p)
	}
	applyRepoForges(&c)
	if p := validate(&c); p != nil {
		return nil, fail(*p)
	}
	c.Source = source
	return &c, nil
}

// firstInFile picks the problem that comes first in the file, so fixing
// errors top to bottom works; problems the scan could not place come last.
func firstInFile(problems []problem, lines lineIndex) problem {
	rank := func(p problem) int {
		if n := lines.lineOf(p.path); n > 0 {
			return n
		}
		return int(^uint(0) >> 1)
	}
	return slices.MinFunc(problems, func(a, b problem) int { return rank(a) - rank(b) })
}

// syntaxError turns a toml decoding error into an *Error, keeping the line
// the decoder reports.
func syntaxError(source string, err error) *Error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: source, Line: pe.Position.Line, Msg: fmt.Sprintf("invalid TOML: %s", pe.Message), Err: err}
	}
	return &Error{File: source, Msg: fmt.Sprintf("invalid TOML: %v", err), Err: err}
}
