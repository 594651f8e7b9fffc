package sandbox

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// ProbeResult says whether bubblewrap can confine commands on this host.
type ProbeResult struct {
	Usable  bool
	Path    string // the bwrap binary, "" when not found
	Version string // as bwrap --version prints it, e.g. "bubblewrap 0.8.0"
	Reason  string // why it is not usable, "" when it is
}

// probeTimeout bounds each probe command; a healthy bwrap answers at once.
const probeTimeout = 10 * time.Second

// probeOnce runs the probe the first time it is needed and keeps the
// answer for the life of the process: whether user namespaces work does not
// change while we run.
var probeOnce = sync.OnceValue(probe)

// Probe reports whether bubblewrap is installed and can actually create a
// sandbox here (containers often forbid user namespaces). It runs the check
// once per process and returns the cached result afterwards.
func Probe() ProbeResult { return probeOnce() }

func probe() ProbeResult {
	if runtime.GOOS != "linux" {
		return ProbeResult{Reason: "bubblewrap needs Linux; this is " + runtime.GOOS}
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return ProbeResult{Reason: "bwrap is not on PATH"}
	}
	res := ProbeResult{Path: path}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, path, "--version").Output(); err == nil {
		res.Version = strings.TrimSpace(string(out))
	}
	// The same namespaces and mounts a real command uses.
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-all", "--die-with-parent", "true")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = err.Error()
		}
		res.Reason = "bwrap cannot create a sandbox here (" + why + "); user namespaces may be disabled, as in many containers"
		return res
	}
	res.Usable = true
	return res
}
