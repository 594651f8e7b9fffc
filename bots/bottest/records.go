package bottest

import (
	"slices"
	"sort"
	"time"

	"github.com/reasonix/teams/bots"
)

// Posted is a message as the platform recorded it.
type Posted struct {
	ID  string
	Ref bots.ThreadRef // the thread it is in
	// User is the author: BotUserID (with Bot set) for what the adapter
	// posted, the speaker for what Say injected.
	User bots.User
	// Edits holds every version of the message, oldest first: the first
	// is the post itself, each later one an Update.
	Edits []Edit
}

// Edit is one version of a message.
type Edit struct {
	At      time.Time
	Message bots.Message
}

// Last is the message as it reads now.
func (m Posted) Last() bots.Message { return m.Edits[len(m.Edits)-1].Message }

// Text is the message's current text.
func (m Posted) Text() string { return m.Last().Text }

// FromBot reports that the adapter posted the message.
func (m Posted) FromBot() bool { return m.User.ID == BotUserID }

// Ephemeral is a message in a thread that only one user sees.
type Ephemeral struct {
	User    string // the user id it was shown to
	Message bots.Message
	At      time.Time
}

// CommandReply is a private answer to a slash command.
type CommandReply struct {
	Event   bots.Event // the command it answers
	Message bots.Message
	At      time.Time
}

// File is an uploaded file.
type File struct {
	Ref     bots.ThreadRef
	Name    string
	Content []byte
	Comment string
	At      time.Time
}

// Messages returns copies of the messages in ref's thread, the users' and
// the bot's, oldest first.
func (p *Platform) Messages(ref bots.ThreadRef) []Posted {
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.threads[ref.Key()]
	if !ok {
		return nil
	}
	out := make([]Posted, 0, len(t.messages))
	for _, r := range t.messages {
		out = append(out, clonePosted(r.posted))
	}
	return out
}

// BotMessages returns copies of the messages the bot posted in ref's
// thread, oldest first.
func (p *Platform) BotMessages(ref bots.ThreadRef) []Posted {
	var out []Posted
	for _, m := range p.Messages(ref) {
		if m.FromBot() {
			out = append(out, m)
		}
	}
	return out
}

// Message returns a copy of one message, found by its channel and id.
func (p *Platform) Message(ref bots.ThreadRef, messageID string) (Posted, bool) {
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	r, err := p.lookupLocked(ref, messageID)
	if err != nil {
		return Posted{}, false
	}
	return clonePosted(r.posted), true
}

// Ephemerals returns the ephemeral messages posted in ref's thread.
func (p *Platform) Ephemerals(ref bots.ThreadRef) []Ephemeral {
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.threads[ref.Key()]
	if !ok {
		return nil
	}
	out := slices.Clone(t.ephemerals)
	for i := range out {
		out[i].Message = cloneMessage(out[i].Message)
	}
	return out
}

// CommandReplies returns every command reply, oldest first.
func (p *Platform) CommandReplies() []CommandReply {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.replies)
	for i := range out {
		out[i].Message = cloneMessage(out[i].Message)
	}
	return out
}

// Reactions returns the emoji currently on a message, sorted; nil if the
// message is unknown.
func (p *Platform) Reactions(ref bots.ThreadRef, messageID string) []string {
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	r, err := p.lookupLocked(ref, messageID)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(r.reactions))
	for e := range r.reactions {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// Uploads returns the files uploaded to ref's thread.
func (p *Platform) Uploads(ref bots.ThreadRef) []File {
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.threads[ref.Key()]
	if !ok {
		return nil
	}
	out := slices.Clone(t.files)
	for i := range out {
		out[i].Content = slices.Clone(out[i].Content)
	}
	return out
}

// MaxEditRate returns the shortest gap between two consecutive versions
// (the post counts as the first) of any one message: the fastest any
// message was written. ok is false when no message has been edited.
func (p *Platform) MaxEditRate() (gap time.Duration, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.messages {
		edits := r.posted.Edits
		for i := 1; i < len(edits); i++ {
			d := edits[i].At.Sub(edits[i-1].At)
			if !ok || d < gap {
				gap, ok = d, true
			}
		}
	}
	return gap, ok
}

func clonePosted(m Posted) Posted {
	m.Edits = slices.Clone(m.Edits)
	for i := range m.Edits {
		m.Edits[i].Message = cloneMessage(m.Edits[i].Message)
	}
	return m
}
