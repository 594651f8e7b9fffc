package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/reasonix/teams/engine/provider"
)

// maxLineBytes bounds one SSE line; a single chunk can carry megabytes of
// tool arguments.
const maxLineBytes = 64 << 20

// errIncomplete is a stream that ended with neither [DONE] nor a finish_reason.
var errIncomplete = errors.New("stream ended before [DONE] or a finish_reason")

// streamChunk is one decoded `data:` payload.
type streamChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// wireUsage covers both DeepSeek's and OpenAI's usage shapes.
type wireUsage struct {
	PromptTokens          int  `json:"prompt_tokens"`
	CompletionTokens      int  `json:"completion_tokens"`
	PromptCacheHitTokens  *int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens *int `json:"prompt_cache_miss_tokens"`
	PromptTokensDetails   *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

func (w wireUsage) usage() provider.Usage {
	u := provider.Usage{PromptTokens: w.PromptTokens, CompletionTokens: w.CompletionTokens}
	switch {
	case w.PromptCacheHitTokens != nil || w.PromptCacheMissTokens != nil:
		if w.PromptCacheHitTokens != nil {
			u.CacheHitTokens = *w.PromptCacheHitTokens
		}
		if w.PromptCacheMissTokens != nil {
			u.CacheMissTokens = *w.PromptCacheMissTokens
		} else {
			u.CacheMissTokens = max(0, u.PromptTokens-u.CacheHitTokens)
		}
	case w.PromptTokensDetails != nil:
		u.CacheHitTokens = w.PromptTokensDetails.CachedTokens
		u.CacheMissTokens = max(0, u.PromptTokens-u.CacheHitTokens)
	}
	if w.CompletionTokensDetails != nil {
		u.ReasoningTokens = w.CompletionTokensDetails.ReasoningTokens
	}
	return u
}

// partialCall is a tool call being assembled from deltas.
type partialCall struct {
	id, name string
	args     strings.Builder
}

// accumulator assembles one attempt's response from its chunks.
type accumulator struct {
	text, reasoning strings.Builder
	calls           map[int]*partialCall
	finish          string
	usage           provider.Usage
	done            bool // [DONE] seen
}

// apply folds one data payload into the response.
func (a *accumulator) apply(payload []byte, onDelta func(provider.Delta)) error {
	var c streamChunk
	if err := json.Unmarshal(payload, &c); err != nil {
		return fmt.Errorf("malformed stream chunk: %w", err)
	}
	if c.Error != nil {
		return fmt.Errorf("error event in stream: %s", c.Error.Message)
	}
	if c.Usage != nil {
		a.usage = c.Usage.usage()
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // only one choice is ever requested
		}
		d := ch.Delta
		if d.ReasoningContent != "" {
			a.reasoning.WriteString(d.ReasoningContent)
			onDelta(provider.Delta{Kind: provider.DeltaReasoning, Text: d.ReasoningContent})
		}
		if d.Content != "" {
			a.text.WriteString(d.Content)
			onDelta(provider.Delta{Kind: provider.DeltaText, Text: d.Content})
		}
		for _, tc := range d.ToolCalls {
			if a.calls == nil {
				a.calls = map[int]*partialCall{}
			}
			p := a.calls[tc.Index]
			if p == nil {
				p = &partialCall{}
				a.calls[tc.Index] = p
			}
			if p.id == "" {
				p.id = tc.ID
			}
			if p.name == "" {
				p.name = tc.Function.Name
			}
			p.args.WriteString(tc.Function.Arguments)
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
	}
	return nil
}

// response is the assembled assistant turn. Calls that never received a
// name are incomplete and left out; a call without an id gets one derived
// from its index so tool results can still refer to it.
func (a *accumulator) response() provider.Response {
	msg := provider.Message{
		Role:             provider.RoleAssistant,
		Content:          a.text.String(),
		ReasoningContent: a.reasoning.String(),
	}
	indexes := make([]int, 0, len(a.calls))
	for i := range a.calls {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	for _, i := range indexes {
		p := a.calls[i]
		if p.name == "" {
			continue
		}
		id := p.id
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall{ID: id, Name: p.name, Arguments: p.args.String()})
	}
	return provider.Response{Message: msg, Usage: a.usage, FinishReason: a.finish}
}

// readStream parses an SSE body until [DONE] or its end. Comment lines
// (": keep-alive"), blank lines and non-data fields are skipped. Every
// OpenAI-compatible server puts one JSON chunk on one data line, so each
// data line is handled on its own. A read error or end of body counts as a
// broken stream unless a finish_reason already arrived.
func readStream(r io.Reader, onDelta func(provider.Delta)) (*accumulator, error) {
	a := &accumulator{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	for sc.Scan() {
		line := sc.Bytes()
		payload, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		payload = bytes.TrimPrefix(payload, []byte(" "))
		if string(payload) == "[DONE]" {
			a.done = true
			return a, nil
		}
		if err := a.apply(payload, onDelta); err != nil {
			return a, err
		}
	}
	if a.finish != "" {
		return a, nil
	}
	if err := sc.Err(); err != nil {
		return a, err
	}
	return a, errIncomplete
}
