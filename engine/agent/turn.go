package agent

import (
	"strings"
	"time"
)

// Turn is one user submission: the text, who said it, and the volatile
// context that belongs with it. Volatile context goes in the user message,
// never in the system prompt, so the cached prefix survives it.
type Turn struct {
	Text string
	// Speaker names who is talking ("Ada Lovelace (slack:U123)").
	Speaker string
	// Context is extra volatile context (thread metadata, goal status,
	// background notes, reloaded instructions), rendered in order.
	Context []ContextItem
}

// ContextItem is one line of turn-tail context.
type ContextItem struct {
	Key   string
	Value string
}

// compose renders the user message: a context block in one fixed order
// (time, speaker, then the items in the order given) and the text.
func compose(t Turn, now time.Time) string {
	var b strings.Builder
	b.WriteString("<context>\n")
	b.WriteString("time: " + now.UTC().Format(time.RFC3339) + "\n")
	if t.Speaker != "" {
		b.WriteString("speaker: " + oneLine(t.Speaker) + "\n")
	}
	for _, c := range t.Context {
		if strings.Contains(c.Value, "\n") {
			b.WriteString(c.Key + ":\n" + strings.TrimRight(c.Value, "\n") + "\n")
			continue
		}
		b.WriteString(c.Key + ": " + c.Value + "\n")
	}
	b.WriteString("</context>\n")
	b.WriteString(t.Text)
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
