// Package tool defines what the agent can call: the Tool interface and the
// per-session Registry that lists tools in a byte-stable order for the prompt.
//
// Built-in tools live in tool/builtin. The agent and controller import this
// package; tool implementations import it and nothing above it.
package tool

import (
	"context"
	"encoding/json"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the function name the model calls (snake_case, unique).
	Name() string
	// Description tells the model what the tool does and when to use it.
	Description() string
	// Schema is the JSON schema of the arguments object.
	Schema() json.RawMessage
	// ReadOnly reports that the tool never changes the workspace or the
	// world, so calls may run in parallel and without approval.
	ReadOnly() bool
	// Execute runs one call. args is the raw JSON object the model sent and
	// has already been checked to be valid JSON. A returned error is reported
	// to the model as the call's result; it never stops the run.
	Execute(ctx context.Context, args json.RawMessage) (Result, error)
}

// Result is what a successful call produced.
type Result struct {
	// Output is the full text for the model. The agent bounds what enters
	// the history; the full text goes to the transcript.
	Output string
	// Failed marks a call that ran but did not succeed (a non-zero exit
	// status), so frontends can show ✗ while the model still sees Output.
	Failed bool
}

// ArgsError is returned by tools for arguments that parse as JSON but do not
// fit the schema (a missing field, a wrong type). The agent resends the
// schema with it so the model can correct itself.
type ArgsError struct {
	Tool string
	Err  error
}

func (e *ArgsError) Error() string { return "invalid arguments for " + e.Tool + ": " + e.Err.Error() }
func (e *ArgsError) Unwrap() error { return e.Err }

// DecodeArgs unmarshals args strictly into v (unknown fields rejected) and
// wraps any failure in an ArgsError for the named tool.
func DecodeArgs(name string, args json.RawMessage, v any) error {
	dec := json.NewDecoder(bytesReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &ArgsError{Tool: name, Err: err}
	}
	return nil
}
