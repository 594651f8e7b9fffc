// Package provider defines the conversation types the engine exchanges with a
// model, the streaming Provider interface, and the registry of provider kinds.
//
// Concrete kinds live in subpackages (openai) and register themselves from
// init(); only cmd/ imports them. Everything in engine/ may import this package.
package provider

import (
	"context"
	"encoding/json"
)

// Role is the author of a message.
type Role string

// The roles of an OpenAI-compatible chat.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation, in the shape the wire uses.
//
// ReasoningContent is kept on assistant turns because DeepSeek's thinking mode
// needs it sent back on any assistant turn that made tool calls.
type Message struct {
	Role             Role       `json:"role"`
	Content          string     `json:"content"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
}

// ToolCall is one complete function call requested by the model. Arguments is
// the raw JSON text exactly as the model produced it (it may be malformed; the
// agent, not the provider, reports that back to the model).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec describes one tool offered to the model. Parameters is a JSON schema
// whose bytes are sent verbatim, so the caller controls byte stability.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is one frozen model call. Providers must not modify it, so that a
// retry or a replay after a broken stream sends the same bytes again.
type Request struct {
	Model     string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int // 0 lets the provider decide
	// NoTools asks for a final answer: tools are still listed (keeping the
	// prefix byte-stable) but tool_choice is "none".
	NoTools bool
}

// DeltaKind tells a streamed fragment apart.
type DeltaKind int

// Kinds of streamed fragments.
const (
	DeltaText      DeltaKind = iota // visible answer text
	DeltaReasoning                  // reasoning_content text
	// DeltaReset means a broken attempt is being replayed: frontends drop the
	// text and reasoning streamed since the request started.
	DeltaReset
)

// Delta is one streamed fragment of the response in progress.
type Delta struct {
	Kind DeltaKind
	Text string
}

// Response is the result of one clean attempt: the assistant message with all
// tool calls complete, the usage the provider reported, and why it stopped.
type Response struct {
	Message      Message
	Usage        Usage
	FinishReason string
	Attempts     int // 1 when the first attempt was clean
}

// Provider streams one chat completion. onDelta may be nil. Stream returns
// only after a clean, complete attempt or with an error (see errors.go for
// the typed errors callers can inspect with errors.As).
type Provider interface {
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}
