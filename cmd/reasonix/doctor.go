package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/engine/sandbox"
)

func init() {
	register(command{name: "doctor", summary: "check configuration, provider key, git, the bash sandbox, the state store and chat adapters", run: runDoctor})
}

// minGit is the oldest git whose worktree support the workspaces rely on.
var minGit = [2]int{2, 30}

// Statuses of a doctor check.
const (
	statusOK   = "ok"
	statusFail = "FAIL" // a required check failed: the service will not work
	statusWarn = "warn" // works, but the operator should know
)

// checkResult is one line of the doctor's report.
type checkResult struct {
	status string
	name   string
	detail string
}

func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "config file (default ./reasonix.toml, then ~/.reasonix/config.toml)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reasonix doctor [--config FILE]")
		fmt.Fprintln(stderr, "Checks the configuration, the provider key, git, the bash sandbox and ripgrep.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reasonix doctor: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}

	cfg, cfgCheck := checkConfig(*configPath)
	results := []checkResult{
		cfgCheck,
		checkProvider(cfg),
		checkGit(ctx),
		checkSandbox(cfg),
		checkRipgrep(),
		checkStore(ctx, cfg),
		checkRepos(cfg),
	}
	if r, ok := checkSlack(ctx, cfg); ok {
		results = append(results, r)
	}
	code := exitOK
	for _, r := range results {
		fmt.Fprintf(stdout, "%-4s  %-8s %s\n", r.status, r.name, r.detail)
		if r.status == statusFail {
			code = exitFailed
		}
	}
	return code
}

// checkConfig loads the configuration; cfg is nil when it is invalid.
func checkConfig(path string) (*config.Config, checkResult) {
	cfg, err := config.Load(path)
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, checkResult{statusFail, "config", "invalid: " + err.Error()}
		}
		return nil, checkResult{statusFail, "config", "cannot load: " + err.Error()}
	}
	if cfg.Source == "" {
		return cfg, checkResult{statusOK, "config", "no config file found; using the built-in defaults (write reasonix.toml to change them)"}
	}
	return cfg, checkResult{statusOK, "config", "valid: " + cfg.Source}
}

// checkProvider resolves the default model, which also reads its API key.
func checkProvider(cfg *config.Config) checkResult {
	if cfg == nil {
		return checkResult{statusFail, "provider", "not checked: fix the config first"}
	}
	m, err := cfg.ResolveModel("")
	if err != nil {
		return checkResult{statusFail, "provider", err.Error()}
	}
	where := "no api_key_env set, so requests carry no key"
	for _, p := range cfg.Providers {
		if p.Name == m.Provider.Name && p.APIKeyEnv != "" {
			where = "key present in $" + p.APIKeyEnv
		}
	}
	return checkResult{statusOK, "provider", fmt.Sprintf("default model %s/%s; %s", m.Provider.Name, m.Provider.Model, where)}
}

// checkGit runs git --version: workspaces need git worktrees.
func checkGit(ctx context.Context) checkResult {
	out, err := exec.CommandContext(ctx, "git", "--version").Output()
	if err != nil {
		return checkResult{statusFail, "git", "git is not usable (" + err.Error() + "); install git >= 2.30, threads need its worktrees"}
	}
	text := strings.TrimSpace(string(out))
	v, ok := parseGitVersion(text)
	switch {
	case !ok:
		return checkResult{statusWarn, "git", "cannot read the version from " + strconv.Quote(text) + "; git >= 2.30 is needed for worktrees"}
	case v[0] < minGit[0] || v[0] == minGit[0] && v[1] < minGit[1]:
		return checkResult{statusFail, "git", fmt.Sprintf("%s is too old; upgrade to git >= %d.%d for worktrees", text, minGit[0], minGit[1])}
	}
	return checkResult{statusOK, "git", text + " (worktrees supported)"}
}

var gitVersionRE = regexp.MustCompile(`(\d+)\.(\d+)`)

// parseGitVersion reads major and minor from "git version 2.39.2".
func parseGitVersion(s string) ([2]int, bool) {
	m := gitVersionRE.FindStringSubmatch(s)
	if m == nil {
		return [2]int{}, false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return [2]int{major, minor}, true
}

// checkSandbox reports whether bash will be confined.
func checkSandbox(cfg *config.Config) checkResult {
	mode, network := sandbox.ModeEnforce, false
	if cfg != nil {
		if cfg.Sandbox.Bash != "" {
			mode = cfg.Sandbox.Bash
		}
		network = cfg.Sandbox.Network
	}
	if mode == sandbox.ModeOff {
		return checkResult{statusWarn, "sandbox", `sandbox.bash = "off": bash runs unconfined, with every file and network access this service has`}
	}
	p := sandbox.Probe()
	if !p.Usable {
		return checkResult{statusFail, "sandbox", (&sandbox.UnavailableError{Reason: p.Reason}).Error()}
	}
	net := "network off"
	if network {
		net = "network on"
	}
	version := p.Version
	if version == "" {
		version = "bubblewrap"
	}
	return checkResult{statusOK, "sandbox", fmt.Sprintf("%s at %s: bash can write only its thread's workspace; %s", version, p.Path, net)}
}

// checkRipgrep looks for rg, which the grep tool uses when present.
func checkRipgrep() checkResult {
	path, err := exec.LookPath("rg")
	if err != nil {
		return checkResult{statusWarn, "rg", "ripgrep not found (optional): grep falls back to a slower built-in search"}
	}
	return checkResult{statusOK, "rg", "ripgrep at " + path + " for fast grep"}
}
