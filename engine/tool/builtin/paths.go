package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Sentinel causes carried by PathError, for errors.Is.
var (
	// ErrOutsideWorkspace: the path, or what a symlink on it points to, is
	// not inside the workspace root.
	ErrOutsideWorkspace = errors.New("outside the workspace")
	// ErrForbiddenRead: the path is covered by sandbox.forbid_read.
	ErrForbiddenRead = errors.New("forbidden by sandbox.forbid_read")
	// ErrIsDir: a file operation was given a directory.
	ErrIsDir = errors.New("is a directory")
)

// PathError reports a path argument a tool refused or could not use.
// Err is ErrOutsideWorkspace, ErrForbiddenRead or a file-system error such
// as fs.ErrNotExist.
type PathError struct {
	Path   string // the path as the model gave it
	Reason string // completes the sentence `path "x" ...`
	Err    error
}

func (e *PathError) Error() string { return fmt.Sprintf("path %q %s", e.Path, e.Reason) }

// Unwrap returns the cause.
func (e *PathError) Unwrap() error { return e.Err }

// maxLinkDepth bounds how many symlinks one resolution follows by hand.
const maxLinkDepth = 40

// workspace is the root every tool of a session works under. It is
// immutable after newWorkspace, so tools share it without locking.
type workspace struct {
	root      string // absolute, symlinks resolved
	shownRoot string // as configured, for messages
	// forbidden holds the forbid_read entries as absolute paths, both as
	// written (rebased onto root) and with symlinks resolved.
	forbidden []string
}

// target is a path argument after resolution.
type target struct {
	arg  string // as given
	rel  string // cleaned, relative to root, slash-separated; "." for the root
	abs  string // root joined with rel: the path as named, before symlinks
	real string // abs with every symlink on the existing part resolved
}

// addForbidden records one forbid_read entry.
func (w *workspace) addForbidden(entry string) error {
	if entry == "" {
		return errors.New("empty path")
	}
	abs := entry
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.root, abs)
	}
	abs = w.rebase(filepath.Clean(abs))
	real, err := resolveExisting(abs, 0)
	if err != nil {
		return err
	}
	w.forbidden = append(w.forbidden, abs)
	if real != abs {
		w.forbidden = append(w.forbidden, real)
	}
	return nil
}

// rebase maps an absolute path written under the configured root onto the
// resolved root, so both spellings of the workspace are accepted.
func (w *workspace) rebase(abs string) string {
	if w.shownRoot != w.root && within(w.shownRoot, abs) {
		rel, err := filepath.Rel(w.shownRoot, abs)
		if err == nil {
			return filepath.Join(w.root, rel)
		}
	}
	return abs
}

// resolve checks that a path argument stays inside the workspace, following
// symlinks on the part of it that exists. The path need not exist.
func (w *workspace) resolve(arg string) (target, error) {
	if arg == "" {
		return target{}, &PathError{Path: arg, Reason: "is empty", Err: fs.ErrInvalid}
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.root, abs)
	}
	abs = w.rebase(filepath.Clean(abs))
	if !within(w.root, abs) {
		return target{}, w.outside(arg)
	}
	real, err := resolveExisting(abs, 0)
	if err != nil {
		return target{}, &PathError{Path: arg, Reason: "cannot be resolved: " + err.Error(), Err: err}
	}
	if !within(w.root, real) {
		return target{}, w.outside(arg)
	}
	rel, err := filepath.Rel(w.root, abs)
	if err != nil {
		return target{}, w.outside(arg)
	}
	return target{arg: arg, rel: filepath.ToSlash(rel), abs: abs, real: real}, nil
}

// resolveRead is resolve plus the forbid_read check, for reading tools.
func (w *workspace) resolveRead(arg string) (target, error) {
	t, err := w.resolve(arg)
	if err != nil {
		return t, err
	}
	if w.isForbidden(t.abs) || w.isForbidden(t.real) {
		return target{}, &PathError{Path: arg, Reason: "is " + ErrForbiddenRead.Error(), Err: ErrForbiddenRead}
	}
	return t, nil
}

func (w *workspace) outside(arg string) error {
	return &PathError{Path: arg, Reason: "is outside the workspace " + w.shownRoot, Err: ErrOutsideWorkspace}
}

// isForbidden reports whether an absolute path is, or is under, a
// forbid_read entry.
func (w *workspace) isForbidden(abs string) bool {
	for _, f := range w.forbidden {
		if within(f, abs) {
			return true
		}
	}
	return false
}

// holdsForbidden reports whether a forbid_read entry lies under the
// absolute path abs, so moving abs would carry protected files elsewhere.
func (w *workspace) holdsForbidden(abs string) bool {
	for _, f := range w.forbidden {
		if within(abs, f) {
			return true
		}
	}
	return false
}

// relative turns an absolute path under the root into the slash-separated
// form tools print.
func (w *workspace) relative(abs string) string {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// notFound, isDir and the like build the PathErrors tools share.
func notFound(arg string) error {
	return &PathError{Path: arg, Reason: "does not exist", Err: fs.ErrNotExist}
}

// statError turns an os.Stat failure on a resolved target into a PathError.
func statError(arg string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return notFound(arg)
	}
	return &PathError{Path: arg, Reason: "cannot be read: " + err.Error(), Err: err}
}

// within reports whether p is dir or lies under it. Both must be clean and
// absolute.
func within(dir, p string) bool {
	if p == dir || dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// resolveExisting resolves every symlink on the longest existing prefix of
// the clean absolute path p and appends the rest unchanged. Dangling
// symlinks are followed by hand, so a link to a not-yet-existing file
// outside the root is still seen as pointing outside.
func resolveExisting(p string, depth int) (string, error) {
	if depth > maxLinkDepth {
		return "", errors.New("too many levels of symbolic links")
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	fi, lerr := os.Lstat(p)
	switch {
	case lerr == nil && fi.Mode()&fs.ModeSymlink != 0:
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		return resolveExisting(filepath.Clean(dest), depth+1)
	case lerr == nil:
		return "", err
	case errors.Is(lerr, fs.ErrNotExist) || errors.Is(lerr, syscall.ENOTDIR):
		parent := filepath.Dir(p)
		if parent == p {
			return p, nil
		}
		rp, err := resolveExisting(parent, depth)
		if err != nil {
			return "", err
		}
		return filepath.Join(rp, filepath.Base(p)), nil
	default:
		return "", lerr
	}
}
