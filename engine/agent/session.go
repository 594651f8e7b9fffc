// Package agent is the engine's run loop: a Session holds one conversation
// with a frozen prompt prefix, and Run drives it round by round — request,
// stream, commit the clean attempt, execute the tool calls the policy allows,
// repeat — until the model answers.
//
// The controller is the only intended importer; frontends talk to the
// controller, never to a Session directly.
package agent

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/transcript"
)

// Options configure a Session. Provider, Tools and Gate are required.
type Options struct {
	// ID names the session; empty means a fresh random one (see NewID).
	ID       string
	Provider provider.Provider
	Model    string
	Prices   provider.Prices
	Tools    *tool.Registry
	Gate     permission.Gate
	// Root is the workspace the session works in; it is named in the
	// system prompt and standing instructions are read from it.
	Root string
	// MaxSteps bounds model rounds per turn; one extra no-tools round lets
	// the model wrap up. Default 50.
	MaxSteps int
	// ParallelReads bounds concurrently running read-only calls. Default 8.
	ParallelReads int
	// Transcript receives every record. Nil keeps the session in memory.
	Transcript *transcript.Writer
	// ContextWindow and CompactRatio drive compaction; 0 disables it.
	ContextWindow int
	CompactRatio  float64
	// Now is the clock used for the turn tail. Default time.Now.
	Now func() time.Time
}

// Session is one conversation. Its system prompt and tool block are fixed
// at creation and never change, so every request shares the cached prefix.
//
// Run calls are serialized by the caller (the controller runs one turn at a
// time); mu guards the fields that other goroutines read or append to while a
// run is in flight.
type Session struct {
	id     string
	opts   Options
	system string
	tools  []provider.ToolSpec

	mu       sync.Mutex // guards the fields below
	messages []provider.Message
	steers   []Turn
	usage    provider.Usage
	cost     float64
	requests int
	rewrite  int
	shape    prefixShape    // of the last request
	lastHit  int            // cache-hit tokens of the last request
	failures map[string]int // failed attempts per identical call
	// compactFailedGen is rewrite+1 when compaction failed in the current
	// generation, so the same generation does not pay for another attempt.
	compactFailedGen int
}

// ErrOptions reports a missing required option.
var ErrOptions = errors.New("agent: Provider, Tools and Gate are required")

// NewSession starts a fresh session. The system prompt is built here, once,
// and written to the transcript header so a reopened session reuses it.
func NewSession(opts Options) (*Session, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	id := opts.ID
	if id == "" {
		id = NewID()
	}
	s := &Session{id: id, opts: opts, tools: opts.Tools.Specs()}
	s.system = SystemPrompt(opts.Root, LoadInstructions(opts.Root))
	if w := opts.Transcript; w != nil {
		hdr := transcript.Header{Session: s.id, Created: time.Now().UTC(), Root: opts.Root, Model: opts.Model, System: s.system, Tools: s.tools}
		if err := w.Write(transcript.Record{Type: transcript.TypeHeader, Header: &hdr}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// OpenSession continues a session from its transcript: same id, same system
// prompt bytes, same history. opts.Transcript should append to the same file.
func OpenSession(opts Options, saved *transcript.Session) (*Session, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	s := &Session{
		id:       saved.Header.Session,
		opts:     opts,
		system:   saved.Header.System,
		tools:    opts.Tools.Specs(),
		messages: append([]provider.Message(nil), saved.Messages...),
		usage:    saved.Usage,
		cost:     saved.Cost,
		requests: saved.Requests,
		rewrite:  saved.Rewrite,
		// The last request was made with the frozen prefix of the header;
		// comparing the next one with it explains a miss after a restart
		// (for example a binary whose tool set changed).
		shape:   shapeOf(saved.Header.System, saved.Header.Tools, saved.Rewrite),
		lastHit: saved.LastUsage.CacheHitTokens,
	}
	if err := s.closeDanglingCalls(); err != nil {
		return nil, err
	}
	return s, nil
}

// interruptedResult answers a tool call whose result a crash never wrote.
const interruptedResult = "interrupted: the process stopped before this call finished, so its outcome is unknown. Check the workspace before relying on it."

// closeDanglingCalls gives every tool call of the last assistant message a
// result. A crash (not a cancel) can end a transcript between the calls and
// their results, and providers reject a history with unanswered calls; the
// added results are written to the transcript, so the repair happens once.
func (s *Session) closeDanglingCalls() error {
	last := -1
	for i := len(s.messages) - 1; i >= 0; i-- {
		if s.messages[i].Role == provider.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || len(s.messages[last].ToolCalls) == 0 {
		return nil
	}
	answered := map[string]bool{}
	for _, m := range s.messages[last+1:] {
		if m.Role == provider.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	for _, c := range s.messages[last].ToolCalls {
		if answered[c.ID] {
			continue
		}
		if err := s.appendMessage(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: interruptedResult}); err != nil {
			return err
		}
	}
	return nil
}

func (o *Options) validate() error {
	if o.Provider == nil || o.Tools == nil || o.Gate == nil {
		return ErrOptions
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 50
	}
	if o.ParallelReads <= 0 {
		o.ParallelReads = 8
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// ID is the session's stable identifier.
func (s *Session) ID() string { return s.id }

// System is the frozen system prompt.
func (s *Session) System() string { return s.system }

// Messages returns a copy of the current history (after the system prompt).
func (s *Session) Messages() []provider.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]provider.Message(nil), s.messages...)
}

// Totals is a session's accumulated accounting.
type Totals struct {
	Usage    provider.Usage
	Cost     float64
	Requests int
}

// Totals returns the accounting so far.
func (s *Session) Totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Totals{Usage: s.usage, Cost: s.cost, Requests: s.requests}
}

// Steer queues a message for the run in flight; it is appended to the
// history before the next model round. If the run ends before another round,
// it keeps going for one more round so the steer is answered.
func (s *Session) Steer(t Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steers = append(s.steers, t)
}

func (s *Session) takeSteers() []Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.steers
	s.steers = nil
	return st
}

// appendMessage adds to history and the transcript.
func (s *Session) appendMessage(m provider.Message) error {
	s.mu.Lock()
	s.messages = append(s.messages, m)
	s.mu.Unlock()
	return s.record(transcript.Record{Type: transcript.TypeMessage, Message: &m})
}

func (s *Session) record(r transcript.Record) error {
	if s.opts.Transcript == nil {
		return nil
	}
	if err := s.opts.Transcript.Write(r); err != nil {
		return fmt.Errorf("agent: transcript: %w", err)
	}
	return nil
}

// NewID returns a fresh random session id (16 hex digits).
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
