package agent

import (
	"fmt"
	"unicode/utf8"
)

// maxResultBytes bounds a tool result as it enters the history. The full
// output stays in the transcript.
const maxResultBytes = 32 << 10

// bound keeps the head and tail of s within max bytes, with an explicit
// marker saying how much was cut. It reports whether it cut anything.
func bound(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	marker := fmt.Sprintf("\n\n[... %d bytes omitted: output exceeded %d KB; narrow the command or read the file in parts ...]\n\n", len(s)-max, max>>10)
	keep := max - len(marker)
	if keep < 0 {
		keep = 0
	}
	head := cutValid(s[:keep*2/3], false)
	tail := cutValid(s[len(s)-(keep-len(head)):], true)
	return head + marker + tail, true
}

// cutValid trims a partial UTF-8 rune from the end (or, for a tail, from the
// start) of s.
func cutValid(s string, isTail bool) string {
	if isTail {
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		return s
	}
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}
