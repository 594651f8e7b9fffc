// Package bots is the platform-neutral chat gateway: it turns chat threads
// into agent sessions, renders their progress, routes approval buttons to
// the people allowed to press them, and keeps durable state so a restart
// loses nothing.
//
// Platform adapters (bots/slack, bots/discord) implement Adapter and import
// this package; the store (bots/jetstream) implements Store. cmd/ wires them
// together. This package imports the engine's controller and the workspaces
// package, never an adapter.
package bots

import (
	"context"
	"fmt"
	"time"
)

// ThreadRef addresses a conversation thread on a platform. Thread is the
// platform's thread id (Slack: the parent message ts; Discord: the thread
// channel id); a top-level message that starts a thread carries its own id
// there.
type ThreadRef struct {
	Platform string `json:"platform"`
	Team     string `json:"team"` // Slack workspace / Discord guild; "" for DMs where the platform has none
	Channel  string `json:"channel"`
	Thread   string `json:"thread"`
}

// Key is the thread's stable identity: platform:team:channel:thread.
func (r ThreadRef) Key() string {
	return r.Platform + ":" + r.Team + ":" + r.Channel + ":" + r.Thread
}

// ChannelKey names the channel, as access lists and repo bindings spell it:
// platform:channel.
func (r ThreadRef) ChannelKey() string { return r.Platform + ":" + r.Channel }

// User is a person on a platform.
type User struct {
	ID   string `json:"id"`   // the platform's user id
	Name string `json:"name"` // display name, for the agent and for people
	Bot  bool   `json:"bot,omitempty"`
}

// EventKind tells inbound events apart.
type EventKind string

// The kinds of inbound event.
const (
	KindMessage EventKind = "message" // a mention, or a message in a thread the bot owns
	KindCommand EventKind = "command" // a slash command
	KindPress   EventKind = "press"   // a button press
)

// Event is one inbound event, platform-neutral. It is recorded durably
// before the platform is acknowledged, so it must survive JSON encoding.
type Event struct {
	Kind EventKind `json:"kind"`
	// ID is the platform's id for this delivery of the event, used to drop
	// redeliveries (Slack event_id, Discord interaction or message id).
	ID  string    `json:"id"`
	Ref ThreadRef `json:"ref"`
	// MessageID is the message the event is about: the message itself, or
	// the message carrying the pressed button.
	MessageID string `json:"message_id,omitempty"`
	User      User   `json:"user"`
	Text      string `json:"text,omitempty"` // message text with the bot mention removed, or the command's text
	// Mention reports that the bot was addressed explicitly (a mention, a
	// direct message, a slash command), which is what starts a session in
	// a thread the bot does not own yet.
	Mention bool `json:"mention,omitempty"`
	// ActionID and Value identify a pressed button. The value is opaque:
	// the gateway looks the decision up server-side and never trusts it.
	ActionID string `json:"action_id,omitempty"`
	Value    string `json:"value,omitempty"`
	// ReplyToken is an adapter's handle for answering this event privately
	// (a Discord interaction token, a Slack response_url).
	ReplyToken string    `json:"reply_token,omitempty"`
	At         time.Time `json:"at"`
}

// ButtonStyle hints how a button is drawn.
type ButtonStyle string

// Button styles.
const (
	StyleDefault ButtonStyle = ""
	StylePrimary ButtonStyle = "primary"
	StyleDanger  ButtonStyle = "danger"
)

// Button is one action button under a message.
type Button struct {
	ActionID string      `json:"action_id"`
	Label    string      `json:"label"`
	Value    string      `json:"value"`
	Style    ButtonStyle `json:"style,omitempty"`
}

// Message is an outgoing message: markdown text (adapters convert it to
// their dialect) and optional buttons.
type Message struct {
	Text    string   `json:"text"`
	Buttons []Button `json:"buttons,omitempty"`
}

// Limits are what a platform allows; the gateway stays within them.
type Limits struct {
	// MaxText is the longest text one message may carry.
	MaxText int
	// MinEditInterval is the shortest gap between two edits of one message.
	MinEditInterval time.Duration
}

// Handler receives inbound events from an adapter. Handle returns once the
// event is durably recorded (a redelivery returns nil too); only then may
// the adapter acknowledge it to the platform. An error means "do not
// acknowledge": the platform will redeliver.
type Handler interface {
	Handle(ctx context.Context, ev Event) error
}

// Adapter connects one chat platform. Implementations must be safe for
// concurrent use.
type Adapter interface {
	// Platform is the adapter's name ("slack", "discord"), the first part
	// of thread keys and access entries.
	Platform() string
	Limits() Limits
	// Run connects and delivers inbound events to h until ctx ends.
	Run(ctx context.Context, h Handler) error
	// Post sends a message into a thread and returns its id.
	Post(ctx context.Context, ref ThreadRef, m Message) (string, error)
	// Update replaces a message's text and buttons.
	Update(ctx context.Context, ref ThreadRef, messageID string, m Message) error
}

// EphemeralPoster is an optional ability: a message in a thread that only
// one user sees.
type EphemeralPoster interface {
	PostEphemeral(ctx context.Context, ref ThreadRef, userID string, m Message) error
}

// CommandReplier is an optional ability: answer a slash command privately
// to the person who ran it.
type CommandReplier interface {
	ReplyCommand(ctx context.Context, ev Event, m Message) error
}

// Reactor is an optional ability: add or remove an emoji reaction. Emoji
// are platform-neutral names: "eyes", "white_check_mark", "x".
type Reactor interface {
	React(ctx context.Context, ref ThreadRef, messageID, emoji string, add bool) error
}

// Uploader is an optional ability: attach a file to a thread.
type Uploader interface {
	Upload(ctx context.Context, ref ThreadRef, filename string, content []byte, comment string) error
}

// RateLimitError is what adapters return when the platform said 429 (after
// their own retries, if any): callers wait RetryAfter and try again.
type RateLimitError struct {
	Op         string
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s: rate limited; retry after %s", e.Op, e.RetryAfter)
}
