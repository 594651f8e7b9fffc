package bots

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// StepState is where one tool call of a turn stands.
type StepState int

// The states of a step.
const (
	StepRunning StepState = iota // dispatched, no result yet
	StepOK                       // finished successfully
	StepFailed                   // finished with an error
	StepBlocked                  // refused by policy or by a person
)

// marker is the glyph that starts a step's line on the card.
func (s StepState) marker() string {
	switch s {
	case StepOK:
		return "✓"
	case StepFailed:
		return "✗"
	case StepBlocked:
		return "⛔"
	default:
		return "⏳"
	}
}

// Step is one tool call as the status card shows it.
type Step struct {
	Tool     string
	Subject  string // the command, the path: what a person wants to see
	State    StepState
	Duration time.Duration // zero while running
	Note     string        // a short remark, e.g. why it was blocked
}

// Phase is where a turn stands, from waiting in the queue to its end.
type Phase int

// The phases of a turn.
const (
	PhaseQueued          Phase = iota // waiting for a free slot
	PhasePreparing                    // getting the workspace and session ready
	PhaseRunning                      // the agent is working
	PhaseWaitingApproval              // blocked on a person pressing a button
	PhaseDone                         // finished normally
	PhaseFailed                       // ended with an error
	PhaseCanceled                     // stopped by someone
	PhaseInterrupted                  // cut short by a restart
)

var phaseNames = [...]string{
	PhaseQueued:          "queued",
	PhasePreparing:       "preparing",
	PhaseRunning:         "running",
	PhaseWaitingApproval: "waiting for approval",
	PhaseDone:            "done",
	PhaseFailed:          "failed",
	PhaseCanceled:        "canceled",
	PhaseInterrupted:     "interrupted",
}

var phaseMarkers = [...]string{
	PhaseQueued:          "🕒",
	PhasePreparing:       "🔧",
	PhaseRunning:         "🔄",
	PhaseWaitingApproval: "✋",
	PhaseDone:            "✅",
	PhaseFailed:          "❌",
	PhaseCanceled:        "🚫",
	PhaseInterrupted:     "⚠️",
}

// String is the phase's lowercase name as the card prints it.
func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

func (p Phase) marker() string {
	if p >= 0 && int(p) < len(phaseMarkers) {
		return phaseMarkers[p]
	}
	return "•"
}

// Card is the state of one turn's status message, the message that is
// edited in place while the turn runs.
type Card struct {
	Task       string // what was asked, as typed
	Speaker    string // who asked (display name)
	Repo       string
	Branch     string
	Phase      Phase
	QueueAhead int // turns ahead of this one while queued
	Steps      []Step

	PromptTokens     int
	CacheHitTokens   int
	CompletionTokens int
	Cost             float64 // US dollars

	// Started is when the turn started; Render does not read the clock, so
	// the caller keeps Elapsed up to date.
	Started time.Time
	Elapsed time.Duration

	Note  string // a remark shown under the steps
	Error string // why the turn failed
}

// How much of a card is shown.
const (
	cardTaskRunes    = 100 // the task on the first line
	cardSubjectRunes = 80  // a step's subject
	cardShownSteps   = 8   // the newest steps; older ones are counted
)

// Render draws the card as compact markdown that adapters convert to their
// dialect. The text is at most maxText bytes (no limit when maxText <= 0):
// older steps are dropped first, then the text is truncated. The result
// has no buttons and depends only on the card, so equal cards render
// equally.
func (c Card) Render(maxText int) Message {
	head := c.headLines()
	foot := c.footLines()
	shown := c.Steps
	if len(shown) > cardShownSteps {
		shown = shown[len(shown)-cardShownSteps:]
	}
	for {
		text := c.assemble(head, shown, foot)
		if maxText <= 0 || len(text) <= maxText {
			return Message{Text: text}
		}
		if len(shown) == 0 {
			return Message{Text: cardClipBytes(text, maxText)}
		}
		shown = shown[1:]
	}
}

