package builtin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/reasonix/teams/engine/tool"
)

const (
	// defaultReadLimit is how many lines read_file returns when no limit is
	// given.
	defaultReadLimit = 2000
	// maxLineRunes cuts very long lines (minified code) in read_file output.
	maxLineRunes = 2000
	// sniffLen is how much of a file is checked for NUL bytes to call it
	// binary.
	sniffLen = 8 << 10
)

// ErrBinaryFile is the cause of refusing to show or edit a binary file.
var ErrBinaryFile = errors.New("binary file")

type readFileTool struct{ ws *workspace }

var _ tool.Tool = (*readFileTool)(nil)

func (*readFileTool) Name() string { return "read_file" }

func (*readFileTool) Description() string {
	return "Read a text file of the workspace as numbered lines. Read a file before editing it; " +
		"page through long files with offset and limit."
}

func (*readFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "File path, relative to the workspace root or absolute inside it."},
		"offset": {"type": "integer", "minimum": 1, "description": "First line to return, 1-based (default 1)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to return (default 2000)."}
	},
	"required": ["path"],
	"additionalProperties": false
}`)
}

func (*readFileTool) ReadOnly() bool { return true }

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func (t *readFileTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args readFileArgs
	if err := decodeArgs(t.Name(), raw, &args, "path"); err != nil {
		return tool.Result{}, err
	}
	if args.Offset < 0 || args.Limit < 0 {
		return tool.Result{}, argsErrorf(t.Name(), "offset and limit must be positive")
	}
	offset := max(args.Offset, 1)
	limit := args.Limit
	if limit == 0 {
		limit = defaultReadLimit
	}
	tg, err := t.ws.resolveRead(args.Path)
	if err != nil {
		return tool.Result{}, err
	}
	f, err := openTextFile(tg)
	if err != nil {
		return tool.Result{}, err
	}
	defer f.Close()
	out, lines, err := numberLines(ctx, f, offset, limit)
	if err != nil {
		return tool.Result{}, &PathError{Path: args.Path, Reason: "cannot be read: " + err.Error(), Err: err}
	}
	if lines > 0 && offset > lines {
		return tool.Result{}, fmt.Errorf("offset %d is past the end of %s (%d lines)", offset, tg.rel, lines)
	}
	return tool.Result{Output: out}, nil
}

// openTextFile opens a resolved regular file, refusing directories and
// files that look binary.
func openTextFile(tg target) (*os.File, error) {
	fi, err := os.Stat(tg.real)
	if err != nil {
		return nil, statError(tg.arg, err)
	}
	if fi.IsDir() {
		return nil, &PathError{Path: tg.arg, Reason: "is a directory; use ls to list it", Err: ErrIsDir}
	}
	if !fi.Mode().IsRegular() {
		return nil, &PathError{Path: tg.arg, Reason: "is not a regular file", Err: fs.ErrInvalid}
	}
	f, err := os.Open(tg.real)
	if err != nil {
		return nil, statError(tg.arg, err)
	}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, statError(tg.arg, err)
	}
	if bytes.IndexByte(head[:n], 0) >= 0 {
		f.Close()
		return nil, &PathError{Path: tg.arg, Reason: "is a binary file; only text files can be shown or edited", Err: ErrBinaryFile}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, statError(tg.arg, err)
	}
	return f, nil
}

// numberLines renders lines [offset, offset+limit) of r as "%6d\t%s" and
// says how many lines follow. It also returns the file's line count.
func numberLines(ctx context.Context, r io.Reader, offset, limit int) (string, int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var b strings.Builder
	line, shown, more := 0, 0, 0
	for {
		text, err := br.ReadString('\n')
		if text == "" && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return "", 0, err
		}
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return "", 0, ctx.Err()
		}
		switch {
		case line < offset:
		case shown < limit:
			text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
			fmt.Fprintf(&b, "%6d\t%s\n", line, cutLine(text, maxLineRunes))
			shown++
		default:
			more++
		}
		if err != nil {
			break
		}
	}
	if line == 0 {
		return "(empty file)\n", 0, nil
	}
	if more > 0 {
		fmt.Fprintf(&b, "... %d more lines; call again with offset=%d\n", more, offset+shown)
	}
	return b.String(), line, nil
}

// cutLine shortens s to at most n runes, marking the cut.
func cutLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + fmt.Sprintf(" [... line cut, %d bytes total]", len(s))
		}
		count++
	}
	return s
}
