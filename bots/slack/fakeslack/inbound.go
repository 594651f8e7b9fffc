package fakeslack

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// InboundMessage is a message a person (or a bot) writes, for
// SendMessage.
type InboundMessage struct {
	Channel  string
	User     string
	Text     string
	ThreadTS string // "" for a top-level message
	BotID    string // set to make it a bot's message
	Subtype  string // "" for a plain message
}

// channelType is what Slack's message events call a channel by its id's
// first letter.
func channelType(channel string) string {
	switch {
	case strings.HasPrefix(channel, "D"):
		return "im"
	case strings.HasPrefix(channel, "G"):
		return "group"
	}
	return "channel"
}

// Mention has user write "@bot text" at the top level of channel, which
// starts a thread. Slack sends two events for it, an app_mention and a
// message, and so does the fake. It returns the message ts and the
// app_mention's envelope id.
func (s *Server) Mention(channel, user, text string) (ts, envelopeID string) {
	return s.SendMessage(InboundMessage{Channel: channel, User: user, Text: s.withMention(text)})
}

// ThreadReply has user reply in a thread. A reply that mentions the bot
// also produces an app_mention, as in Slack, whose envelope id is
// returned; otherwise the message event's.
func (s *Server) ThreadReply(channel, threadTS, user, text string) (ts, envelopeID string) {
	return s.SendMessage(InboundMessage{Channel: channel, User: user, Text: text, ThreadTS: threadTS})
}

// DM has user write to the bot directly in the IM channel (an id starting
// with D). Slack sends only a message event for it.
func (s *Server) DM(channel, user, text string) (ts, envelopeID string) {
	return s.SendMessage(InboundMessage{Channel: channel, User: user, Text: text})
}

// BotMessage is a message by the bot itself arriving as an event, as Slack
// echoes the bot's posts to apps subscribed to message events.
func (s *Server) BotMessage(channel, threadTS, text string) (ts, envelopeID string) {
	return s.SendMessage(InboundMessage{Channel: channel, User: s.opts.BotUserID, BotID: s.opts.BotID, Text: text, ThreadTS: threadTS})
}

// SendMessage records a message and delivers its events: an app_mention
// first when it mentions the bot outside a DM, then the message event. It
// returns the ts and the id of the first envelope.
func (s *Server) SendMessage(m InboundMessage) (ts, envelopeID string) {
	s.mu.Lock()
	ts = s.nextTSLocked()
	s.addMessageLocked(&Message{Channel: m.Channel, TS: ts, ThreadTS: m.ThreadTS, User: m.User, BotID: m.BotID, Text: m.Text})
	s.mu.Unlock()

	ev := map[string]any{
		"type": "message", "user": m.User, "text": m.Text, "ts": ts, "channel": m.Channel,
		"channel_type": channelType(m.Channel), "event_ts": ts, "team": s.opts.TeamID,
	}
	if m.ThreadTS != "" {
		ev["thread_ts"] = m.ThreadTS
	}
	if m.BotID != "" {
		ev["bot_id"] = m.BotID
	}
	if m.Subtype != "" {
		ev["subtype"] = m.Subtype
	}
	var ids []string
	if channelType(m.Channel) != "im" && strings.Contains(m.Text, "<@"+s.opts.BotUserID+">") {
		mention := map[string]any{
			"type": "app_mention", "user": m.User, "text": m.Text, "ts": ts, "channel": m.Channel,
			"event_ts": ts, "team": s.opts.TeamID,
		}
		if m.ThreadTS != "" {
			mention["thread_ts"] = m.ThreadTS
		}
		if m.BotID != "" {
			mention["bot_id"] = m.BotID
		}
		ids = append(ids, s.enqueue("events_api", s.callbackPayload(mention)))
	}
	ids = append(ids, s.enqueue("events_api", s.callbackPayload(ev)))
	for _, id := range ids {
		s.deliver(id)
	}
	return ts, ids[0]
}

