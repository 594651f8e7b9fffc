package bottest

import (
	"context"
	"fmt"
	"time"

	"github.com/reasonix/teams/bots"
)

// NewThread returns the ref of a new thread in channel, as if someone had
// just posted a top-level message there: the first message Say puts into
// it takes the thread's id as its own.
func (p *Platform) NewThread(channel string) bots.ThreadRef {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bots.ThreadRef{Platform: p.name, Team: p.team, Channel: channel, Thread: p.nextIDLocked("th")}
}

// Send delivers ev to the handler and returns the handler's error, as a
// platform waits for the acknowledgement. It fills in an empty ID (unique),
// At and Ref.Platform. If Run has not registered a handler yet, Send waits
// for it until ctx ends.
func (p *Platform) Send(ctx context.Context, ev bots.Event) error {
	_, err := p.deliver(ctx, ev)
	return err
}

// Say posts text by user into ref's thread, then delivers it to the
// handler as a message event (Mention set as given) and returns the event
// delivered, with its MessageID, and the handler's error. The message stays
// in the thread whatever the handler says. With no thread in ref, the
// message starts a new one.
func (p *Platform) Say(ctx context.Context, ref bots.ThreadRef, user bots.User, text string, mention bool) (bots.Event, error) {
	ref = p.normalize(ref)
	p.mu.Lock()
	id := ref.Thread
	if _, taken := p.messages[messageKey(ref, id)]; id == "" || taken || p.threads[ref.Key()] != nil {
		id = p.nextIDLocked("m")
	}
	r := p.addLocked(ref, id, user, bots.Message{Text: text})
	ref = r.posted.Ref
	p.mu.Unlock()

	return p.deliver(ctx, bots.Event{
		Kind:      bots.KindMessage,
		Ref:       ref,
		MessageID: id,
		User:      user,
		Text:      text,
		Mention:   mention,
	})
}

// Press delivers a press of button b on a message by user. The message
// must exist and carry the button (same action id and value) now, as a
// person can only press what they see; send a bots.Event with Send to
// deliver a stale or forged press.
func (p *Platform) Press(ctx context.Context, ref bots.ThreadRef, messageID string, user bots.User, b bots.Button) error {
	ref = p.normalize(ref)
	p.mu.Lock()
	r, err := p.lookupLocked(ref, messageID)
	if err == nil && !hasButton(r.posted.Last(), b) {
		err = fmt.Errorf("%w: %q (%s) on %s", ErrNoButton, b.Label, b.ActionID, messageID)
	}
	p.mu.Unlock()
	if err != nil {
		return err
	}
	_, err = p.deliver(ctx, bots.Event{
		Kind:      bots.KindPress,
		Ref:       ref,
		MessageID: messageID,
		User:      user,
		ActionID:  b.ActionID,
		Value:     b.Value,
	})
	return err
}

// Command delivers a slash command typed by user in ref, with a reply
// token so that ReplyCommand can answer it.
func (p *Platform) Command(ctx context.Context, ref bots.ThreadRef, user bots.User, text string) error {
	p.mu.Lock()
	token := p.nextIDLocked("reply")
	p.mu.Unlock()
	_, err := p.deliver(ctx, bots.Event{
		Kind:       bots.KindCommand,
		Ref:        ref,
		User:       user,
		Text:       text,
		Mention:    true,
		ReplyToken: token,
	})
	return err
}

// deliver fills in ev and hands it to the handler.
func (p *Platform) deliver(ctx context.Context, ev bots.Event) (bots.Event, error) {
	p.mu.Lock()
	if ev.ID == "" {
		ev.ID = p.nextIDLocked("ev")
	}
	p.mu.Unlock()
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	ev.Ref = p.normalize(ev.Ref)
	h, err := p.waitHandler(ctx)
	if err != nil {
		return ev, err
	}
	return ev, h.Handle(ctx, ev)
}

// waitHandler returns the handler Run registered, waiting for one until
// ctx ends.
func (p *Platform) waitHandler(ctx context.Context) (bots.Handler, error) {
	for {
		p.mu.Lock()
		h, changed := p.handler, p.changed
		p.mu.Unlock()
		if h != nil {
			return h, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("bottest: no handler running: %w", ctx.Err())
		}
	}
}

func hasButton(m bots.Message, b bots.Button) bool {
	for _, have := range m.Buttons {
		if have.ActionID == b.ActionID && have.Value == b.Value {
			return true
		}
	}
	return false
}
