package builtin

import (
	"encoding/json"
	"fmt"

	"github.com/reasonix/teams/engine/tool"
)

// decodeArgs decodes args strictly into v and checks that every required
// field is present and not null. All failures are *tool.ArgsError.
func decodeArgs(name string, args json.RawMessage, v any, required ...string) error {
	if err := tool.DecodeArgs(name, args, v); err != nil {
		return err
	}
	if len(required) == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return &tool.ArgsError{Tool: name, Err: err}
	}
	for _, f := range required {
		if raw, ok := fields[f]; !ok || string(raw) == "null" {
			return argsErrorf(name, "missing required field %q", f)
		}
	}
	return nil
}

// argsErrorf builds an ArgsError for an argument that decoded but makes no
// sense (a negative limit, an empty command).
func argsErrorf(name, format string, a ...any) error {
	return &tool.ArgsError{Tool: name, Err: fmt.Errorf(format, a...)}
}
