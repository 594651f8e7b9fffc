// Package transcript is the append-only JSONL record of a session: its frozen
// prefix, every message, every usage report and every tool execution with its
// full output. A session can be reopened from it and continues with a
// byte-identical prompt prefix.
//
// Records are only ever appended. Compaction writes a projection record that
// supersedes the history before it on reload; earlier lines stay untouched.
// The agent and controller import this package; it imports only provider.
package transcript

import (
	"encoding/json"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

// Record types, the "type" field of each line.
const (
	TypeHeader     = "header"
	TypeMessage    = "message"
	TypeUsage      = "usage"
	TypeTool       = "tool"
	TypeCompaction = "compaction"
	TypeNote       = "note"
)

// Record is one line of a transcript. Exactly the fields of its Type are set.
type Record struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`

	// header: the frozen prefix of the session.
	Header *Header `json:"header,omitempty"`
	// message: one history entry, in order.
	Message *provider.Message `json:"message,omitempty"`
	// usage: one model request's accounting.
	Usage *UsageRecord `json:"usage,omitempty"`
	// tool: one tool execution, with its full output.
	Tool *ToolRecord `json:"tool,omitempty"`
	// compaction: the history that replaces all earlier messages.
	Compaction *Compaction `json:"compaction,omitempty"`
	// note: free-form operational note (interruption, restart).
	Note string `json:"note,omitempty"`
}

// Header freezes what the prompt prefix is made of, so a reopened session
// sends the same bytes even if instruction files changed on disk since.
type Header struct {
	Session string              `json:"session"`
	Created time.Time           `json:"created"`
	Root    string              `json:"root"`
	Model   string              `json:"model"`
	System  string              `json:"system"`
	Tools   []provider.ToolSpec `json:"tools"`
}

// UsageRecord is one request's usage and cost.
type UsageRecord struct {
	Model string         `json:"model"`
	Usage provider.Usage `json:"usage"`
	Cost  float64        `json:"cost"`
}

// ToolRecord is one executed (or refused) tool call.
type ToolRecord struct {
	CallID     string          `json:"call_id"`
	Name       string          `json:"name"`
	Args       json.RawMessage `json:"args,omitempty"`
	Output     string          `json:"output"`
	OK         bool            `json:"ok"`
	Blocked    string          `json:"blocked,omitempty"`
	DurationMS int64           `json:"duration_ms"`
}

// Compaction is a projection: Messages replace the whole history before it.
type Compaction struct {
	Rewrite  int                `json:"rewrite"`
	Messages []provider.Message `json:"messages"`
}
