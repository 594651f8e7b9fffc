package sandbox

import "errors"

// UnavailableError means bash must be sandboxed but cannot be. The message
// tells the operator how to fix it.
type UnavailableError struct {
	Reason string // what is wrong, e.g. "bwrap is not on PATH"
}

func (e *UnavailableError) Error() string {
	return `bash is sandboxed (sandbox.bash = "enforce") but bubblewrap is not usable: ` + e.Reason +
		`. Install it (apt-get install bubblewrap / dnf install bubblewrap) or set sandbox.bash = "off" in reasonix.toml to run bash unconfined.`
}

// ErrNoRoot is returned by Command when enforcing without a workspace root.
var ErrNoRoot = errors.New(`sandbox: no workspace root to confine bash to`)

// ModeError reports a sandbox mode other than "enforce" or "off".
type ModeError struct {
	Mode string
}

func (e *ModeError) Error() string {
	return `sandbox.bash = "` + e.Mode + `" is not a mode; use "enforce" or "off"`
}
