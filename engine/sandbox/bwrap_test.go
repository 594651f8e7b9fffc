package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBwrapArgs(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	for _, d := range []string{root, filepath.Join(root, "secrets"), filepath.Join(base, "cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".env"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ = filepath.EvalSymlinks(base)
	root = filepath.Join(base, "ws")
	opts := Options{
		Root:       root,
		AllowWrite: []string{filepath.Join(base, "cache"), "/tmp", filepath.Join(base, "missing")},
		ForbidRead: []string{"secrets", ".env", base, "nope"},
	}
	args, err := bwrapArgs(opts, "/host/tmp", root, "/bin/bash", "ls")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(args, " ")
	for _, want := range []string{
		"--ro-bind / / --dev /dev --proc /proc --bind /host/tmp /tmp",
		"--tmpfs " + base + " --bind " + root + " " + root + " --bind " + base + "/cache " + base + "/cache",
		"--tmpfs " + root + "/secrets --ro-bind /dev/null " + root + "/.env",
		"--unshare-all --unshare-pid --die-with-parent --new-session",
		"--chdir " + root + " /bin/bash -c ls",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("args %q lack %q", line, want)
		}
	}
	if strings.Count(line, "--tmpfs /run/dbus ") > 1 {
		t.Errorf("args %q mount /run/dbus twice", line)
	}
	if strings.Contains(line, "--share-net") {
		t.Errorf("args %q share the network, want not", line)
	}
	if strings.Contains(line, "missing") || strings.Contains(line, "nope") || strings.Contains(line, "--bind /tmp /tmp") {
		t.Errorf("args %q mount missing paths or the host /tmp", line)
	}
	opts.Network = true
	args, _ = bwrapArgs(opts, "/host/tmp", root, "/bin/bash", "ls")
	if !slices.Contains(args, "--share-net") {
		t.Errorf("args %q lack --share-net", args)
	}
}
