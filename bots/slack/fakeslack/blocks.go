package fakeslack

import (
	"encoding/json"
	"errors"
	"unicode/utf16"
)

// Slack's Block Kit limits, which the fake enforces as Slack does, with an
// invalid_blocks error.
const (
	maxBlocks        = 50
	maxSectionText   = 3000
	maxActionsPer    = 25
	maxButtonLabel   = 75
	maxMessageText   = 40000
	errInvalidBlocks = "invalid_blocks"
)

type wireText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type wireBlock struct {
	Type     string        `json:"type"`
	Text     *wireText     `json:"text"`
	Elements []wireElement `json:"elements"`
}

type wireElement struct {
	Type     string    `json:"type"`
	ActionID string    `json:"action_id"`
	Value    string    `json:"value"`
	Style    string    `json:"style"`
	Text     *wireText `json:"text"`
}

var errBlocks = errors.New(errInvalidBlocks)

// decodeBlocks reads a blocks form field and checks Slack's limits.
func decodeBlocks(raw string) ([]Block, error) {
	if raw == "" {
		return nil, nil
	}
	var wire []wireBlock
	if err := json.Unmarshal([]byte(raw), &wire); err != nil {
		return nil, errBlocks
	}
	if len(wire) > maxBlocks {
		return nil, errBlocks
	}
	out := make([]Block, 0, len(wire))
	for _, w := range wire {
		b := Block{Type: w.Type}
		switch w.Type {
		case "section":
			if w.Text == nil || w.Text.Text == "" || utf16Len(w.Text.Text) > maxSectionText {
				return nil, errBlocks
			}
			b.Text, b.TextType = w.Text.Text, w.Text.Type
		case "actions":
			if len(w.Elements) == 0 || len(w.Elements) > maxActionsPer {
				return nil, errBlocks
			}
			for _, e := range w.Elements {
				if e.Type != "button" || e.Text == nil || e.Text.Text == "" || utf16Len(e.Text.Text) > maxButtonLabel || e.ActionID == "" {
					return nil, errBlocks
				}
				b.Buttons = append(b.Buttons, Button{ActionID: e.ActionID, Label: e.Text.Text, Value: e.Value, Style: e.Style})
			}
		}
		out = append(out, b)
	}
	return out, nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
