// Package providertest is a scripted fake of an OpenAI-compatible chat
// completions server (DeepSeek flavoured) for tests and benchmarks.
//
// Tests enqueue Turns (streamed text, reasoning, tool calls, or faults such
// as a 429, a cut connection or an idle stream), point a provider at URL(),
// and inspect what was sent with Requests(). Every streamed answer reports
// usage from a prefix-cache simulator, so cache-hit accounting can be tested
// end to end. Only tests, benchmarks and test binaries import this package.
package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// NoTurnLeft is the error message the server answers with (HTTP 500) when
// a request arrives and no scripted turn is left.
const NoTurnLeft = "providertest: no scripted turn left"

// Server is a running fake. It is safe for concurrent use.
type Server struct {
	ts        *httptest.Server
	closing   chan struct{} // closed by Close to release idle streams
	closeOnce sync.Once
	responder func(RecordedRequest) Turn // set once by New

	mu       sync.Mutex // guards the fields below
	queue    []Turn
	requests []RecordedRequest
	cache    prefixCache
	served   int // streamed responses, for chunk ids
}

// Option configures a Server.
type Option func(*Server)

// WithResponder answers requests that find the queue empty by calling f,
// for scripts that depend on what the client sent. f may call Requests.
func WithResponder(f func(req RecordedRequest) Turn) Option {
	return func(s *Server) { s.responder = f }
}

// WithBytesPerToken sets the bytes-per-token estimate (default 4).
func WithBytesPerToken(n int) Option {
	return func(s *Server) {
		if n > 0 {
			s.cache.bytesPerToken = n
		}
	}
}

// WithBlockTokens sets the cache block size hits are rounded down to
// (default 64 tokens).
func WithBlockTokens(n int) Option {
	return func(s *Server) {
		if n > 0 {
			s.cache.blockTokens = n
		}
	}
}

// WithoutPrefixCache turns the prefix-cache simulator off: every prompt
// token is reported as a miss.
func WithoutPrefixCache() Option {
	return func(s *Server) { s.cache.enabled = false }
}

// New starts a fake server on a loopback port. Close it when done.
func New(opts ...Option) *Server {
	s := &Server{
		closing: make(chan struct{}),
		cache:   prefixCache{enabled: true, bytesPerToken: 4, blockTokens: 64},
	}
	for _, o := range opts {
		o(s)
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the base URL to configure a provider with (it ends in /v1; the
// server also accepts requests without the /v1 segment).
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close releases idle streams and shuts the server down.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.ts.Close()
	})
}

// Enqueue appends turns to the script; each request consumes the first.
func (s *Server) Enqueue(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, turns...)
}

// Pending is the number of scripted turns not consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RecordedRequest(nil), s.requests...)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/chat/completions" {
		writeError(w, http.StatusNotFound, "providertest: unknown path "+r.URL.Path, "")
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "providertest: use POST", "")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "providertest: read body: "+err.Error(), "")
		return
	}
	rec := RecordedRequest{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var cr chatRequest
	decodeErr := json.Unmarshal(body, &cr)
	if decodeErr == nil {
		cr.record(&rec)
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if decodeErr != nil {
		writeError(w, http.StatusBadRequest, "providertest: request body is not valid JSON: "+decodeErr.Error(), "")
		return
	}
	if msg := checkToolResults(rec.Messages); msg != "" {
		// The real API rejects such a history before any turn is used.
		writeError(w, http.StatusBadRequest, msg, "")
		return
	}

	turn, ok := s.nextTurn(rec)
	if !ok {
		writeError(w, http.StatusInternalServerError, NoTurnLeft, "")
		return
	}
	if f := turn.Fault; f != nil {
		writeFault(w, *f)
		return
	}
	prompt, err := promptBytes(cr)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "providertest: serialize prompt: "+err.Error(), "")
		return
	}
	s.mu.Lock()
	promptTokens, hitTokens := s.cache.measure(prompt)
	s.served++
	id := fmt.Sprintf("chatcmpl-providertest-%d", s.served)
	s.mu.Unlock()

	usageJSON := []byte(turn.Usage)
	if len(usageJSON) == 0 {
		usageJSON, err = s.simulatedUsage(turn, promptTokens, hitTokens)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "providertest: "+err.Error(), "")
			return
		}
	}
	events, err := streamEvents(turn, id, cr.Model, usageJSON)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "providertest: "+err.Error(), "")
		return
	}
	writeStream(w, r, turn, events, s.closing)
}

// nextTurn pops the queue, falling back to the responder.
func (s *Server) nextTurn(rec RecordedRequest) (Turn, bool) {
	s.mu.Lock()
	if len(s.queue) > 0 {
		t := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return t, true
	}
	s.mu.Unlock()
	if s.responder == nil {
		return Turn{}, false
	}
	return s.responder(rec), true
}

// simulatedUsage estimates completion tokens as ceil(bytes/bytesPerToken)
// over reasoning, text and tool arguments.
func (s *Server) simulatedUsage(t Turn, promptTokens, hitTokens int) ([]byte, error) {
	all, reasoning := completionText(t)
	bpt := s.cache.bytesPerToken // immutable after New
	u := usage{
		PromptTokens:          promptTokens,
		CompletionTokens:      ceilDiv(len(all), bpt),
		PromptCacheHitTokens:  hitTokens,
		PromptCacheMissTokens: promptTokens - hitTokens,
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	u.CompletionTokensDetails.ReasoningTokens = ceilDiv(len(reasoning), bpt)
	return json.Marshal(u)
}

func writeFault(w http.ResponseWriter, f Fault) {
	if f.Body == "" {
		writeError(w, f.Status, http.StatusText(f.Status), f.RetryAfter)
		return
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	if json.Valid([]byte(f.Body)) {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(f.Status)
	_, _ = io.Copy(w, strings.NewReader(f.Body))
}

func writeError(w http.ResponseWriter, status int, msg, retryAfter string) {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(errorBody{Error: errorDetail{Message: msg, Type: "providertest"}})
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
