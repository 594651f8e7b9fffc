package providertest

import "fmt"

// checkToolResults enforces what OpenAI-compatible APIs (DeepSeek
// included) enforce: every tool call of an assistant message is answered by
// a tool message before the next user or assistant message, and every tool
// message answers a call. It returns the API-style error text, or "".
func checkToolResults(msgs []Message) string {
	open := map[string]bool{}
	for i, m := range msgs {
		switch m.Role {
		case "tool":
			if !open[m.ToolCallID] {
				return fmt.Sprintf("Messages with role 'tool' must be a response to a preceding message with 'tool_calls' (message %d, tool_call_id %q)", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			continue
		case "assistant", "user", "system":
			if len(open) > 0 {
				return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (message %d; unanswered: %v)", i, keys(open))
			}
		}
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (unanswered: %v)", keys(open))
	}
	return ""
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
