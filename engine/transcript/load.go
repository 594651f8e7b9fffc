package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/reasonix/teams/engine/provider"
)

// ErrNoHeader means the file is not a transcript (its first record is not a
// header).
var ErrNoHeader = errors.New("transcript has no header record")

// Session is what Load rebuilds from a transcript.
type Session struct {
	Header Header
	// Messages is the current history: the latest compaction projection
	// followed by every message appended after it.
	Messages []provider.Message
	// Rewrite counts compactions, the prefix rewrite version.
	Rewrite int
	Usage   provider.Usage
	Cost    float64
	// Requests counts usage records.
	Requests int
	// LastUsage is the usage of the latest request, for cache diagnostics
	// that compare the next request with it.
	LastUsage provider.Usage
	// Skipped counts lines that were not valid records (a line torn by a
	// crash mid-write) and were ignored.
	Skipped int
}

// maxLine bounds one record; tool outputs are large but not unbounded.
const maxLine = 64 << 20

// Load reads a transcript back.
func Load(path string) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var s Session
	line := 0
	for sc.Scan() {
		line++
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			if line == 1 {
				return nil, fmt.Errorf("transcript %s: %w", path, ErrNoHeader)
			}
			s.Skipped++
			continue
		}
		if line == 1 && (r.Type != TypeHeader || r.Header == nil) {
			return nil, fmt.Errorf("transcript %s: %w", path, ErrNoHeader)
		}
		s.apply(r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("transcript %s: %w", path, ErrNoHeader)
	}
	return &s, nil
}

func (s *Session) apply(r Record) {
	switch r.Type {
	case TypeHeader:
		s.Header = *r.Header
	case TypeMessage:
		if r.Message != nil {
			s.Messages = append(s.Messages, *r.Message)
		}
	case TypeCompaction:
		if r.Compaction != nil {
			s.Messages = append([]provider.Message(nil), r.Compaction.Messages...)
			s.Rewrite = r.Compaction.Rewrite
		}
	case TypeUsage:
		if r.Usage != nil {
			s.Usage = s.Usage.Add(r.Usage.Usage)
			s.Cost += r.Usage.Cost
			s.Requests++
			s.LastUsage = r.Usage.Usage
		}
	}
}
