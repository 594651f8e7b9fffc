package bottest

import (
	"context"
	"fmt"
	"strings"

	"github.com/reasonix/teams/bots"
)

// WaitFor returns once cond holds, checking it now and again each time
// the platform records something, or ctx's error (wrapped) when ctx ends
// first. cond runs without the platform's lock held, so it may call any
// query method.
func (p *Platform) WaitFor(ctx context.Context, cond func(*Platform) bool) error {
	for {
		p.mu.Lock()
		changed := p.changed
		p.mu.Unlock()
		if cond(p) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("bottest: condition not met: %w", ctx.Err())
		}
	}
}

// HasBotMessages holds once the bot posted at least n messages in ref's
// thread.
func HasBotMessages(ref bots.ThreadRef, n int) func(*Platform) bool {
	return func(p *Platform) bool { return len(p.BotMessages(ref)) >= n }
}

// HasText holds once a message of the bot in ref's thread currently reads
// something containing substr.
func HasText(ref bots.ThreadRef, substr string) func(*Platform) bool {
	return func(p *Platform) bool {
		for _, m := range p.BotMessages(ref) {
			if strings.Contains(m.Text(), substr) {
				return true
			}
		}
		return false
	}
}

// HasEdits holds once a message has at least n versions, the post
// included.
func HasEdits(ref bots.ThreadRef, messageID string, n int) func(*Platform) bool {
	return func(p *Platform) bool {
		m, ok := p.Message(ref, messageID)
		return ok && len(m.Edits) >= n
	}
}

// Reads holds once a message currently reads exactly text.
func Reads(ref bots.ThreadRef, messageID, text string) func(*Platform) bool {
	return func(p *Platform) bool {
		m, ok := p.Message(ref, messageID)
		return ok && m.Text() == text
	}
}

// HasReaction holds once the emoji is on a message.
func HasReaction(ref bots.ThreadRef, messageID, emoji string) func(*Platform) bool {
	return func(p *Platform) bool {
		for _, e := range p.Reactions(ref, messageID) {
			if e == emoji {
				return true
			}
		}
		return false
	}
}

// HasEphemerals holds once at least n ephemeral messages were posted in
// ref's thread.
func HasEphemerals(ref bots.ThreadRef, n int) func(*Platform) bool {
	return func(p *Platform) bool { return len(p.Ephemerals(ref)) >= n }
}

// HasAttempts holds once op was called at least n times.
func HasAttempts(op string, n int) func(*Platform) bool {
	return func(p *Platform) bool { return p.Attempts(op) >= n }
}
