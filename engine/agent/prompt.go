package agent

import (
	"os"
	"path/filepath"
	"strings"
)

// instructionFiles are read from the workspace root at session start, in
// this order; each ".local" variant follows its base file.
var instructionFiles = []string{"REASONIX.md", "AGENTS.md", "CLAUDE.md"}

// maxInstructionBytes bounds each instruction file folded into the prompt.
const maxInstructionBytes = 32 << 10

// Instruction is one standing-instruction file.
type Instruction struct {
	Name string
	Text string
}

// LoadInstructions reads the standing instruction files at root. Missing
// files are skipped; oversized ones are cut with a marker.
func LoadInstructions(root string) []Instruction {
	if root == "" {
		return nil
	}
	var out []Instruction
	for _, base := range instructionFiles {
		for _, name := range []string{base, strings.TrimSuffix(base, ".md") + ".local.md"} {
			b, err := os.ReadFile(filepath.Join(root, name))
			if err != nil || len(strings.TrimSpace(string(b))) == 0 {
				continue
			}
			text := string(b)
			if len(text) > maxInstructionBytes {
				text = text[:maxInstructionBytes] + "\n[... truncated: file exceeds 32 KB]"
			}
			out = append(out, Instruction{Name: name, Text: text})
		}
	}
	return out
}

// SystemPrompt builds the session's system prompt. It holds nothing that
// changes during a session (no time, no speaker, no goal status): those ride
// in the user turn, so this text is a stable cache prefix.
func SystemPrompt(root string, instructions []Instruction) string {
	var b strings.Builder
	b.WriteString(`You are Reasonix, a coding agent working in a team's repository. People ask you for changes in a chat thread; several people may speak in one thread, and each user message starts with a <context> block saying who is speaking and when.

How to work:
- Explore before changing: list, glob, grep and read the files involved. Read a file before editing it.
- Make focused changes with edit_file (exact old_string, unique in the file); use write_file for new files or full rewrites.
- Run the project's own build and tests with bash to check your work, and fix what you broke.
- Some calls need a person's approval or are blocked by policy. When a call is blocked or denied, do not retry it unchanged: adapt, or explain what you need.
- Your changes are committed to this thread's branch for review; do not commit, push or change branches yourself unless asked.
- Finish with a short answer: what you changed and why, how you checked it, and anything left open. Keep it concise; the diff speaks for itself.
`)
	if root != "" {
		b.WriteString("\nThe workspace root is " + root + ". All paths are relative to it; nothing outside it is reachable.\n")
	}
	for _, in := range instructions {
		b.WriteString("\n<instructions file=\"" + in.Name + "\">\n")
		b.WriteString(strings.TrimRight(in.Text, "\n"))
		b.WriteString("\n</instructions>\n")
	}
	return b.String()
}

// ReloadInstructions rereads the standing instruction files. When they
// differ from the ones frozen into this session's system prompt, it returns
// them as a turn-tail context item for the next turn: the change takes
// effect now without touching the cached prefix. A new session picks the
// files up in its system prompt.
func (s *Session) ReloadInstructions() (ContextItem, bool) {
	current := LoadInstructions(s.opts.Root)
	if SystemPrompt(s.opts.Root, current) == s.system {
		return ContextItem{}, false
	}
	var b strings.Builder
	if len(current) == 0 {
		b.WriteString("All standing instruction files were removed; disregard the ones in the system prompt.")
	}
	for _, in := range current {
		b.WriteString("<instructions file=\"" + in.Name + "\">\n" + strings.TrimRight(in.Text, "\n") + "\n</instructions>\n")
	}
	return ContextItem{Key: "standing instructions reloaded (these replace the ones in the system prompt)", Value: b.String()}, true
}
