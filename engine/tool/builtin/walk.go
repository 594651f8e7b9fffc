package builtin

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
)

// walkFiles calls fn with the absolute path of every entry under base that
// is not a directory, in path order (see pathLess). It skips .git and
// forbidden subtrees silently, skips what it cannot read, and does not
// follow symlinks. fn may return filepath.SkipAll to stop early.
func (w *workspace) walkFiles(ctx context.Context, base string, fn func(abs string, d fs.DirEntry) error) error {
	return filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == base {
				return err
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p != base && (d.Name() == ".git" || w.isForbidden(p)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		return fn(p, d)
	})
}

// pathLess orders slash-separated paths component by component, the order
// of a sorted directory walk (and of rg --sort path): "a/b" before "a.go".
func pathLess(a, b string) bool {
	return strings.ReplaceAll(a, "/", "\x00") < strings.ReplaceAll(b, "/", "\x00")
}
