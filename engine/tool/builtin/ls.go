package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasonix/teams/engine/tool"
)

// maxListEntries bounds one ls answer.
const maxListEntries = 1000

type lsTool struct{ ws *workspace }

var _ tool.Tool = (*lsTool)(nil)

func (*lsTool) Name() string { return "ls" }

func (*lsTool) Description() string {
	return "List one directory: entries sorted by name, directories ending in /, file sizes in bytes. " +
		"Use glob to find files by name across directories."
}

func (*lsTool) Schema() json.RawMessage {
	return json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Directory, relative to the workspace root or absolute inside it (default: the root)."}
	},
	"additionalProperties": false
}`)
}

func (*lsTool) ReadOnly() bool { return true }

type lsArgs struct {
	Path string `json:"path"`
}

func (t *lsTool) Execute(ctx context.Context, raw json.RawMessage) (tool.Result, error) {
	var args lsArgs
	if err := decodeArgs(t.Name(), raw, &args); err != nil {
		return tool.Result{}, err
	}
	if args.Path == "" {
		args.Path = "."
	}
	tg, err := t.ws.resolveRead(args.Path)
	if err != nil {
		return tool.Result{}, err
	}
	fi, err := os.Stat(tg.real)
	if err != nil {
		return tool.Result{}, statError(args.Path, err)
	}
	if !fi.IsDir() {
		return tool.Result{Output: describeEntry(filepath.Base(tg.abs), tg.real, fi) + "\n"}, nil
	}
	// os.ReadDir sorts by name.
	entries, err := os.ReadDir(tg.real)
	if err != nil {
		return tool.Result{}, statError(args.Path, err)
	}
	var b strings.Builder
	shown, more := 0, 0
	for _, e := range entries {
		full := filepath.Join(tg.real, e.Name())
		if e.Name() == ".git" || t.ws.isForbidden(full) {
			continue
		}
		if shown == maxListEntries {
			more++
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed while listing
		}
		b.WriteString(describeEntry(e.Name(), full, info))
		b.WriteByte('\n')
		shown++
	}
	if shown == 0 {
		return tool.Result{Output: "(empty directory)\n"}, nil
	}
	if more > 0 {
		fmt.Fprintf(&b, "... %d more entries not shown; use glob to narrow down\n", more)
	}
	return tool.Result{Output: b.String()}, nil
}

// describeEntry renders one ls line: "dir/", "file (N bytes)",
// "link -> target", or the name with its file type.
func describeEntry(name, full string, fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m.IsDir():
		return name + "/"
	case m.IsRegular():
		return fmt.Sprintf("%s (%d bytes)", name, fi.Size())
	case m&fs.ModeSymlink != 0:
		dest, err := os.Readlink(full)
		if err != nil {
			return name + " -> ?"
		}
		return name + " -> " + dest
	default:
		return fmt.Sprintf("%s (%s)", name, m.Type())
	}
}
