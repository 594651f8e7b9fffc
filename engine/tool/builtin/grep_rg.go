package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// searchRipgrep runs rg over a directory with flags that make it search
// exactly what searchNative does, in the same order, and parses its
// output into matches. It stops rg once it has more than q.limit matches.
func (t *grepTool) searchRipgrep(ctx context.Context, q *grepQuery) ([]grepMatch, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.rgPath, t.ripgrepArgs(q)...)
	cmd.Dir = t.ws.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("grep: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("grep: start rg: %w", err)
	}
	matches, readErr := t.readRipgrep(q, stdout)
	stopped := len(matches) > q.limit
	if stopped {
		cancel()
	} else if readErr != nil {
		// Drain so rg is not blocked writing while we wait for it.
		_, _ = io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	if err := ctx.Err(); err != nil && !stopped {
		return nil, err
	}
	if readErr != nil {
		return nil, fmt.Errorf("grep: reading rg output: %w", readErr)
	}
	var exit *exec.ExitError
	switch {
	case waitErr == nil, stopped:
	case errors.As(waitErr, &exit) && exit.ExitCode() == 1:
		// rg's "no match".
	case errors.As(waitErr, &exit) && exit.ExitCode() == 2 && len(matches) > 0:
		// Some files could not be read; the built-in scanner skips them too.
	default:
		return nil, fmt.Errorf("grep: rg: %v: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return matches, nil
}

// ripgrepArgs translates a query into rg's command line, run from the
// workspace root.
func (t *grepTool) ripgrepArgs(q *grepQuery) []string {
	args := []string{
		"--no-config", "--no-heading", "--with-filename", "--line-number", "--null",
		"--color", "never", "--no-messages",
		"--hidden", "--no-ignore", "--glob", "!.git",
		"--sort", "path", "--encoding", "none",
		"--max-filesize", strconv.Itoa(maxGrepFileSize),
	}
	if q.ignoreCase {
		args = append(args, "--ignore-case")
	}
	// A name-only glob means the same to rg and to globMatcher (unless rg
	// would read a leading ! as negation), so rg may pre-filter with it;
	// every glob is applied again to rg's output.
	if q.glob != "" && !strings.ContainsAny(q.glob, "/") && !strings.HasPrefix(q.glob, "!") {
		args = append(args, "--glob", q.glob)
	}
	for _, f := range t.ws.forbidden {
		if within(t.ws.root, f) && f != t.ws.root {
			args = append(args, "--glob", "!/"+escapeGlob(t.ws.relative(f)))
		}
	}
	args = append(args, "--regexp", q.pattern, "--")
	if rel := t.ws.relative(q.base.real); rel != "." {
		args = append(args, rel)
	}
	return args
}

// readRipgrep parses "path\x00line:text" records, keeping those the
// built-in scanner would report, until it has more than q.limit.
func (t *grepTool) readRipgrep(q *grepQuery, r io.Reader) ([]grepMatch, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var matches []grepMatch
	for len(matches) <= q.limit {
		rec, err := br.ReadString('\n')
		if rec == "" && err != nil {
			if errors.Is(err, io.EOF) {
				return matches, nil
			}
			return matches, err
		}
		rec = strings.TrimSuffix(rec, "\n")
		file, rest, ok := strings.Cut(rec, "\x00")
		num, text, ok2 := strings.Cut(rest, ":")
		n, convErr := strconv.Atoi(num)
		if !ok || !ok2 || convErr != nil {
			continue // a file name with a newline in it; rare enough to drop
		}
		if t.ws.isForbidden(filepath.Join(t.ws.root, filepath.FromSlash(file))) || !t.wants(q, file) {
			continue
		}
		matches = append(matches, grepMatch{path: file, line: n, text: text})
	}
	return matches, nil
}

// escapeGlob quotes the glob metacharacters of a literal path for rg.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\*?[]{}!`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
