package providertest

import (
	"encoding/json"
	"net/http"
)

// RecordedRequest is one request the server received, raw and decoded.
type RecordedRequest struct {
	Path   string
	Header http.Header // includes Authorization
	Body   []byte      // exactly as received

	// Decoded fields; zero when the body was not valid JSON.
	Model        string
	Messages     []Message
	Tools        []Tool
	ToolChoice   string // the JSON string value ("none", "auto"), or raw JSON for an object
	MaxTokens    int
	Stream       bool
	IncludeUsage bool
}

// Message mirrors one chat message on the wire.
type Message struct {
	Role             string            `json:"role"`
	Content          string            `json:"content"`
	ReasoningContent string            `json:"reasoning_content,omitempty"`
	ToolCalls        []MessageToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string            `json:"tool_call_id,omitempty"`
}

// MessageToolCall mirrors a tool call carried by an assistant message.
type MessageToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function part of a MessageToolCall.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool mirrors one entry of the request's tools array.
type Tool struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec is the function part of a Tool.
type FunctionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// chatRequest is the request body as the server decodes it.
type chatRequest struct {
	Model         string          `json:"model"`
	Messages      []Message       `json:"messages"`
	Tools         []Tool          `json:"tools"`
	ToolChoice    json.RawMessage `json:"tool_choice"`
	MaxTokens     int             `json:"max_tokens"`
	Stream        bool            `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// record fills the decoded fields of rec from cr.
func (cr chatRequest) record(rec *RecordedRequest) {
	rec.Model = cr.Model
	rec.Messages = cr.Messages
	rec.Tools = cr.Tools
	rec.MaxTokens = cr.MaxTokens
	rec.Stream = cr.Stream
	rec.IncludeUsage = cr.StreamOptions != nil && cr.StreamOptions.IncludeUsage
	if len(cr.ToolChoice) > 0 {
		var s string
		if json.Unmarshal(cr.ToolChoice, &s) == nil {
			rec.ToolChoice = s
		} else {
			rec.ToolChoice = string(cr.ToolChoice)
		}
	}
}

// The streamed chunk, in the shape OpenAI-compatible servers send.
type chunk struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Created int64           `json:"created"`
	Model   string          `json:"model"`
	Choices []chunkChoice   `json:"choices"`
	Usage   json.RawMessage `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Role             string          `json:"role,omitempty"`
	Content          string          `json:"content,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ToolCalls        []chunkToolCall `json:"tool_calls,omitempty"`
}

type chunkToolCall struct {
	Index    int           `json:"index"`
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function chunkFunction `json:"function"`
}

type chunkFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// usage is the simulated usage object, DeepSeek style.
type usage struct {
	PromptTokens            int                 `json:"prompt_tokens"`
	CompletionTokens        int                 `json:"completion_tokens"`
	TotalTokens             int                 `json:"total_tokens"`
	PromptCacheHitTokens    int                 `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens   int                 `json:"prompt_cache_miss_tokens"`
	CompletionTokensDetails completionTokDetail `json:"completion_tokens_details"`
}

type completionTokDetail struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}
