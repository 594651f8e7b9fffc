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

type moveFileTool struct{ ws *workspace }

var _ tool.Tool = (*moveFileTool)(nil)

func (*moveFileTool) Name() string { return "move_file" }

func (*moveFileTool) Description() string {
	return "Move or rename a file or directory inside the workspace, creating missing parent directories. " +
		"It never overwrites: the destination must not exist."
}

func (*moveFileTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"source": {"type": "string", "description": "Existing file or directory, relative to the workspace root or absolute inside it."},
		"destination": {"type": "string", "description": "New path; must not exist yet."}
	},
	"required": ["source", "destination"],
	"additionalProperties": false
}`)
}

func (*moveFileTool) ReadOnly() bool { return false }

type moveFileArgs struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

func (t *moveFileTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args moveFileArgs
	if err := decodeArgs(t.Name(), raw, &args, "source", "destination"); err != nil {
		return tool.Result{}, err
	}
	// Moving a protected file to an unprotected name would let it be read,
	// so the source is checked like a read.
	src, err := t.ws.resolveRead(args.Source)
	if err != nil {
		return tool.Result{}, err
	}
	dst, err := t.ws.resolve(args.Destination)
	if err != nil {
		return tool.Result{}, err
	}
	if src.rel == "." {
		return tool.Result{}, &PathError{Path: args.Source, Reason: "is the workspace root and cannot be moved", Err: fs.ErrInvalid}
	}
	// A symlink is moved itself, not what it points to: rename the entry
	// named by the source, inside its resolved parent directory.
	srcParent, err := resolveExisting(filepath.Dir(src.abs), 0)
	if err != nil {
		return tool.Result{}, statError(args.Source, err)
	}
	from := filepath.Join(srcParent, filepath.Base(src.abs))
	if _, err := os.Lstat(from); err != nil {
		return tool.Result{}, statError(args.Source, err)
	}
	if t.ws.holdsForbidden(from) || t.ws.holdsForbidden(src.real) {
		return tool.Result{}, &PathError{Path: args.Source, Reason: "contains files " + ErrForbiddenRead.Error(), Err: ErrForbiddenRead}
	}
	dstParent, err := resolveExisting(filepath.Dir(dst.abs), 0)
	if err != nil {
		return tool.Result{}, statError(args.Destination, err)
	}
	to := filepath.Join(dstParent, filepath.Base(dst.abs))
	switch _, err := os.Lstat(to); {
	case err == nil:
		return tool.Result{}, &PathError{Path: args.Destination, Reason: "already exists; move_file does not overwrite", Err: fs.ErrExist}
	case !errors.Is(err, fs.ErrNotExist):
		return tool.Result{}, statError(args.Destination, err)
	}
	if within(from, to) {
		return tool.Result{}, &PathError{Path: args.Destination, Reason: "is inside the source " + src.rel, Err: fs.ErrInvalid}
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return tool.Result{}, &PathError{Path: args.Destination, Reason: "cannot be created: " + err.Error(), Err: err}
	}
	if err := os.Rename(from, to); err != nil {
		return tool.Result{}, fmt.Errorf("move %s to %s: %w", src.rel, dst.rel, err)
	}
	return tool.Result{Output: fmt.Sprintf("moved %s to %s", src.rel, dst.rel)}, nil
}
