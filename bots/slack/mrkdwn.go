package slack

import (
	"regexp"
	"strconv"
	"strings"
)

// ToMrkdwn converts the gateway's markdown into Slack's mrkdwn dialect:
// **bold** → *bold*, *italic* → _italic_, ~~strike~~ → ~strike~,
// [text](url) → <url|text>, headings → bold lines, list bullets → •.
//
// Code fences and inline code are not converted. &, < and > are escaped
// everywhere, inside code too: Slack decodes those entities in every part
// of a message, so escaping is what keeps code verbatim on screen and keeps
// a literal <!here> in a log from becoming a live control sequence.
// Channel-wide pings (@here, @channel, @everyone) are neutralised with a
// zero-width space so agent output never notifies a whole channel.
func ToMrkdwn(md string) string {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines))
	fence := "" // the open fence marker (``` or ~~~), "" outside a fence
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
				out = append(out, "```")
				continue
			}
			out = append(out, neutralisePings(escapeEntities(line)))
			continue
		}
		if marker := fenceMarker(trimmed); marker != "" {
			fence = marker
			out = append(out, "```") // the info string (language) would show as code in Slack
			continue
		}
		out = append(out, convertLine(line))
	}
	if fence != "" {
		out = append(out, "```")
	}
	return strings.Join(out, "\n")
}

// fenceMarker returns the fence that a trimmed line opens, or "".
func fenceMarker(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			return f
		}
	}
	return ""
}

var (
	headingRE = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	bulletRE  = regexp.MustCompile(`^(\s*)[-*+]\s+`)
	ruleRE    = regexp.MustCompile(`^\s{0,3}([-*_])(\s*([-*_])){2,}\s*$`)
	quoteRE   = regexp.MustCompile(`^(\s*)>\s?`)
)

// convertLine converts one line outside code fences.
func convertLine(line string) string {
	if m := headingRE.FindStringSubmatch(line); m != nil {
		text := strings.NewReplacer("**", "", "__", "").Replace(m[1])
		if text == "" {
			return ""
		}
		return "*" + convertInline(text) + "*"
	}
	if ruleRE.MatchString(line) {
		return "──────────"
	}
	prefix := ""
	if m := quoteRE.FindStringSubmatch(line); m != nil {
		// A leading > is Slack's quote marker and must stay unescaped.
		prefix = m[1] + ">"
		line = line[len(m[0]):]
		if line != "" {
			prefix += " "
		}
	}
	if m := bulletRE.FindStringSubmatch(line); m != nil {
		prefix += m[1] + "• "
		line = line[len(m[0]):]
	}
	return prefix + convertInline(line)
}

// convertInline converts a line's inline markup. Code spans and links are
// swapped for placeholders first so that emphasis rules and escaping never
// reach into them, yet emphasis may still wrap them (**`x`**).
func convertInline(s string) string {
	var tokens []string
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "`[!<")
		if i < 0 {
			b.WriteString(s)
			break
		}
		tok, n := inlineToken(s[i:])
		if n == 0 {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(placeholderOpen + strconv.Itoa(len(tokens)) + placeholderClose)
		tokens = append(tokens, tok)
		s = s[i+n:]
	}
	out := convertText(b.String())
	if len(tokens) == 0 {
		return out
	}
	return placeholderRE.ReplaceAllStringFunc(out, func(m string) string {
		i, err := strconv.Atoi(m[1 : len(m)-1])
		if err != nil || i >= len(tokens) {
			return m
		}
		return tokens[i]
	})
}

// Placeholders for cut-out tokens: control characters that markdown text
// does not contain and that no rule below touches.
const (
	placeholderOpen  = "\x01"
	placeholderClose = "\x02"
)

var placeholderRE = regexp.MustCompile(`\x01[0-9]+\x02`)

var (
	linkRE     = regexp.MustCompile(`^!?\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	autolinkRE = regexp.MustCompile(`^<((?:https?|mailto):[^>\s]+)>`)
)

// inlineToken recognises a code span, link or autolink at the start of s
// and returns its mrkdwn rendering and its length; n == 0 means none.
func inlineToken(s string) (tok string, n int) {
	switch s[0] {
	case '`':
		ticks := len(s) - len(strings.TrimLeft(s, "`"))
		end := strings.Index(s[ticks:], s[:ticks])
		if end < 0 {
			return "", 0
		}
		code := s[ticks : ticks+end]
		return "`" + neutralisePings(escapeEntities(code)) + "`", 2*ticks + end
	case '[', '!':
		m := linkRE.FindStringSubmatch(s)
		if m == nil {
			return "", 0
		}
		return renderLink(m[1], m[2]), len(m[0])
	case '<':
		m := autolinkRE.FindStringSubmatch(s)
		if m == nil {
			return "", 0
		}
		return "<" + escapeEntities(m[1]) + ">", len(m[0])
	}
	return "", 0
}

// renderLink renders [text](url). Only absolute http(s) and mailto URLs
// become Slack links; a relative path stays readable as text.
func renderLink(text, url string) string {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "mailto:") {
		if text == "" {
			return convertText(url)
		}
		return convertText(text) + " (" + convertText(url) + ")"
	}
	label := strings.NewReplacer("|", "¦").Replace(neutralisePings(escapeEntities(text)))
	if label == "" {
		return "<" + escapeEntities(url) + ">"
	}
	return "<" + escapeEntities(url) + "|" + label + ">"
}

var (
	boldRE   = regexp.MustCompile(`\*\*(\S(?:.*?\S)?)\*\*|__(\S(?:.*?\S)?)__`)
	italicRE = regexp.MustCompile(`(^|[^\w*])\*([^*\s](?:[^*\n]*[^*\s])?)\*($|[^\w*])`)
	strikeRE = regexp.MustCompile(`~~([^~\n]+?)~~`)
)

// boldMark stands in for a bold asterisk while italics are converted, so
// *bold* that came from **bold** is not mistaken for an italic.
const boldMark = "\x00"

// convertText converts emphasis in plain text and escapes it.
func convertText(s string) string {
	s = escapeEntities(s)
	s = boldRE.ReplaceAllStringFunc(s, func(m string) string {
		return boldMark + m[2:len(m)-2] + boldMark
	})
	// Run twice: adjacent italics share a boundary character.
	for range 2 {
		s = italicRE.ReplaceAllString(s, "${1}_${2}_${3}")
	}
	s = strikeRE.ReplaceAllString(s, "~$1~")
	s = strings.ReplaceAll(s, boldMark, "*")
	return neutralisePings(s)
}

var entityEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escapeEntities escapes Slack's three control characters.
func escapeEntities(s string) string { return entityEscaper.Replace(s) }

// zwsp is the zero-width space that breaks a ping without changing how the
// text looks.
const zwsp = "\u200b"

var pingRE = regexp.MustCompile(`(?i)@(channel|here|everyone)\b`)

// neutralisePings breaks @here, @channel and @everyone so that they cannot
// notify anyone. Their <!here> forms need no help: escaping < already
// turned them into plain text.
func neutralisePings(s string) string {
	return pingRE.ReplaceAllString(s, "@"+zwsp+"${1}")
}
