package builtin

import (
	"fmt"
	"sync"
)

// outputBuffer collects a command's combined output, keeping the first and
// the last limit/2 bytes so a runaway command cannot exhaust memory while
// the start (what ran) and the end (how it failed) both survive.
type outputBuffer struct {
	limit int

	mu      sync.Mutex // guards the fields below
	head    []byte
	tail    []byte // ring of at most limit/2 bytes once head is full
	start   int    // index of the oldest byte in tail, once it is full
	dropped int64
}

func newOutputBuffer(limit int) *outputBuffer { return &outputBuffer{limit: limit} }

// Write implements io.Writer; it never fails.
func (b *outputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	half := b.limit / 2
	if room := half - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(b.tail) < half {
			k := min(half-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		// The ring is full: overwrite the oldest bytes.
		k := copy(b.tail[b.start:], p)
		b.dropped += int64(k)
		b.start = (b.start + k) % half
		p = p[k:]
	}
	return n, nil
}

// String returns the kept output, with a marker where bytes were dropped.
func (b *outputBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := append(append([]byte{}, b.tail[b.start:]...), b.tail[:b.start]...)
	if b.dropped == 0 {
		return string(b.head) + string(tail)
	}
	return fmt.Sprintf("%s\n... [%d bytes of output omitted] ...\n%s", b.head, b.dropped, tail)
}
