package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/teams/engine/tool"
)

// writeTree creates files (slash paths relative to root) with content.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newTestTools builds the tools for opts (Root defaults to a new temp dir)
// and returns them by name, with the root used.
func newTestTools(t *testing.T, opts Options) (map[string]tool.Tool, string) {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	tools, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	byName := make(map[string]tool.Tool, len(tools))
	for _, tl := range tools {
		byName[tl.Name()] = tl
	}
	return byName, opts.Root
}

// call runs a tool with args given as a JSON string.
func call(t *testing.T, tl tool.Tool, args string) (tool.Result, error) {
	t.Helper()
	return tl.Execute(context.Background(), json.RawMessage(args))
}

// jsonArgs encodes a map as call arguments.
func jsonArgs(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustSymlink(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
