package fakeslack

import (
	"slices"
)

// User is a workspace member that users.info knows.
type User struct {
	ID          string
	Name        string // handle
	DisplayName string
	RealName    string
	Bot         bool
}

// Message is a message as the fake holds it now (after any edits): one a
// person wrote through the inbound helpers, or one the bot posted.
type Message struct {
	Channel  string
	TS       string
	ThreadTS string
	User     string
	BotID    string // set on the bot's messages
	Text     string // the fallback text
	Blocks   []Block
	// BlocksJSON is the blocks form field exactly as the bot sent it.
	BlocksJSON string
	// UnfurlLinks and UnfurlMedia are the form fields as sent ("" when absent).
	UnfurlLinks string
	UnfurlMedia string
	Edits       int      // chat.update calls on it
	Reactions   []string // emoji the bot has on it now
}

// Block is the part of a Block Kit block that tests look at.
type Block struct {
	Type     string   // "section", "actions", ...
	Text     string   // a section's text
	TextType string   // "mrkdwn" or "plain_text"
	Buttons  []Button // an actions block's buttons
}

// Button is one button element.
type Button struct {
	ActionID string
	Label    string
	Value    string
	Style    string
}

// Ephemeral is a chat.postEphemeral call.
type Ephemeral struct {
	Channel  string
	User     string
	ThreadTS string
	Text     string
	Blocks   []Block
}

// Reaction is one reactions.add or reactions.remove that succeeded.
type Reaction struct {
	Channel string
	TS      string
	Name    string
	Removed bool
}

// Upload is a file uploaded through the v2 flow.
type Upload struct {
	FileID         string
	Filename       string
	Length         int // as declared to files.getUploadURLExternal
	Content        []byte
	Title          string
	Channel        string
	ThreadTS       string
	InitialComment string
	Completed      bool
}

// CommandResponse is a POST to a slash command's response_url.
type CommandResponse struct {
	URL          string
	ResponseType string
	Text         string
	Blocks       []Block
}

// AddUser makes users.info know a person.
func (s *Server) AddUser(id, displayName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[id] = User{ID: id, Name: displayName, DisplayName: displayName, RealName: displayName}
}

// Posted returns the bot's messages (chat.postMessage), as they are now.
func (s *Server) Posted() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.BotID != "" {
			out = append(out, copyMessage(m))
		}
	}
	return out
}

// Message returns one message, a person's or the bot's, as it is now.
func (s *Server) Message(channel, ts string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.byKey[channel+"/"+ts]
	if !ok {
		return Message{}, false
	}
	return copyMessage(m), true
}

// Updates returns every chat.update that succeeded, in order, each with
// the message's content after it.
func (s *Server) Updates() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.updates)
}

// Ephemerals returns the chat.postEphemeral calls.
func (s *Server) Ephemerals() []Ephemeral {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ephemerals)
}

// Reactions returns the reaction changes, in order.
func (s *Server) Reactions() []Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reactLog)
}

// Uploads returns the files whose upload was completed.
func (s *Server) Uploads() []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Upload
	for _, id := range s.uploadSeq {
		if u := s.uploads[id]; u.Completed {
			c := *u
			c.Content = slices.Clone(u.Content)
			out = append(out, c)
		}
	}
	return out
}

// CommandResponses returns what the bot POSTed to response_urls.
func (s *Server) CommandResponses() []CommandResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.responses)
}

// Acked reports whether the envelope was acknowledged (Socket Mode) or
// answered 200 (HTTP mode).
func (s *Server) Acked(envelopeID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.envelopes[envelopeID]
	return ok && e.acked
}

// Acks returns acknowledged envelope ids in the order they arrived; an id
// appears once per acknowledgement.
func (s *Server) Acks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.acks)
}

// Envelopes returns the ids of every envelope issued, in order.
func (s *Server) Envelopes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.envOrder)
}

// Deliveries is how many times the envelope was sent.
func (s *Server) Deliveries(envelopeID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.envelopes[envelopeID]; ok {
		return e.deliveries
	}
	return 0
}

// Connections is how many Socket Mode connections have been opened.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connects
}

// OpenConnections is how many Socket Mode connections are open now.
func (s *Server) OpenConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Calls is how many times a Web API method was called, 429s included.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// RateLimit makes the next `times` calls of a Web API method answer 429
// with Retry-After: retryAfterSeconds.
func (s *Server) RateLimit(method string, times, retryAfterSeconds int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits[method] = &rateLimit{remaining: times, retryAfter: retryAfterSeconds}
}

type rateLimit struct {
	remaining  int
	retryAfter int
}

func copyMessage(m *Message) Message {
	c := *m
	c.Blocks = slices.Clone(m.Blocks)
	c.Reactions = slices.Clone(m.Reactions)
	return c
}
