package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/reasonix/teams/engine/tool"
)

type writeFileTool struct{ ws *workspace }

var _ tool.Tool = (*writeFileTool)(nil)

func (*writeFileTool) Name() string { return "write_file" }

func (*writeFileTool) Description() string {
	return "Create a file, or replace its whole content; parent directories are created. " +
		"Prefer edit_file to change part of an existing file."
}

func (*writeFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "File path, relative to the workspace root or absolute inside it."},
		"content": {"type": "string", "description": "The complete new content of the file."}
	},
	"required": ["path", "content"],
	"additionalProperties": false
}`)
}

func (*writeFileTool) ReadOnly() bool { return false }

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (t *writeFileTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args writeFileArgs
	if err := decodeArgs(t.Name(), raw, &args, "path", "content"); err != nil {
		return tool.Result{}, err
	}
	tg, err := t.ws.resolve(args.Path)
	if err != nil {
		return tool.Result{}, err
	}
	created, err := writeFileAtomic(tg, []byte(args.Content))
	if err != nil {
		return tool.Result{}, err
	}
	verb := "overwrote"
	if created {
		verb = "created"
	}
	return tool.Result{Output: fmt.Sprintf("%s %s (%d bytes)", verb, tg.rel, len(args.Content))}, nil
}

// newFileMode is the mode of files write_file creates.
const newFileMode fs.FileMode = 0o644

// writeFileAtomic replaces the file at tg with data by writing a temporary
// file in the same directory and renaming it over the target, so readers
// never see a half-written file. An existing file keeps its mode; missing
// parent directories are created. It reports whether the file is new.
func writeFileAtomic(tg target, data []byte) (created bool, err error) {
	mode := newFileMode
	switch fi, err := os.Stat(tg.real); {
	case err == nil && fi.IsDir():
		return false, &PathError{Path: tg.arg, Reason: "is a directory", Err: ErrIsDir}
	case err == nil:
		mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case errors.Is(err, fs.ErrNotExist):
		created = true
	default:
		return false, statError(tg.arg, err)
	}
	dir := filepath.Dir(tg.real)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(tg.real)+".tmp-*")
	if err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	if err = tmp.Chmod(mode); err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	if err = tmp.Close(); err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	if err = os.Rename(tmp.Name(), tg.real); err != nil {
		return false, &PathError{Path: tg.arg, Reason: "cannot be written: " + err.Error(), Err: err}
	}
	return created, nil
}
