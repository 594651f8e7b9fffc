package providertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Turn scripts the server's answer to one request: either an HTTP error
// (Fault) or a streamed completion, optionally broken on purpose.
//
// A streamed completion is sent as SSE data events in this order: a role
// event, one event per Reasoning chunk, one per Text chunk, for each tool
// call a header event (id and name) followed by its arguments split into
// several events, a finish event, a usage event, and "[DONE]". CutAfter and
// IdleAfter count these events.
type Turn struct {
	Reasoning []string   `json:"reasoning,omitempty"`
	Text      []string   `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// FinishReason defaults to "tool_calls" when ToolCalls is set, else "stop".
	FinishReason string `json:"finish_reason,omitempty"`
	// Usage, when set, is sent verbatim as the usage object of the final
	// chunk instead of the simulated figures, so tests can send any shape a
	// real provider uses.
	Usage json.RawMessage `json:"usage,omitempty"`

	// Fault answers with an HTTP error instead of a stream.
	Fault *Fault `json:"fault,omitempty"`
	// CutAfter, when positive, drops the connection abruptly after that many
	// events have been sent.
	CutAfter int `json:"cut_after,omitempty"`
	// IdleAfter, when positive, stops sending after that many events and
	// holds the connection open until the client goes away or the server
	// closes.
	IdleAfter int `json:"idle_after,omitempty"`
	// MalformedArgs streams every tool call's arguments without their last
	// character, so `{"a":1}` arrives as `{"a":1` (invalid JSON).
	MalformedArgs bool `json:"malformed_args,omitempty"`
	// KeepAlive sends an SSE comment line ": keep-alive" before every event.
	KeepAlive bool `json:"keep_alive,omitempty"`
}

// ToolCall is one function call the scripted model makes.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Fault is an HTTP error response.
type Fault struct {
	Status int `json:"status"`
	// RetryAfter is sent as the Retry-After header when not empty (seconds
	// or an HTTP date).
	RetryAfter string `json:"retry_after,omitempty"`
	// Body is sent verbatim; empty means {"error":{"message":<status text>}}.
	Body string `json:"body,omitempty"`
}

func (t Turn) finishReason() string {
	switch {
	case t.FinishReason != "":
		return t.FinishReason
	case len(t.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

func (t Turn) validate() error {
	if t.Fault != nil && (t.Fault.Status < 400 || t.Fault.Status > 599) {
		return fmt.Errorf("fault status %d is not an HTTP error (400-599)", t.Fault.Status)
	}
	if t.CutAfter < 0 || t.IdleAfter < 0 {
		return errors.New("cut_after and idle_after must not be negative")
	}
	if t.CutAfter > 0 && t.IdleAfter > 0 {
		return errors.New("set at most one of cut_after and idle_after")
	}
	if len(t.Usage) > 0 && !json.Valid(t.Usage) {
		return errors.New("usage is not valid JSON")
	}
	return nil
}

// ScriptFromJSON reads a JSON array of turns (the JSON form of Turn), so an
// end-to-end test can keep its model script in a file. Unknown fields are
// rejected to catch typos.
func ScriptFromJSON(r io.Reader) ([]Turn, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var turns []Turn
	if err := dec.Decode(&turns); err != nil {
		return nil, fmt.Errorf("providertest: decode script: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("providertest: decode script: trailing data after the turn array")
	}
	for i, t := range turns {
		if err := t.validate(); err != nil {
			return nil, fmt.Errorf("providertest: turn %d: %w", i, err)
		}
	}
	return turns, nil
}
