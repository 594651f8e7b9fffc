// Package fakeslack is a fake Slack for tests: one local HTTP server that
// speaks the Web API (the methods the adapter calls), Socket Mode (a real
// websocket with hello, envelopes, acks and pings) and, in HTTP mode, the
// Events API's signed POSTs. The real slack-go client talks to it, so tests
// exercise the same wire format as production. It records everything the
// bot did and offers helpers that play the people in the workspace.
//
// Tests in any package may import it; production code must not.
//
// # Pointing a reasonix binary at it
//
// An end-to-end test starts the fake in its own process and writes a
// config for the binary:
//
//	fake := fakeslack.New(fakeslack.Options{})
//	defer fake.Close()
//
//	[slack]
//	enabled = true
//	mode = "socket"
//	api_url = "<fake.APIURL()>"   # fake.URL + "/api/"
//
// and sets SLACK_BOT_TOKEN and SLACK_APP_TOKEN to fake.BotToken() and
// fake.AppToken() in the binary's environment. apps.connections.open hands
// out a ws:// URL on the same server, so Socket Mode needs nothing else.
// Then fake.Mention("C1", "U1", "fix the tests") starts a thread, and
// fake.WaitFor(ctx, func() bool { ... fake.Posted() ... }) waits for the
// bot's answer.
//
// For HTTP mode set mode = "http", signing_secret_env to a variable holding
// Options.SigningSecret and listen to a free local address, then call
// fake.SetRequestURL("http://<listen>") before injecting events: the fake
// POSTs them there, signed, as Slack does.
package fakeslack

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Options configure the fake workspace. Zero values get defaults.
type Options struct {
	BotToken  string // accepted bot token; default "xoxb-fake-bot"
	AppToken  string // accepted app-level token; default "xapp-fake-app"
	TeamID    string // default "T0FAKE"
	BotUserID string // the bot's user id; default "UBOT"
	BotID     string // the bot's bot id; default "BBOT"
	BotName   string // default "reasonix"
	// PingInterval is how often the Socket Mode server pings each
	// connection; slack-go reconnects when it hears none for 30 s.
	// Default 5 s.
	PingInterval time.Duration
	// RedeliverOnReconnect resends envelopes that were delivered but not
	// acknowledged whenever a new Socket Mode connection opens.
	RedeliverOnReconnect bool
	// SigningSecret signs the Events API POSTs of HTTP mode; default
	// "fake-signing-secret".
	SigningSecret string
}

// Server is a running fake Slack. Its methods are safe for concurrent use.
type Server struct {
	// URL is the server's root, e.g. http://127.0.0.1:39123.
	URL string

	opts     Options
	srv      *httptest.Server
	upgrader websocket.Upgrader
	client   *http.Client // for HTTP-mode deliveries
	wg       sync.WaitGroup

	mu sync.Mutex // guards everything below
	// changed is closed and replaced on every recorded change (WaitFor).
	changed    chan struct{}
	closed     bool
	tsSeq      int
	idSeq      int
	users      map[string]User
	messages   []*Message          // every message, people's and the bot's, in order
	byKey      map[string]*Message // channel + "/" + ts
	updates    []Message
	ephemerals []Ephemeral
	reactLog   []Reaction
	uploads    map[string]*Upload // by file id, from getUploadURLExternal on
	uploadSeq  []string           // file ids in order
	responses  []CommandResponse
	envelopes  map[string]*envelope
	envOrder   []string
	pending    []string // envelope ids waiting for a connection
	acks       []string
	conns      []*wsConn // open Socket Mode connections, oldest first
	connects   int
	calls      map[string]int
	limits     map[string]*rateLimit
	requestURL string // HTTP mode: where events are POSTed
}

// New starts a fake Slack on a local port.
func New(opts Options) *Server {
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	def(&opts.BotToken, "xoxb-fake-bot")
	def(&opts.AppToken, "xapp-fake-app")
	def(&opts.TeamID, "T0FAKE")
	def(&opts.BotUserID, "UBOT")
	def(&opts.BotID, "BBOT")
	def(&opts.BotName, "reasonix")
	def(&opts.SigningSecret, "fake-signing-secret")
	if opts.PingInterval <= 0 {
		opts.PingInterval = 5 * time.Second
	}
	s := &Server{
		opts:      opts,
		upgrader:  websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }},
		client:    &http.Client{Timeout: 30 * time.Second},
		changed:   make(chan struct{}),
		users:     map[string]User{},
		byKey:     map[string]*Message{},
		uploads:   map[string]*Upload{},
		envelopes: map[string]*envelope{},
		calls:     map[string]int{},
		limits:    map[string]*rateLimit{},
	}
	s.users[opts.BotUserID] = User{ID: opts.BotUserID, Name: opts.BotName, DisplayName: opts.BotName, Bot: true}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/{method}", s.serveAPI)
	mux.HandleFunc("/socket", s.serveSocket)
	mux.HandleFunc("POST /upload/{file}", s.serveUpload)
	mux.HandleFunc("POST /response/{id}", s.serveResponseURL)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// APIURL is the value for [slack] api_url: URL + "/api/".
func (s *Server) APIURL() string { return s.URL + "/api/" }

// BotToken is the bot token the fake accepts.
func (s *Server) BotToken() string { return s.opts.BotToken }

// AppToken is the app-level token the fake accepts.
func (s *Server) AppToken() string { return s.opts.AppToken }

// SigningSecret signs HTTP-mode deliveries.
func (s *Server) SigningSecret() string { return s.opts.SigningSecret }

// TeamID is the workspace id.
func (s *Server) TeamID() string { return s.opts.TeamID }

// BotUserID is the bot's user id, as auth.test reports it.
func (s *Server) BotUserID() string { return s.opts.BotUserID }

// Close drops every connection and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	conns := s.conns
	s.conns = nil
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	s.srv.Close()
	s.wg.Wait()
}

// WaitFor blocks until cond returns true or ctx ends. cond is evaluated
// now and after every change the fake records; it may call the query
// methods.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("fakeslack: condition not met: %w", ctx.Err())
		case <-ch:
		}
	}
}

// notifyLocked wakes WaitFor callers; s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// nextTSLocked returns a unique, increasing message timestamp.
func (s *Server) nextTSLocked() string {
	s.tsSeq++
	return fmt.Sprintf("%d.%06d", 1700000000+s.tsSeq/1000000, s.tsSeq%1000000)
}

// nextIDLocked returns a unique id with a prefix ("Ev", "F", "Env").
func (s *Server) nextIDLocked(prefix string) string {
	s.idSeq++
	return fmt.Sprintf("%s%06d", prefix, s.idSeq)
}
