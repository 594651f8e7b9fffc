package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/transcript"
)

// Compaction budgets, in estimated tokens. They are construction limits,
// not settings: the trigger (ContextWindow × CompactRatio) is the only knob.
const (
	compactPerTurnTokens = 1500  // one protected user turn at most
	compactUserTokens    = 8192  // all protected user turns together (or 5% of the window)
	compactTailMaxTokens = 96000 // the verbatim tail (or 10% of the window)
	compactTailMinTokens = 256
	compactDigestTokens  = 16000 // the digest's completion budget
	bytesPerToken        = 4
)

// digestRequest asks the model for the structured digest. It is appended
// after the unchanged history, so the summary call itself reuses the cache.
const digestRequest = `[reasonix] The conversation is about to be compacted to fit the context window. Write a digest that lets you continue the work without the earlier messages. Use exactly these sections, in this order, each as a markdown heading with terse bullet points:
## Standing facts and constraints
## Goal
## Decisions
## Files
## Commands and outcomes
## Errors and fixes
## Pending next step
Quote user constraints exactly. Name files by path. Do not call tools.`

// digestHeader opens the projection's first message; a later fold finds
// the user turns an earlier fold kept by it.
const digestHeader = "[reasonix] Earlier conversation, compacted. The digest below replaces it; the full record stays in the transcript.\n\n"

// estimateTokens guesses the size of the next request from its bytes.
func estimateTokens(system string, tools []provider.ToolSpec, msgs []provider.Message) int {
	n := len(system)
	for _, t := range tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	for _, m := range msgs {
		n += messageBytes(m)
	}
	return (n + bytesPerToken - 1) / bytesPerToken
}

func messageBytes(m provider.Message) int {
	n := len(m.Content) + len(m.ReasoningContent) + 16
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments) + 16
	}
	return n
}

// trigger is the token count at which compaction runs; 0 disables it.
func (s *Session) trigger() int {
	if s.opts.ContextWindow <= 0 || s.opts.CompactRatio <= 0 || s.opts.CompactRatio >= 1 {
		return 0
	}
	return int(float64(s.opts.ContextWindow) * s.opts.CompactRatio)
}

// maybeCompact runs before each round: once the estimated next prompt
// reaches ContextWindow × CompactRatio, it replaces the history with one
// projection — a digest, the protected user turns, and a verbatim tail.
// This is the only place history is rewritten and the one deliberate prompt
// cache reset. A failed attempt is not retried within the same generation.
func (s *Session) maybeCompact(ctx context.Context, env Env) error {
	trigger := s.trigger()
	if trigger == 0 {
		return nil
	}
	s.mu.Lock()
	msgs := append([]provider.Message(nil), s.messages...)
	rewrite, failedGen := s.rewrite, s.compactFailedGen
	s.mu.Unlock()
	source := estimateTokens(s.system, s.tools, msgs)
	if source < trigger || failedGen == rewrite+1 {
		return nil
	}
	c, err := s.compact(ctx, msgs, env)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.mu.Lock()
		s.compactFailedGen = rewrite + 1
		s.mu.Unlock()
		env.Emit(event.Notice{Level: "warn", Code: "compaction_failed", Text: fmt.Sprintf("compaction failed, history kept (%d of %d tokens): %v", source, trigger, err)})
		return nil
	}
	candidate := estimateTokens(s.system, s.tools, c.messages)
	if candidate >= source || candidate >= trigger {
		s.mu.Lock()
		s.compactFailedGen = rewrite + 1
		s.mu.Unlock()
		env.Emit(event.Notice{Level: "warn", Code: "compaction_failed", Text: fmt.Sprintf("compaction candidate of %d tokens is not below the source (%d) and the trigger (%d); history kept", candidate, source, trigger)})
		return nil
	}
	s.mu.Lock()
	// Steers and turns only append; anything appended since the snapshot
	// (nothing, while the loop holds the turn) stays after the projection.
	s.messages = append(c.messages, s.messages[len(msgs):]...)
	s.rewrite++
	newRewrite := s.rewrite
	projected := append([]provider.Message(nil), s.messages...)
	s.mu.Unlock()
	if err := s.record(transcript.Record{Type: transcript.TypeCompaction, Compaction: &transcript.Compaction{Rewrite: newRewrite, Messages: projected}}); err != nil {
		return err
	}
	level := "info"
	text := fmt.Sprintf("context compacted from ~%d to ~%d tokens (trigger %d): %d messages folded into a digest; %d user turns kept verbatim, %d folded; the prompt cache resets once here",
		source, candidate, trigger, c.folded, c.keptTurns, c.foldedTurns)
	if c.foldedTurns > 0 {
		level = "warn"
	}
	env.Emit(event.Notice{Level: level, Code: "compaction", Text: text})
	return nil
}

