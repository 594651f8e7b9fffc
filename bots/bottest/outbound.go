package bottest

import (
	"context"
	"slices"
	"time"

	"github.com/reasonix/teams/bots"
)

// Post records m as a new message from the bot in ref's thread and returns
// its id. Posting with no thread starts one, as a top-level message does:
// the message's id becomes the thread id of its ref.
func (p *Platform) Post(ctx context.Context, ref bots.ThreadRef, m bots.Message) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpPost); err != nil {
		return "", err
	}
	if err := p.checkMessage(m); err != nil {
		return "", err
	}
	id := p.nextIDLocked("m")
	p.addLocked(ref, id, p.botUser(), m)
	return id, nil
}

// Update records an edit of a message: m replaces its text and buttons.
func (p *Platform) Update(ctx context.Context, ref bots.ThreadRef, messageID string, m bots.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpUpdate); err != nil {
		return err
	}
	r, err := p.lookupLocked(ref, messageID)
	if err != nil {
		return err
	}
	if err := p.checkMessage(m); err != nil {
		return err
	}
	r.posted.Edits = append(r.posted.Edits, Edit{At: time.Now(), Message: cloneMessage(m)})
	p.notifyLocked()
	return nil
}

// PostEphemeral records a message in ref's thread that only userID sees.
func (p *Platform) PostEphemeral(ctx context.Context, ref bots.ThreadRef, userID string, m bots.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpEphemeral); err != nil {
		return err
	}
	if err := p.checkMessage(m); err != nil {
		return err
	}
	t := p.threadLocked(ref)
	t.ephemerals = append(t.ephemerals, Ephemeral{User: userID, Message: cloneMessage(m), At: time.Now()})
	p.notifyLocked()
	return nil
}

// ReplyCommand records a private answer to a slash command. The event must
// carry the reply token that Command gave it.
func (p *Platform) ReplyCommand(ctx context.Context, ev bots.Event, m bots.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpReply); err != nil {
		return err
	}
	if ev.ReplyToken == "" {
		return ErrNoReplyToken
	}
	if err := p.checkMessage(m); err != nil {
		return err
	}
	p.replies = append(p.replies, CommandReply{Event: ev, Message: cloneMessage(m), At: time.Now()})
	p.notifyLocked()
	return nil
}

// React adds or removes an emoji reaction of the bot on a message.
func (p *Platform) React(ctx context.Context, ref bots.ThreadRef, messageID, emoji string, add bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpReact); err != nil {
		return err
	}
	r, err := p.lookupLocked(ref, messageID)
	if err != nil {
		return err
	}
	if add {
		r.reactions[emoji] = true
	} else {
		delete(r.reactions, emoji)
	}
	p.notifyLocked()
	return nil
}

// Upload records a file attached to ref's thread.
func (p *Platform) Upload(ctx context.Context, ref bots.ThreadRef, filename string, content []byte, comment string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ref = p.normalize(ref)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.attemptLocked(OpUpload); err != nil {
		return err
	}
	t := p.threadLocked(ref)
	t.files = append(t.files, File{
		Ref: ref, Name: filename, Content: slices.Clone(content), Comment: comment, At: time.Now(),
	})
	p.notifyLocked()
	return nil
}

// addLocked records a new message by user. With no thread in ref, the
// message starts one named after it.
func (p *Platform) addLocked(ref bots.ThreadRef, id string, user bots.User, m bots.Message) *record {
	if ref.Thread == "" {
		ref.Thread = id
	}
	r := &record{
		posted: Posted{
			ID: id, Ref: ref, User: user,
			Edits: []Edit{{At: time.Now(), Message: cloneMessage(m)}},
		},
		reactions: make(map[string]bool),
	}
	p.messages[messageKey(ref, id)] = r
	t := p.threadLocked(ref)
	t.messages = append(t.messages, r)
	p.notifyLocked()
	return r
}

func (p *Platform) botUser() bots.User {
	return bots.User{ID: BotUserID, Name: p.name, Bot: true}
}

func cloneMessage(m bots.Message) bots.Message {
	m.Buttons = slices.Clone(m.Buttons)
	return m
}
