package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// argPieces is how many events a tool call's arguments are split into (fewer
// when the arguments are shorter than that many characters).
const argPieces = 4

// eventList collects encoded chunks; the first encoding error sticks.
type eventList struct {
	id, model string
	events    [][]byte
	err       error
}

func (l *eventList) add(c chunk) {
	if l.err != nil {
		return
	}
	c.ID, c.Object, c.Model = l.id, "chat.completion.chunk", l.model
	b, err := json.Marshal(c)
	if err != nil {
		l.err = fmt.Errorf("encode chunk: %w", err)
		return
	}
	l.events = append(l.events, b)
}

func (l *eventList) delta(d chunkDelta) {
	l.add(chunk{Choices: []chunkChoice{{Delta: d}}})
}

// streamEvents renders a turn into its SSE data payloads, "[DONE]" last.
func streamEvents(t Turn, id, model string, usageJSON []byte) ([][]byte, error) {
	l := &eventList{id: id, model: model}
	l.delta(chunkDelta{Role: "assistant"})
	for _, r := range t.Reasoning {
		l.delta(chunkDelta{ReasoningContent: r})
	}
	for _, s := range t.Text {
		l.delta(chunkDelta{Content: s})
	}
	for i, tc := range t.ToolCalls {
		l.delta(chunkDelta{ToolCalls: []chunkToolCall{{
			Index: i, ID: tc.ID, Type: "function", Function: chunkFunction{Name: tc.Name},
		}}})
		args := tc.Arguments
		if t.MalformedArgs {
			args = dropLastRune(args)
		}
		for _, piece := range splitPieces(args, argPieces) {
			l.delta(chunkDelta{ToolCalls: []chunkToolCall{{Index: i, Function: chunkFunction{Arguments: piece}}}})
		}
	}
	finish := t.finishReason()
	l.add(chunk{Choices: []chunkChoice{{FinishReason: &finish}}})
	l.add(chunk{Choices: []chunkChoice{}, Usage: usageJSON})
	if l.err != nil {
		return nil, l.err
	}
	return append(l.events, []byte("[DONE]")), nil
}

// completionText is everything the turn generates, for token estimates.
func completionText(t Turn) (all, reasoning string) {
	var b strings.Builder
	for _, r := range t.Reasoning {
		b.WriteString(r)
	}
	reasoning = b.String()
	for _, s := range t.Text {
		b.WriteString(s)
	}
	for _, tc := range t.ToolCalls {
		b.WriteString(tc.Arguments)
	}
	return b.String(), reasoning
}

// writeStream sends events as SSE, honouring the turn's break and keep-alive
// settings. closing is closed when the server shuts down.
func writeStream(w http.ResponseWriter, r *http.Request, t Turn, events [][]byte, closing <-chan struct{}) {
	flusher, _ := w.(http.Flusher)
	flush := func() {
		if flusher != nil {
			flusher.Flush()
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush()
	for i, ev := range events {
		if i == t.CutAfter && t.CutAfter > 0 {
			// Aborting the handler drops the connection without the final
			// chunk terminator, as a network cut would.
			panic(http.ErrAbortHandler)
		}
		if i == t.IdleAfter && t.IdleAfter > 0 {
			select {
			case <-r.Context().Done():
			case <-closing:
			}
			panic(http.ErrAbortHandler)
		}
		if t.KeepAlive {
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
			return
		}
		flush()
	}
}

// splitPieces cuts s into at most n pieces of similar size at rune
// boundaries (a cut inside a UTF-8 sequence would not survive JSON encoding).
func splitPieces(s string, n int) []string {
	if s == "" {
		return nil
	}
	size := max(1, (len(s)+n-1)/n)
	var pieces []string
	for len(s) > 0 {
		end := min(size, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
	}
	return pieces
}

func dropLastRune(s string) string {
	if s == "" {
		return "{"
	}
	_, size := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-size]
}
