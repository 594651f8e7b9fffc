package builtin

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
)

// searchNative is the built-in scanner, used when rg is not installed. It
// searches what rg is asked to search: regular files (symlinks are not
// followed) up to maxGrepFileSize, no binary files, nothing under .git or
// forbid_read.
func (t *grepTool) searchNative(ctx context.Context, q *grepQuery) ([]grepMatch, error) {
	var matches []grepMatch
	err := t.ws.walkFiles(ctx, q.base.real, func(abs string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		rel := t.ws.relative(abs)
		if !t.wants(q, rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxGrepFileSize {
			return nil
		}
		data, err := os.ReadFile(abs)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil
		}
		matches = scanLines(q, rel, data, matches)
		if len(matches) > q.limit {
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return matches, nil
}

// scanLines appends the lines of data that match, stopping once there are
// more than q.limit matches in all.
func scanLines(q *grepQuery, rel string, data []byte, matches []grepMatch) []grepMatch {
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if q.re.Match(line) {
			matches = append(matches, grepMatch{path: rel, line: n, text: string(line)})
			if len(matches) > q.limit {
				break
			}
		}
	}
	return matches
}
