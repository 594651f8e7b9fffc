package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

// callbackEnvelope is an Events API delivery: the same JSON arrives as a
// Socket Mode events_api payload and as the body of an HTTP POST.
type callbackEnvelope struct {
	Type      string     `json:"type"` // event_callback, url_verification
	TeamID    string     `json:"team_id"`
	EventID   string     `json:"event_id"` // stable across Slack's retries
	Challenge string     `json:"challenge"`
	Event     innerEvent `json:"event"`
}

// innerEvent holds the fields of app_mention and message events the
// adapter reads.
type innerEvent struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	User        string `json:"user"`
	BotID       string `json:"bot_id"`
	Text        string `json:"text"`
	TS          string `json:"ts"`
	ThreadTS    string `json:"thread_ts"`
	Channel     string `json:"channel"`
	ChannelType string `json:"channel_type"`
	Team        string `json:"team"`
}

// forwardedSubtypes are the message subtypes that carry a person's words;
// edits, deletions, joins and bot posts are not forwarded.
var forwardedSubtypes = map[string]bool{"": true, "thread_broadcast": true, "file_share": true}

// fromCallback converts an Events API payload. ok is false for events the
// gateway does not want (they are acknowledged and dropped); err means the
// payload could not be read or the bot's identity is unknown.
func (a *Adapter) fromCallback(ctx context.Context, raw []byte) (ev bots.Event, ok bool, err error) {
	var env callbackEnvelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return bots.Event{}, false, fmt.Errorf("slack: reading event payload: %w", err)
	}
	if env.Type != "event_callback" {
		return bots.Event{}, false, nil
	}
	self, err := a.Identify(ctx)
	if err != nil {
		return bots.Event{}, false, err
	}
	e := env.Event
	if e.BotID != "" || e.User == "" || e.User == self.UserID {
		return bots.Event{}, false, nil // bots, including this one, never drive a session
	}
	mention := false
	switch e.Type {
	case "app_mention":
		mention = true
	case "message":
		switch {
		case !forwardedSubtypes[e.Subtype]:
			return bots.Event{}, false, nil
		case e.ChannelType == "im":
			// Slack sends no app_mention for direct messages: each one
			// addresses the bot.
			mention = true
		case self.UserID != "" && strings.Contains(e.Text, "<@"+self.UserID):
			return bots.Event{}, false, nil // the app_mention copy carries it
		case e.ThreadTS == "":
			return bots.Event{}, false, nil // channel chatter outside threads
		}
	default:
		return bots.Event{}, false, nil
	}
	thread := e.ThreadTS
	if thread == "" {
		thread = e.TS
	}
	return bots.Event{
		Kind:      bots.KindMessage,
		ID:        env.EventID,
		Ref:       bots.ThreadRef{Platform: "slack", Team: firstNonEmpty(env.TeamID, e.Team, self.TeamID), Channel: e.Channel, Thread: thread},
		MessageID: e.TS,
		User:      bots.User{ID: e.User, Name: a.users.name(ctx, e.User)},
		Text:      a.users.plainText(ctx, e.Text, self.UserID),
		Mention:   mention,
		At:        tsTime(e.TS),
	}, true, nil
}

// fromInteraction converts a button press. Other interactions (modals,
// shortcuts) are dropped.
func (a *Adapter) fromInteraction(ctx context.Context, cb slack.InteractionCallback) (ev bots.Event, ok bool) {
	if cb.Type != slack.InteractionTypeBlockActions || len(cb.ActionCallback.BlockActions) == 0 {
		return bots.Event{}, false
	}
	act := cb.ActionCallback.BlockActions[0]
	msgTS := firstNonEmpty(cb.Container.MessageTs, cb.Message.Timestamp)
	key := firstNonEmpty(cb.TriggerID, act.ActionTs, cb.ActionTs)
	team := cb.Team.ID
	if team == "" {
		if self, err := a.Identify(ctx); err == nil {
			team = self.TeamID
		}
	}
	return bots.Event{
		Kind: bots.KindPress,
		ID:   "action:" + key,
		Ref: bots.ThreadRef{
			Platform: "slack",
			Team:     team,
			Channel:  firstNonEmpty(cb.Channel.ID, cb.Container.ChannelID),
			Thread:   firstNonEmpty(cb.Message.ThreadTimestamp, cb.Container.ThreadTs, msgTS),
		},
		MessageID:  msgTS,
		User:       bots.User{ID: cb.User.ID, Name: a.users.name(ctx, cb.User.ID)},
		ActionID:   act.ActionID,
		Value:      act.Value,
		ReplyToken: cb.ResponseURL,
		At:         tsTime(firstNonEmpty(act.ActionTs, cb.ActionTs)),
	}, true
}

// fromCommand converts a slash command. It is addressed to the bot, so it
// counts as a mention; it belongs to the channel, not to a thread.
func (a *Adapter) fromCommand(ctx context.Context, cmd slack.SlashCommand) bots.Event {
	self, _ := a.Identify(ctx) // best effort: only the team fallback needs it
	return bots.Event{
		Kind:       bots.KindCommand,
		ID:         "cmd:" + cmd.TriggerID,
		Ref:        bots.ThreadRef{Platform: "slack", Team: firstNonEmpty(cmd.TeamID, self.TeamID), Channel: cmd.ChannelID},
		User:       bots.User{ID: cmd.UserID, Name: firstNonEmpty(a.users.name(ctx, cmd.UserID), cmd.UserName)},
		Text:       a.users.plainText(ctx, cmd.Text, self.UserID),
		Mention:    true,
		ReplyToken: cmd.ResponseURL,
		At:         time.Now(),
	}
}

// tsTime reads a Slack timestamp ("1700000000.000100") as a time; the
// current time when it does not parse.
func tsTime(ts string) time.Time {
	sec, frac, _ := strings.Cut(ts, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Now()
	}
	var micros int64
	if frac != "" {
		frac = (frac + "000000")[:6]
		micros, _ = strconv.ParseInt(frac, 10, 64)
	}
	return time.Unix(s, micros*1000).UTC()
}