// compaction is a candidate projection.
type compaction struct {
	messages    []provider.Message
	folded      int // messages replaced by the digest
	keptTurns   int // user turns kept verbatim
	foldedTurns int // user turns left to the digest
}

// compact builds a candidate: it asks the model for a digest of the whole
// history, keeps a verbatim tail that starts at a message which is not a
// tool result, and hoists early user turns within budget.
func (s *Session) compact(ctx context.Context, msgs []provider.Message, env Env) (compaction, error) {
	tailStart := tailStart(msgs, s.tailBudget())
	if tailStart == 0 {
		return compaction{}, fmt.Errorf("the recent tail alone fills the budget; nothing to fold")
	}
	req := provider.Request{
		Model:     s.opts.Model,
		Messages:  append(append([]provider.Message{{Role: provider.RoleSystem, Content: s.system}}, msgs...), provider.Message{Role: provider.RoleUser, Content: digestRequest}),
		Tools:     s.tools,
		NoTools:   true,
		MaxTokens: compactDigestTokens,
	}
	resp, err := s.opts.Provider.Stream(ctx, req, nil)
	if err != nil {
		return compaction{}, err
	}
	s.account(resp.Usage, shapeOf(s.system, s.tools, s.rewrite), env)
	digest := strings.TrimSpace(resp.Message.Content)
	if digest == "" {
		return compaction{}, fmt.Errorf("the model returned an empty digest")
	}
	kept, foldedTurns := protectedTurns(msgs[:tailStart], s.userBudget())
	var b strings.Builder
	b.WriteString(digestHeader)
	if len(kept) > 0 {
		b.WriteString("User messages from earlier, verbatim:\n")
		for _, k := range kept {
			b.WriteString("<user_message>\n" + k + "\n</user_message>\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(digest)
	out := []provider.Message{{Role: provider.RoleUser, Content: b.String()}}
	if msgs[tailStart].Role == provider.RoleUser {
		// Two user messages in a row are valid, but an acknowledgement keeps
		// the digest clearly separate from the live request.
		out = append(out, provider.Message{Role: provider.RoleAssistant, Content: "Understood; continuing from the digest."})
	}
	out = append(out, msgs[tailStart:]...)
	return compaction{messages: out, folded: tailStart, keptTurns: len(kept), foldedTurns: foldedTurns}, nil
}

func (s *Session) tailBudget() int {
	b := s.opts.ContextWindow / 10
	return max(compactTailMinTokens, min(b, compactTailMaxTokens))
}

func (s *Session) userBudget() int {
	return min(compactUserTokens, max(s.opts.ContextWindow/20, compactPerTurnTokens))
}

// tailStart picks where the verbatim tail begins: as far back as the budget
// allows, never at a tool result (which would orphan it from its call).
func tailStart(msgs []provider.Message, budget int) int {
	used, start := 0, len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		used += (messageBytes(msgs[i]) + bytesPerToken - 1) / bytesPerToken
		if used > budget {
			break
		}
		if msgs[i].Role != provider.RoleTool {
			start = i
		}
	}
	if start == len(msgs) {
		// Even the last exchange is over budget: keep from the last
		// message that is not a tool result.
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role != provider.RoleTool {
				return i
			}
		}
		return 0
	}
	return start
}

// protectedTurns returns the user-authored messages of the fold region to
// keep verbatim, oldest first, each within compactPerTurnTokens and together
// within budget, and how many were left to the digest. Turns an earlier fold
// kept are found inside its digest message, so protection survives repeated
// compaction.
func protectedTurns(fold []provider.Message, budget int) ([]string, int) {
	var turns []string
	for _, m := range fold {
		switch {
		case m.Role != provider.RoleUser:
		case strings.HasPrefix(m.Content, digestHeader):
			turns = append(turns, keptInDigest(m.Content)...)
		case strings.HasPrefix(m.Content, "[reasonix]"):
			// the engine's own notes (step limit) are not user turns
		default:
			turns = append(turns, m.Content)
		}
	}
	var kept []string
	folded, used := 0, 0
	for _, t := range turns {
		n := (len(t) + bytesPerToken - 1) / bytesPerToken
		if n > compactPerTurnTokens || used+n > budget {
			folded++
			continue
		}
		used += n
		kept = append(kept, t)
	}
	return kept, folded
}

// keptInDigest extracts the verbatim user messages of an earlier digest.
func keptInDigest(digest string) []string {
	var out []string
	for {
		i := strings.Index(digest, "<user_message>\n")
		if i < 0 {
			return out
		}
		digest = digest[i+len("<user_message>\n"):]
		j := strings.Index(digest, "\n</user_message>")
		if j < 0 {
			return out
		}
		out = append(out, digest[:j])
		digest = digest[j:]
	}
}
