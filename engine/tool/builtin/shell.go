package builtin

import (
	"errors"
	"os"
	"os/exec"
)

// Shell builds the process that runs one bash command line in dir. It must
// not start it: the bash tool owns the process. The tool sets Stdout,
// Stderr and WaitDelay, and SysProcAttr.Setpgid unless Setsid is already
// set; it kills the whole process group on timeout, on cancellation and
// after the command returns. An error, such as a missing sandbox program,
// is shown to the model as the call's result.
type Shell interface {
	Command(dir, script string) (*exec.Cmd, error)
}

// HostShell runs commands directly on the host, unconfined, as
// `bash -c script` with the environment from HostEnv.
type HostShell struct{}

var _ Shell = HostShell{}

// Command implements Shell.
func (HostShell) Command(dir, script string) (*exec.Cmd, error) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		return nil, errors.New("bash is not installed or not on PATH")
	}
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = dir
	cmd.Env = HostEnv()
	return cmd, nil
}

// HostEnv returns the environment for commands: a short allow-list of host
// variables (PATH, HOME, locale, toolchain locations, proxies) plus settings
// for non-interactive output. PATH and LANG get defaults when unset.
func HostEnv() []string {
	// Only what toolchains need to find themselves is passed on; everything
	// else, notably the service's own tokens and API keys, stays out.
	passed := []string{
		"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
		"GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN",
		"CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "NVM_DIR", "PYENV_ROOT", "VIRTUAL_ENV",
		"SSL_CERT_FILE", "SSL_CERT_DIR",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	}
	// Programs should behave as for a reader that is not a terminal.
	fixed := []string{"TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0"}
	env := make([]string, 0, len(passed)+len(fixed))
	for _, k := range passed {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("PATH"); !ok {
		env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin")
	}
	if _, ok := os.LookupEnv("LANG"); !ok {
		env = append(env, "LANG=C.UTF-8")
	}
	return append(env, fixed...)
}
