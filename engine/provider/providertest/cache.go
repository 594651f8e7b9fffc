package providertest

import (
	"bytes"
	"encoding/json"
)

// prefixCache simulates DeepSeek's prompt prefix cache.
//
// DeepSeek caches the rendered prompt, which starts with the system prompt,
// then the tool schemas, then the rest of the conversation. The simulator
// therefore does not use the raw request body (whose field order is the
// client's business) but a canonical serialization in render order: the
// model, the leading system messages, the tools, then the remaining
// messages (see promptBytes). Putting tools before the conversation is what
// makes an appended message keep the whole earlier prompt as a hit.
//
// A prompt of n bytes is ceil(n/bytesPerToken) tokens. Its hit tokens are
// the longest byte prefix it shares with any earlier remembered prompt,
// converted to tokens and rounded down to whole blocks of blockTokens.
type prefixCache struct {
	enabled       bool
	bytesPerToken int
	blockTokens   int
	seen          [][]byte // earlier prompts, in arrival order
}

// measure reports the prompt and hit tokens of prompt and keeps it for later
// requests to hit. The server calls it only for requests it answers with a
// stream: a request rejected with a fault never reached prefill.
func (c *prefixCache) measure(prompt []byte) (promptTokens, hitTokens int) {
	promptTokens = ceilDiv(len(prompt), c.bytesPerToken)
	if c.enabled {
		longest := 0
		for _, earlier := range c.seen {
			if n := commonPrefix(prompt, earlier); n > longest {
				longest = n
			}
		}
		hitTokens = longest / c.bytesPerToken / c.blockTokens * c.blockTokens
		c.seen = append(c.seen, prompt)
	}
	return promptTokens, min(hitTokens, promptTokens)
}

// promptBytes is the canonical serialization the cache compares: model,
// leading system messages, tools, remaining messages.
func promptBytes(cr chatRequest) ([]byte, error) {
	split := 0
	for split < len(cr.Messages) && cr.Messages[split].Role == "system" {
		split++
	}
	rendered := struct {
		Model    string    `json:"model"`
		System   []Message `json:"system"`
		Tools    []Tool    `json:"tools"`
		Messages []Message `json:"messages"`
	}{cr.Model, cr.Messages[:split], cr.Tools, cr.Messages[split:]}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rendered); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func ceilDiv(a, b int) int {
	return (a + b - 1) / b
}