// assemble joins the card's parts, showing the steps in shown (a suffix
// of c.Steps).
func (c Card) assemble(head []string, shown []Step, foot []string) string {
	lines := make([]string, 0, len(head)+len(shown)+1+len(foot))
	lines = append(lines, head...)
	if hidden := len(c.Steps) - len(shown); hidden > 0 {
		word := "steps"
		if hidden == 1 {
			word = "step"
		}
		lines = append(lines, fmt.Sprintf("… %d earlier %s", hidden, word))
	}
	for _, s := range shown {
		lines = append(lines, stepLine(s))
	}
	lines = append(lines, foot...)
	return strings.Join(lines, "\n")
}

// headLines are the phase and task, then where the work happens.
func (c Card) headLines() []string {
	label := c.Phase.String()
	if c.Phase == PhaseQueued && c.QueueAhead > 0 {
		label = fmt.Sprintf("queued (%d ahead)", c.QueueAhead)
	}
	first := c.Phase.marker() + " **" + label + "**"
	if task := clipRunes(cardLine(c.Task), cardTaskRunes); task != "" {
		first += " · " + task
	}
	lines := []string{first}

	var where []string
	if c.Repo != "" {
		at := c.Repo
		if c.Branch != "" {
			at += "@" + c.Branch
		}
		where = append(where, cardCode(at))
	}
	if who := cardLine(c.Speaker); who != "" {
		where = append(where, "by "+who)
	}
	if len(where) > 0 {
		lines = append(lines, strings.Join(where, " · "))
	}
	return lines
}

// footLines are the accounting, then the note and the error.
func (c Card) footLines() []string {
	var parts []string
	if c.PromptTokens > 0 || c.CompletionTokens > 0 {
		parts = append(parts, "tokens "+fmtTokens(c.PromptTokens)+" in · "+fmtTokens(c.CompletionTokens)+" out")
	}
	if c.PromptTokens > 0 {
		pct := min(c.CacheHitTokens*100/c.PromptTokens, 100)
		parts = append(parts, fmt.Sprintf("cache %d%%", pct))
	}
	if c.Cost > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f", c.Cost))
	}
	if c.Elapsed > 0 {
		parts = append(parts, fmtElapsed(c.Elapsed))
	}
	var lines []string
	if len(parts) > 0 {
		lines = append(lines, strings.Join(parts, " · "))
	}
	if note := strings.TrimSpace(c.Note); note != "" {
		lines = append(lines, note)
	}
	if e := strings.TrimSpace(c.Error); e != "" {
		lines = append(lines, "**error:** "+e)
	}
	return lines
}

// stepLine is one step: marker, tool, subject as inline code, duration.
func stepLine(s Step) string {
	var b strings.Builder
	b.WriteString(s.State.marker())
	b.WriteString(" ")
	b.WriteString(s.Tool)
	if subj := clipRunes(cardLine(s.Subject), cardSubjectRunes); subj != "" {
		b.WriteString(" ")
		b.WriteString(cardCode(subj))
	}
	if s.Duration > 0 {
		b.WriteString(" ")
		b.WriteString(fmtStepDuration(s.Duration))
	}
	if note := cardLine(s.Note); note != "" {
		b.WriteString(" — ")
		b.WriteString(clipRunes(note, cardSubjectRunes))
	}
	return b.String()
}

// cardLine folds s onto one line.
func cardLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cardCode wraps s as inline code; backticks inside would end the span
// early, so they become quotes.
func cardCode(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// clipRunes shortens s to at most n runes, ending with an ellipsis when
// something was cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// cardClipBytes shortens s to at most n bytes without splitting a rune,
// ending with an ellipsis when there is room for one.
func cardClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	if n <= len(ellipsis) {
		return cardRuneFloor(s, n)
	}
	return cardRuneFloor(s, n-len(ellipsis)) + ellipsis
}

// cardRuneFloor is the longest prefix of s of at most n bytes that ends on
// a rune boundary.
func cardRuneFloor(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fmtTokens prints a token count: 850, 12.3k, 4.5M.
func fmtTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 999_950:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
}

// fmtStepDuration prints how long a step took: 340ms, 1.2s, 2m03s.
func fmtStepDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute-50*time.Millisecond:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		return fmtElapsed(d)
	}
}

// fmtElapsed prints a turn's running time: 42s, 1m05s, 2h03m.
func fmtElapsed(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	default:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}
