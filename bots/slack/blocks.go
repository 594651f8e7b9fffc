package slack

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

// Slack's Block Kit limits that rendering stays within.
const (
	maxSectionText  = 3000 // characters of one section's text
	maxBlocks       = 50   // blocks in one message
	maxFallbackText = 3000 // the plain `text` fallback, as this adapter keeps it
	maxButtonLabel  = 75   // a button's plain_text label
	maxButtonValue  = 2000 // a button's value
	maxActionID     = 255  // a button's action_id
	maxActionsPer   = 25   // elements in one actions block
)

// truncatedNote ends a message that had to be cut to fit Slack's limits.
const truncatedNote = "\n… (truncated)"

// rendered is a bots.Message in Slack's shape.
type rendered struct {
	blocks   []slack.Block
	fallback string
}

// render converts a message to section blocks of mrkdwn (each within
// Slack's section limit), actions blocks for its buttons, and a fallback
// text for notifications.
func render(m bots.Message) rendered {
	text := ToMrkdwn(m.Text)
	actions := actionBlocks(m.Buttons)
	sections := splitSections(text, maxSectionText)
	if room := maxBlocks - len(actions); len(sections) > room {
		sections = sections[:room]
		last := sections[room-1]
		sections[room-1] = truncateText(last, maxSectionText-textLen(truncatedNote)) + truncatedNote
	}
	blocks := make([]slack.Block, 0, len(sections)+len(actions))
	for _, s := range sections {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, s, false, false), nil, nil))
	}
	blocks = append(blocks, actions...)
	fallback := text
	if textLen(fallback) > maxFallbackText {
		fallback = truncateText(fallback, maxFallbackText-1) + "…"
	}
	if strings.TrimSpace(fallback) == "" && len(m.Buttons) > 0 {
		fallback = neutralisePings(escapeEntities(m.Buttons[0].Label))
	}
	return rendered{blocks: blocks, fallback: fallback}
}

// actionBlocks renders buttons, 25 to an actions block.
func actionBlocks(buttons []bots.Button) []slack.Block {
	var blocks []slack.Block
	for start := 0; start < len(buttons); start += maxActionsPer {
		end := min(start+maxActionsPer, len(buttons))
		elems := make([]slack.BlockElement, 0, end-start)
		for _, b := range buttons[start:end] {
			label := truncateText(b.Label, maxButtonLabel)
			if label == "" {
				label = b.ActionID
			}
			btn := slack.NewButtonBlockElement(truncateText(b.ActionID, maxActionID), truncateText(b.Value, maxButtonValue),
				slack.NewTextBlockObject(slack.PlainTextType, label, true, false))
			switch b.Style {
			case bots.StylePrimary:
				btn = btn.WithStyle(slack.StylePrimary)
			case bots.StyleDanger:
				btn = btn.WithStyle(slack.StyleDanger)
			}
			elems = append(elems, btn)
		}
		blocks = append(blocks, slack.NewActionBlock("", elems...))
	}
	return blocks
}

// splitSections cuts mrkdwn into pieces of at most limit characters,
// preferring paragraph breaks, then line breaks. A code block cut in two is
// closed at the end of one piece and reopened at the start of the next.
// Empty text gives no pieces.
func splitSections(text string, limit int) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if textLen(text) <= limit {
		return []string{text}
	}
	const fence = "```"
	budget := limit - 2*(textLen(fence)+1) // room to close and reopen a fence
	var (
		pieces  []string
		cur     []string // lines of the piece being built
		curLen  int
		inFence bool // whether the piece's text ends inside a code block
		opened  bool // whether the piece starts by reopening a code block
	)
	flush := func() {
		lines := cur
		reopen := opened
		if opened && len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), fence) {
			// The code block closes right away: neither reopen nor close it.
			lines, reopen = lines[1:], false
		}
		body := strings.Join(lines, "\n")
		if reopen {
			body = fence + "\n" + body
		}
		if inFence {
			body += "\n" + fence
		}
		if strings.TrimSpace(body) != "" {
			pieces = append(pieces, body)
		}
		cur, curLen, opened = nil, 0, inFence
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		n := textLen(line) + 1
		if curLen+n > budget && len(cur) > 0 {
			if cut := paragraphCut(cur, curLen, opened); cut > 0 && !inFence {
				carry := cur[cut:]
				cur = cur[:cut]
				flush()
				cur = append(cur, carry...)
				for _, l := range carry {
					curLen += textLen(l) + 1
				}
				i--
				continue
			}
			flush()
		}
		if n > budget {
			// One line longer than a piece: cut it hard.
			head := truncateText(line, budget-1)
			cur = append(cur, head)
			curLen += textLen(head) + 1
			lines[i] = line[len(head):]
			i--
			flush()
			continue
		}
		cur = append(cur, line)
		curLen += n
		if strings.HasPrefix(strings.TrimSpace(line), fence) {
			inFence = !inFence
		}
	}
	if len(cur) > 0 {
		flush()
	}
	return pieces
}

// paragraphCut returns where to cut lines at the last blank line, when that
// keeps at least half of the piece; 0 means no good paragraph break. Lines
// inside a code block never count as paragraph breaks; opened says the
// lines start inside one.
func paragraphCut(lines []string, total int, opened bool) int {
	inFence := opened
	best, seen := 0, 0
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		seen += textLen(l) + 1
		if !inFence && strings.TrimSpace(l) == "" && seen >= total/2 && i+1 < len(lines) {
			best = i + 1
		}
	}
	return best
}

// textLen measures text as Slack does, in UTF-16 code units, which is never
// less than the number of characters.
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// truncateText cuts s to at most limit UTF-16 units at a character
// boundary, and never inside an &entity; that escaping produced.
func truncateText(s string, limit int) string {
	if textLen(s) <= limit {
		return s
	}
	n, end := 0, 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if n+w > limit {
			break
		}
		n += w
		end = i + utf8.RuneLen(r)
	}
	out := s[:end]
	if amp := strings.LastIndexByte(out, '&'); amp >= 0 && !strings.Contains(out[amp:], ";") && len(out)-amp <= len("&amp;") {
		out = out[:amp]
	}
	return out
}
