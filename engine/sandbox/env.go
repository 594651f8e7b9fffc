package sandbox

import (
	"os"
	"path/filepath"
)

// passedEnv are the host variables a command sees: what toolchains need to
// find themselves. Everything else, notably the service's own tokens and
// API keys, stays out.
var passedEnv = []string{
	"PATH", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
	"GOROOT", "GOPATH", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE",
	"CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "NVM_DIR", "PYENV_ROOT", "VIRTUAL_ENV",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
}

// commandEnv returns the environment for bash. host adds HOME and TMPDIR
// from the host (unconfined mode); in the sandbox bwrap sets them.
func commandEnv(host bool) []string {
	env := []string{"TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0"}
	names := passedEnv
	if host {
		names = append([]string{"HOME", "TMPDIR"}, names...)
	}
	for _, k := range names {
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
	if !host {
		// HOME moves into the private /tmp, which would hide the host's Go
		// module cache; point Go at it (read-only) so builds need no network.
		_, gp := os.LookupEnv("GOPATH")
		_, mc := os.LookupEnv("GOMODCACHE")
		if home, err := os.UserHomeDir(); err == nil && !gp && !mc {
			if fi, err := os.Stat(filepath.Join(home, "go", "pkg", "mod")); err == nil && fi.IsDir() {
				env = append(env, "GOMODCACHE="+filepath.Join(home, "go", "pkg", "mod"))
			}
		}
	}
	return env
}
