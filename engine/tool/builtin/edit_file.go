package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/reasonix/teams/engine/tool"
)

// MatchError reports that old_string did not occur exactly once in the
// file and replace_all was not set: Count is 0 (not found) or the number
// of occurrences.
type MatchError struct {
	Path  string
	Count int
}

func (e *MatchError) Error() string {
	if e.Count == 0 {
		return "old_string not found in " + e.Path
	}
	return fmt.Sprintf("old_string occurs %d times in %s; add surrounding lines to make it unique or set replace_all", e.Count, e.Path)
}

type editFileTool struct{ ws *workspace }

var _ tool.Tool = (*editFileTool)(nil)

func (*editFileTool) Name() string { return "edit_file" }

func (*editFileTool) Description() string {
	return "Replace an exact string in an existing file; the preferred way to change files. " +
		"old_string must match byte for byte (copy it from read_file output without the line-number prefix) " +
		"and occur once, unless replace_all is set."
}

func (*editFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "File path, relative to the workspace root or absolute inside it."},
		"old_string": {"type": "string", "description": "Exact text to replace, with enough surrounding lines to be unique."},
		"new_string": {"type": "string", "description": "Text to put in its place."},
		"replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one (default false)."}
	},
	"required": ["path", "old_string", "new_string"],
	"additionalProperties": false
}`)
}

func (*editFileTool) ReadOnly() bool { return false }

type editFileArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

func (t *editFileTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args editFileArgs
	if err := decodeArgs(t.Name(), raw, &args, "path", "old_string", "new_string"); err != nil {
		return tool.Result{}, err
	}
	switch {
	case args.OldString == "":
		return tool.Result{}, argsErrorf(t.Name(), "old_string is empty; use write_file to create or replace a whole file")
	case args.OldString == args.NewString:
		return tool.Result{}, argsErrorf(t.Name(), "old_string and new_string are identical; nothing would change")
	}
	// Editing reads the file, and a "not found" answer would reveal its
	// content, so forbidden files are refused here too.
	tg, err := t.ws.resolveRead(args.Path)
	if err != nil {
		return tool.Result{}, err
	}
	f, err := openTextFile(tg)
	if errors.Is(err, fs.ErrNotExist) {
		return tool.Result{}, &PathError{Path: args.Path, Reason: "does not exist; use write_file to create it", Err: fs.ErrNotExist}
	}
	if err != nil {
		return tool.Result{}, err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return tool.Result{}, statError(args.Path, err)
	}
	content := string(data)
	count := strings.Count(content, args.OldString)
	if count == 0 || (count > 1 && !args.ReplaceAll) {
		return tool.Result{}, &MatchError{Path: tg.rel, Count: count}
	}
	first := strings.Index(content, args.OldString)
	line := 1 + strings.Count(content[:first], "\n")
	if args.ReplaceAll {
		content = strings.ReplaceAll(content, args.OldString, args.NewString)
	} else {
		content = content[:first] + args.NewString + content[first+len(args.OldString):]
	}
	if _, err := writeFileAtomic(tg, []byte(content)); err != nil {
		return tool.Result{}, err
	}
	noun := "occurrence"
	if count > 1 {
		noun = "occurrences"
	}
	return tool.Result{Output: fmt.Sprintf("edited %s: replaced %d %s, first at line %d", tg.rel, count, noun, line)}, nil
}
