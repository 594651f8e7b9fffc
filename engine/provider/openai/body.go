package openai

import (
	"bytes"
	"encoding/json"

	"github.com/reasonix/teams/engine/provider"
)

// The request body, as structs so the field order (and with it the bytes
// the prefix cache sees) is fixed.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	Tools         []chatTool    `json:"tools,omitempty"`
	ToolChoice    string        `json:"tool_choice,omitempty"`
	MaxTokens     int           `json:"max_tokens,omitempty"`
	Stream        bool          `json:"stream"`
	StreamOptions streamOptions `json:"stream_options"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type chatMessage struct {
	Role             string         `json:"role"`
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function chatToolSpec `json:"function"`
}

type chatToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// emptySchema stands in for a tool without a parameter schema.
const emptySchema = `{"type":"object","properties":{}}`

// encodeRequest renders req as the JSON body. The same inputs always give
// the same bytes. maxTokens is the fallback when req.MaxTokens is 0.
func encodeRequest(model string, req provider.Request, maxTokens int) ([]byte, error) {
	body := chatRequest{
		Model:         model,
		Messages:      make([]chatMessage, 0, len(req.Messages)),
		MaxTokens:     maxTokens,
		Stream:        true,
		StreamOptions: streamOptions{IncludeUsage: true},
	}
	if req.MaxTokens > 0 {
		body.MaxTokens = req.MaxTokens
	}
	if req.NoTools {
		body.ToolChoice = "none"
	}
	for _, m := range req.Messages {
		cm := chatMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		if len(m.ToolCalls) > 0 {
			// DeepSeek's thinking mode wants the reasoning of a tool-calling
			// turn back; on other turns it is dropped (and would only cost
			// prompt tokens).
			cm.ReasoningContent = m.ReasoningContent
			cm.ToolCalls = make([]chatToolCall, len(m.ToolCalls))
			for i, tc := range m.ToolCalls {
				cm.ToolCalls[i] = chatToolCall{ID: tc.ID, Type: "function",
					Function: chatFunction{Name: tc.Name, Arguments: tc.Arguments}}
			}
		}
		body.Messages = append(body.Messages, cm)
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(bytes.TrimSpace(params)) == 0 {
			params = json.RawMessage(emptySchema)
		}
		body.Tools = append(body.Tools, chatTool{Type: "function",
			Function: chatToolSpec{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // code is full of <, > and &; keep it readable and short
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
