package bots

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Split cuts markdown text into chunks of at most max bytes, each valid
// UTF-8 when text is. It cuts preferably at a blank line, then at a line
// break, then at a space, and only then inside a word (never inside a
// rune); the whitespace at a cut is dropped. A chunk that ends inside a
// ``` code block is closed with a fence line and the next chunk reopens
// the block with the same info string (```go), within the limit. Empty
// text gives nil; max <= 0 means no limit, and a max below 4 bytes is
// raised to 4 so that every rune fits.
func Split(text string, max int) []string {
	if text == "" {
		return nil
	}
	if max <= 0 || len(text) <= max {
		return []string{text}
	}
	limit := max
	if limit < utf8.UTFMax {
		limit = utf8.UTFMax
	}
	s := newSplitter(text)
	return s.chunks(limit)
}

// minFenceBody is the least room for content that makes closing and
// reopening a code block worth its bytes; below it, chunks are cut raw.
const minFenceBody = 16

// fenceLine is a line that opens or closes a ``` code block.
type fenceLine struct {
	start, end int    // the line's bytes in the text, without its newline
	opens      bool   // opens a block; otherwise closes the open one
	marker     string // the run of backticks
	info       string // the info string of an opening line (go, diff)
}

// splitter holds a text and the code fences found in it, in order.
type splitter struct {
	text    string
	fences  []fenceLine
	reserve int // bytes a closing fence line may add to a chunk
}

func newSplitter(text string) *splitter {
	s := &splitter{text: text}
	openMarker := "" // the marker of the block open at start, if any
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimRight(strings.TrimLeft(text[start:end], " \t"), "\r")
		if ticks := len(line) - len(strings.TrimLeft(line, "`")); ticks >= 3 {
			rest := strings.TrimSpace(line[ticks:])
			switch {
			case openMarker == "" && !strings.Contains(rest, "`"):
				openMarker = line[:ticks]
				s.fences = append(s.fences, fenceLine{start: start, end: end, opens: true, marker: openMarker, info: rest})
				s.reserve = max(s.reserve, 1+len(openMarker))
			case openMarker != "" && rest == "" && ticks >= len(openMarker):
				s.fences = append(s.fences, fenceLine{start: start, end: end, marker: line[:ticks]})
				openMarker = ""
			}
		}
		start = end + 1
	}
	return s
}

// chunks cuts the text into pieces of at most limit bytes.
func (s *splitter) chunks(limit int) []string {
	text := s.text
	var out []string
	var open *fenceLine // the code block open at pos
	pos := 0
	for {
		if open == nil {
			for pos < len(text) && text[pos] == '\n' {
				pos++
			}
			// A chunk that starts with a block starts inside it: the
			// opening line is written as the reopening prefix, so the
			// chunk cannot end up holding nothing but that line.
			if f := s.openerAt(pos); f != nil && s.repairable(f, limit) {
				open, pos = f, min(f.end+1, len(text))
			}
		}
		if strings.TrimSpace(text[pos:]) == "" {
			return out
		}
		prefix, budget := "", limit
		repair := s.repairable(open, limit)
		if open != nil && repair {
			prefix = open.reopening()
			budget -= len(prefix)
		}
		if len(text)-pos <= budget {
			return append(out, prefix+text[pos:])
		}

		end, next := s.cut(pos, budget)
		if repair && s.openAt(end) != nil {
			end, next = s.cut(pos, budget-s.reserve)
		}
		end, next = s.avoidBareOpener(pos, end, next)
		f := s.openAt(end)
		closing := ""
		if repair && f != nil {
			closing = "\n" + f.marker
		}
		if body := text[pos:end]; strings.TrimSpace(body) != "" {
			out = append(out, prefix+body+closing)
		}
		if closing != "" {
			// The block was just closed; its own closing line right at
			// the cut would only reopen and close an empty block.
			if c := s.closerAt(next); c != nil {
				next, f = min(c.end+1, len(text)), nil
			}
		}
		open, pos = f, next
	}
}

// reopening is the line that reopens the block in a new chunk.
func (f *fenceLine) reopening() string { return f.marker + f.info + "\n" }

// repairable reports whether a chunk that starts inside the block open
// (nil: none) has room to reopen it and to close a block at its end.
func (s *splitter) repairable(open *fenceLine, limit int) bool {
	budget := limit - s.reserve
	if open != nil {
		budget -= len(open.reopening())
	}
	return budget >= minFenceBody
}

// cut picks where the chunk starting at pos ends (end, at most budget
// bytes on) and where the next one starts (next, after the separator).
// It takes the best kind of break in the second half of the room, then the
// best kind anywhere, then a hard cut on a rune boundary.
func (s *splitter) cut(pos, budget int) (end, next int) {
	for _, least := range []int{budget / 2, 1} {
		for _, sep := range []string{"\n\n", "\n", " "} {
			win := s.text[pos:min(len(s.text), pos+budget+len(sep))]
			if i := strings.LastIndex(win, sep); i >= least {
				return pos + i, pos + i + len(sep)
			}
		}
	}
	end = pos + budget
	for end > pos && !utf8.RuneStart(s.text[end]) {
		end--
	}
	if end == pos { // not UTF-8: cut anyway
		end = pos + budget
	}
	return end, end
}

// avoidBareOpener moves a cut that falls right after a fence's opening
// line to before that line, so no chunk ends with an empty code block.
func (s *splitter) avoidBareOpener(pos, end, next int) (int, int) {
	k := s.fencesThrough(end)
	if k == 0 {
		return end, next
	}
	f := s.fences[k-1]
	if !f.opens || f.start <= pos || strings.TrimSpace(s.text[f.end:end]) != "" {
		return end, next
	}
	e := f.start
	for e > pos && (s.text[e-1] == '\n' || s.text[e-1] == ' ') {
		e--
	}
	if strings.TrimSpace(s.text[pos:e]) == "" {
		return end, next
	}
	return e, f.start
}

// fencesThrough counts the fence lines that end at or before c.
func (s *splitter) fencesThrough(c int) int {
	return sort.Search(len(s.fences), func(i int) bool { return s.fences[i].end > c })
}

// openAt returns the code block open after text[:c], or nil.
func (s *splitter) openAt(c int) *fenceLine {
	k := s.fencesThrough(c)
	if k == 0 || !s.fences[k-1].opens {
		return nil
	}
	return &s.fences[k-1]
}

// closerAt returns the closing fence line that starts at c, or nil.
func (s *splitter) closerAt(c int) *fenceLine {
	if f := s.fenceAt(c); f != nil && !f.opens {
		return f
	}
	return nil
}

// openerAt returns the opening fence line that starts at c, or nil.
func (s *splitter) openerAt(c int) *fenceLine {
	if f := s.fenceAt(c); f != nil && f.opens {
		return f
	}
	return nil
}

// fenceAt returns the fence line that starts at c, or nil.
func (s *splitter) fenceAt(c int) *fenceLine {
	k := sort.Search(len(s.fences), func(i int) bool { return s.fences[i].start >= c })
	if k < len(s.fences) && s.fences[k].start == c {
		return &s.fences[k]
	}
	return nil
}
