package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Inside the sandbox, /tmp is private and HOME lives in it.
const (
	sandboxTmp  = "/tmp"
	sandboxHome = "/tmp/home"
)

// hostSockets are daemon sockets that would let a command ask something
// outside the sandbox to act for it (docker run -v /:/host, systemd-run
// --user). They are hidden even when not listed in ForbidRead; a Unix
// socket stays connectable on a read-only mount.
var hostSockets = []string{
	"/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/run/podman",
	"/run/user", "/run/dbus", "/var/run/dbus",
}

// mount is one bwrap mount operation at path.
type mount struct {
	path string
	args []string
	mask bool // hides path: applied after binds of the same path
}

// bwrapArgs builds bwrap's arguments. Mounts are applied parents first, so
// a directory bound writable inside a hidden one stays visible, and a path
// hidden inside the workspace stays hidden.
func bwrapArgs(opts Options, tmp, dir, bash, script string) ([]string, error) {
	root, err := resolve(opts.Root, "/")
	if err != nil {
		return nil, err
	}
	mounts := []mount{
		{path: sandboxTmp, args: []string{"--bind", tmp, sandboxTmp}},
		{path: root, args: []string{"--bind", root, root}},
	}
	for _, p := range opts.AllowWrite {
		abs, err := resolve(p, root)
		if err != nil {
			continue // missing: nothing to bind
		}
		if abs == sandboxTmp {
			continue // /tmp is always writable, and private
		}
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			mounts = append(mounts, mount{path: abs, args: []string{"--bind", abs, abs}})
		}
	}
	for _, p := range append(append([]string(nil), hostSockets...), opts.ForbidRead...) {
		abs, err := resolve(p, root)
		if err != nil {
			continue // missing: nothing to hide
		}
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			mounts = append(mounts, mount{path: abs, args: []string{"--tmpfs", abs}, mask: true})
		default:
			mounts = append(mounts, mount{path: abs, args: []string{"--ro-bind", os.DevNull, abs}, mask: true})
		}
	}
	mounts = dedupe(mounts)
	sort.SliceStable(mounts, func(i, j int) bool {
		di, dj := depth(mounts[i].path), depth(mounts[j].path)
		if di != dj {
			return di < dj
		}
		return !mounts[i].mask && mounts[j].mask
	})

	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	for _, m := range mounts {
		args = append(args, m.args...)
	}
	args = append(args, "--unshare-all")
	if opts.Network {
		args = append(args, "--share-net")
	}
	args = append(args,
		"--unshare-pid", "--die-with-parent", "--new-session",
		"--setenv", "HOME", sandboxHome, "--setenv", "TMPDIR", sandboxTmp,
		"--chdir", dir,
		bash, "-c", script)
	return args, nil
}

// resolve makes p absolute (relative to base, ~/ from the home directory)
// and resolves symlinks, so the mount lands on the real path.
func resolve(p, base string) (string, error) {
	if rest, ok := strings.CutPrefix(p, "~/"); ok || p == "~" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.EvalSymlinks(filepath.Clean(p))
}

// depth counts the path's components: "/" is 0, "/a/b" is 2.
func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(filepath.Clean(p), "/")
}

// dedupe drops repeated mounts (two names for one path, such as
// /var/run/dbus and /run/dbus).
func dedupe(mounts []mount) []mount {
	seen := map[string]bool{}
	out := mounts[:0]
	for _, m := range mounts {
		key := strings.Join(m.args, "\x00")
		if !seen[key] {
			seen[key] = true
			out = append(out, m)
		}
	}
	return out
}
