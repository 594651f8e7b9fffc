// Package bottest is an in-memory chat platform for tests and benchmarks of
// the gateway and its renderers. A Platform implements bots.Adapter and all
// its optional abilities, records everything posted to it with timestamps,
// delivers injected inbound events to the registered handler, fails calls on
// demand, and lets a test wait for a condition without sleeping.
//
// Only tests and benchmarks import it; it imports bots and nothing else of
// this module.
package bottest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/reasonix/teams/bots"
)

// Errors the platform returns, the way a real one rejects a request.
var (
	// ErrNoMessage means a message id is unknown in the channel.
	ErrNoMessage = errors.New("bottest: no such message")
	// ErrNoButton means a pressed button is not on the message (any more).
	ErrNoButton = errors.New("bottest: no such button on the message")
	// ErrTooLong means a message's text is over Limits.MaxText characters.
	ErrTooLong = errors.New("bottest: message text too long")
	// ErrEmptyMessage means a message had neither text nor buttons.
	ErrEmptyMessage = errors.New("bottest: empty message")
	// ErrNoReplyToken means a command reply was for an event without a
	// reply token.
	ErrNoReplyToken = errors.New("bottest: event has no reply token")
	// ErrRunning means Run was called while another Run was active.
	ErrRunning = errors.New("bottest: already running")
)

// BotUserID is the author id of the messages the adapter posts.
const BotUserID = "bot"

// Options configure a Platform.
type Options struct {
	// Name is the platform name, the first part of thread keys; "mem" if
	// empty.
	Name string
	// Team goes into the refs NewThread makes.
	Team string
	// Limits are what the platform reports and enforces (MaxText); the
	// zero MaxText means 4000.
	Limits bots.Limits
}

// Platform is an in-memory chat platform. It is safe for concurrent use.
type Platform struct {
	name   string
	team   string
	limits bots.Limits

	mu       sync.Mutex    // guards everything below
	changed  chan struct{} // closed and replaced whenever anything changes
	handler  bots.Handler  // set while Run is active
	seq      int           // for ids
	threads  map[string]*threadLog
	messages map[string]*record // by messageKey
	replies  []CommandReply
	faults   map[string][]error // by op, oldest first
	attempts map[string]int     // calls by op, failed ones included
	failures []Failure          // injected failures used
}

// threadLog is everything recorded in one thread, in order.
type threadLog struct {
	messages   []*record
	ephemerals []Ephemeral
	files      []File
}

// record is a message and its current reactions.
type record struct {
	posted    Posted
	reactions map[string]bool
}

// New returns an empty platform.
func New(opts Options) *Platform {
	if opts.Name == "" {
		opts.Name = "mem"
	}
	if opts.Limits.MaxText == 0 {
		opts.Limits.MaxText = 4000
	}
	return &Platform{
		name:     opts.Name,
		team:     opts.Team,
		limits:   opts.Limits,
		changed:  make(chan struct{}),
		threads:  make(map[string]*threadLog),
		messages: make(map[string]*record),
		faults:   make(map[string][]error),
		attempts: make(map[string]int),
	}
}

var (
	_ bots.Adapter         = (*Platform)(nil)
	_ bots.EphemeralPoster = (*Platform)(nil)
	_ bots.CommandReplier  = (*Platform)(nil)
	_ bots.Reactor         = (*Platform)(nil)
	_ bots.Uploader        = (*Platform)(nil)
)

// Platform returns the platform's name.
func (p *Platform) Platform() string { return p.name }

// Limits returns the limits given in Options.
func (p *Platform) Limits() bots.Limits { return p.limits }

// Run makes h the receiver of injected events and blocks until ctx ends;
// it then returns nil. Only one Run may be active at a time.
func (p *Platform) Run(ctx context.Context, h bots.Handler) error {
	p.mu.Lock()
	if p.handler != nil {
		p.mu.Unlock()
		return ErrRunning
	}
	p.handler = h
	p.notifyLocked()
	p.mu.Unlock()

	<-ctx.Done()

	p.mu.Lock()
	p.handler = nil
	p.notifyLocked()
	p.mu.Unlock()
	return nil
}

// notifyLocked wakes everyone waiting for a change.
func (p *Platform) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// nextIDLocked returns a new id with the prefix: "m-7".
func (p *Platform) nextIDLocked(prefix string) string {
	p.seq++
	return fmt.Sprintf("%s-%d", prefix, p.seq)
}

// normalize fills in the platform name of a ref.
func (p *Platform) normalize(ref bots.ThreadRef) bots.ThreadRef {
	if ref.Platform == "" {
		ref.Platform = p.name
	}
	return ref
}

// threadLocked returns the log of ref's thread, creating it.
func (p *Platform) threadLocked(ref bots.ThreadRef) *threadLog {
	t, ok := p.threads[ref.Key()]
	if !ok {
		t = &threadLog{}
		p.threads[ref.Key()] = t
	}
	return t
}

// messageKey names a message: ids are unique within a channel, as Slack's
// ts is, so a message is found by its channel and id whatever thread ref
// the caller holds.
func messageKey(ref bots.ThreadRef, id string) string {
	return ref.Platform + ":" + ref.Team + ":" + ref.Channel + "/" + id
}

// lookupLocked finds a message by its channel and id.
func (p *Platform) lookupLocked(ref bots.ThreadRef, id string) (*record, error) {
	r, ok := p.messages[messageKey(ref, id)]
	if !ok {
		return nil, fmt.Errorf("%w: %s in %s", ErrNoMessage, id, ref.ChannelKey())
	}
	return r, nil
}

// checkMessage rejects what a real platform would not accept.
func (p *Platform) checkMessage(m bots.Message) error {
	if m.Text == "" && len(m.Buttons) == 0 {
		return ErrEmptyMessage
	}
	if n := utf8.RuneCountInString(m.Text); n > p.limits.MaxText {
		return fmt.Errorf("%w: %d characters, the limit is %d", ErrTooLong, n, p.limits.MaxText)
	}
	return nil
}