// Click has user press a button on a message the bot posted. It returns
// the envelope id.
func (s *Server) Click(channel, messageTS, user, actionID, value string) string {
	s.mu.Lock()
	msg := map[string]any{"type": "message", "ts": messageTS}
	if m, ok := s.byKey[channel+"/"+messageTS]; ok {
		msg = wireMessage(m)
	}
	threadTS, _ := msg["thread_ts"].(string)
	trigger := s.nextIDLocked("trigger.")
	actionTS := s.nextTSLocked()
	userName := s.users[user].Name
	s.mu.Unlock()
	payload := map[string]any{
		"type":       "block_actions",
		"team":       map[string]any{"id": s.opts.TeamID, "domain": "fake"},
		"user":       map[string]any{"id": user, "username": userName, "name": userName, "team_id": s.opts.TeamID},
		"api_app_id": "AFAKE",
		"token":      "fake-verification",
		"container": map[string]any{
			"type": "message", "message_ts": messageTS, "channel_id": channel, "is_ephemeral": false, "thread_ts": threadTS,
		},
		"trigger_id":   trigger,
		"channel":      map[string]any{"id": channel, "name": "fake-channel"},
		"message":      msg,
		"response_url": s.URL + "/response/" + trigger,
		"actions": []map[string]any{{
			"type": "button", "action_id": actionID, "block_id": "fake-block", "value": value,
			"text": map[string]any{"type": "plain_text", "text": actionID}, "action_ts": actionTS,
		}},
	}
	raw, _ := json.Marshal(payload)
	id := s.enqueue("interactive", raw)
	s.deliver(id)
	return id
}

// SlashCommand has user run "/reasonix text" in channel. It returns the
// envelope id and the command's response_url.
func (s *Server) SlashCommand(channel, user, text string) (envelopeID, responseURL string) {
	s.mu.Lock()
	trigger := s.nextIDLocked("trigger.")
	userName := s.users[user].Name
	s.mu.Unlock()
	responseURL = s.URL + "/response/" + trigger
	payload := map[string]any{
		"token": "fake-verification", "team_id": s.opts.TeamID, "team_domain": "fake",
		"channel_id": channel, "channel_name": "fake-channel", "user_id": user, "user_name": userName,
		"command": "/reasonix", "text": text, "api_app_id": "AFAKE", "is_enterprise_install": "false",
		"response_url": responseURL, "trigger_id": trigger,
	}
	raw, _ := json.Marshal(payload)
	id := s.enqueue("slash_commands", raw)
	s.deliver(id)
	return id, responseURL
}

// ErrUnknownEnvelope is returned by Redeliver for an id it never issued.
var ErrUnknownEnvelope = errors.New("fakeslack: unknown envelope")

// Redeliver sends an envelope again, as Slack retries one it saw no ack
// for: same payload and event id, retry_attempt one higher.
func (s *Server) Redeliver(envelopeID string) error {
	s.mu.Lock()
	e, ok := s.envelopes[envelopeID]
	if ok {
		e.retryAttempt++
	}
	s.mu.Unlock()
	if !ok {
		return ErrUnknownEnvelope
	}
	s.deliver(envelopeID)
	return nil
}

// callbackPayload wraps an inner event as an Events API callback.
func (s *Server) callbackPayload(inner map[string]any) json.RawMessage {
	s.mu.Lock()
	eventID := s.nextIDLocked("Ev")
	s.mu.Unlock()
	raw, _ := json.Marshal(map[string]any{
		"token": "fake-verification", "team_id": s.opts.TeamID, "api_app_id": "AFAKE",
		"event": inner, "type": "event_callback", "event_id": eventID, "event_time": time.Now().Unix(),
		"authorizations": []map[string]any{{"team_id": s.opts.TeamID, "user_id": s.opts.BotUserID, "is_bot": true}},
	})
	return raw
}

// MentionEventBody returns the Events API body of an app_mention, for
// tests that build their own HTTP requests. Nothing is recorded or sent.
func (s *Server) MentionEventBody(channel, user, text string) []byte {
	s.mu.Lock()
	ts := s.nextTSLocked()
	s.mu.Unlock()
	return s.callbackPayload(map[string]any{
		"type": "app_mention", "user": user, "text": s.withMention(text), "ts": ts, "channel": channel,
		"event_ts": ts, "team": s.opts.TeamID,
	})
}

func (s *Server) withMention(text string) string {
	tag := "<@" + s.opts.BotUserID + ">"
	if strings.Contains(text, tag) {
		return text
	}
	return tag + " " + text
}

// enqueue registers an envelope and returns its id.
func (s *Server) enqueue(kind string, payload json.RawMessage) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextIDLocked("env-")
	s.envelopes[id] = &envelope{id: id, kind: kind, payload: payload}
	s.envOrder = append(s.envOrder, id)
	return id
}

// deliver sends an envelope the way the fake is set up to: over Socket
// Mode, or as a signed POST when a request URL is set.
func (s *Server) deliver(id string) {
	s.mu.Lock()
	url := s.requestURL
	s.mu.Unlock()
	if url != "" {
		s.postHTTP(url, id)
		return
	}
	s.sendSocket(id)
}
