package permission

import (
	"path/filepath"
	"strings"
)

// subcommandTools are programs whose first argument picks what they do, so
// a reusable grant names both: Bash(go test:*), not Bash(go:*).
var subcommandTools = map[string]bool{
	"git": true, "go": true, "npm": true, "yarn": true, "pnpm": true, "bun": true,
	"cargo": true, "make": true, "docker": true, "podman": true, "kubectl": true,
	"helm": true, "terraform": true, "gh": true, "pip": true, "pip3": true, "poetry": true,
	"uv": true, "dotnet": true, "mvn": true, "gradle": true, "./gradlew": true,
	"bazel": true, "nix": true, "rustup": true, "deno": true, "composer": true,
	"bundle": true, "rake": true, "mix": true, "cabal": true, "stack": true, "swift": true,
	"flutter": true, "dart": true, "just": true, "task": true, "conda": true, "pdm": true,
	"hatch": true, "tox": true, "nox": true, "ant": true, "sbt": true, "lein": true,
}

// scriptRunners are package managers whose "run" names a script, so the
// script name belongs in the grant too: Bash(npm run build:*).
var scriptRunners = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true}

// exactOnly are programs too dangerous for a reusable prefix grant: they
// delete, overwrite, fetch, change permissions, signal processes, or run
// arbitrary code. Approving one for the session grants only the exact line.
var exactOnly = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "cp": true, "ln": true, "dd": true, "chmod": true,
	"chown": true, "chgrp": true, "curl": true, "wget": true, "scp": true, "rsync": true,
	"ssh": true, "sftp": true, "ftp": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "telnet": true, "kill": true, "pkill": true, "killall": true,
	"shutdown": true, "reboot": true, "mkfs": true, "mount": true, "umount": true,
	"truncate": true, "shred": true, "tee": true, "install": true, "tar": true, "unzip": true,
	"sed": true, "awk": true, "gawk": true, "perl": true, "ruby": true, "node": true,
	"python": true, "python3": true, "bash": true, "sh": true, "zsh": true, "find": true,
	"npx": true, "pnpx": true, "bunx": true, "uvx": true, "pipx": true, "docker": true,
	"podman": true, "crontab": true, "at": true, "git-shell": true, "patch": true,
}

// bashScope proposes the session grant for a line that asked. Simple
// commands get a conservative prefix; anything else only its exact text.
func bashScope(line string, s *script, cmds []command) string {
	literal := "Bash=" + line
	if s.compound() || len(cmds) != 1 || strings.ContainsAny(line, "\n") {
		return literal
	}
	ws := cmds[0].words
	if len(ws) == 0 || ws[0].dynamic || ws[0].glob {
		return literal
	}
	name := ws[0].text
	if exactOnly[name] || exactOnly[filepath.Base(name)] || strings.HasPrefix(name, "python") {
		return literal
	}
	prefix := []string{name}
	if subcommandTools[name] {
		if len(ws) < 2 || !plainArg(ws[1]) {
			return literal
		}
		prefix = append(prefix, ws[1].text)
		if scriptRunners[name] && (ws[1].text == "run" || ws[1].text == "run-script") {
			if len(ws) < 3 || !plainArg(ws[2]) {
				return literal
			}
			prefix = append(prefix, ws[2].text)
		}
	}
	scope := "Bash(" + strings.Join(prefix, " ") + ":*)"
	if _, err := parseRule(scope); err != nil {
		return literal
	}
	return scope
}

// plainArg reports whether w can name a subcommand in a rule.
func plainArg(w word) bool {
	return !w.dynamic && !w.glob && w.text != "" && !strings.HasPrefix(w.text, "-")
}

// editScope proposes Edit(<path>) for each path, one per line; "" when a
// path cannot be written as a rule.
func editScope(paths []filePath) string {
	lines := make([]string, 0, len(paths))
	for _, fp := range paths {
		if !fp.inside || fp.rel == "." || strings.ContainsAny(fp.rel, "\n\r") {
			return ""
		}
		r := "Edit(" + escapeGlob(fp.rel) + ")"
		if _, err := parseRule(r); err != nil {
			return ""
		}
		lines = append(lines, r)
	}
	return strings.Join(lines, "\n")
}
