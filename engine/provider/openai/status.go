package openai

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reasonix/teams/engine/provider"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// maxMessageChars bounds a non-JSON error body quoted in an error.
const maxMessageChars = 500

// serverMessage extracts the message of an error body: error.message of
// the usual {"error":{"message":...}} shape, a bare {"error":"..."} or
// {"message":...}, else the trimmed text itself.
func serverMessage(body []byte) string {
	var shaped struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &shaped) == nil {
		var detail struct {
			Message string `json:"message"`
		}
		var plain string
		switch {
		case json.Unmarshal(shaped.Error, &detail) == nil && detail.Message != "":
			return detail.Message
		case json.Unmarshal(shaped.Error, &plain) == nil && plain != "":
			return plain
		case shaped.Message != "":
			return shaped.Message
		}
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > maxMessageChars {
		cut := maxMessageChars
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// mentionsAny reports whether s contains any of the hints, ignoring case.
func mentionsAny(s string, hints ...string) bool {
	s = strings.ToLower(s)
	for _, h := range hints {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// quotaHints mark a 429 that no amount of waiting will fix.
var quotaHints = []string{"insufficient", "current quota", "quota exceeded", "exceeded your quota", "billing"}

// contextHints mark a 400 caused by the prompt outgrowing the window.
var contextHints = []string{"context length", "maximum context", "context_length", "context window"}

// retryable reports whether an HTTP status is worth another attempt.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// classifyStatus turns a non-200 answer into an attempt failure: fatal for
// errors a retry cannot fix, retryable otherwise. body is the raw error body.
func (c *Client) classifyStatus(status int, header http.Header, body []byte, now time.Time) *failure {
	raw := c.redact(string(body))
	msg := c.redact(serverMessage(body))
	if msg == "" {
		msg = http.StatusText(status)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return &failure{fatal: &provider.AuthError{Provider: c.name, Status: status, Message: msg}}
	case status == http.StatusPaymentRequired,
		status == http.StatusTooManyRequests && mentionsAny(raw, quotaHints...):
		return &failure{fatal: &provider.QuotaError{Provider: c.name, Message: msg}}
	case status == http.StatusBadRequest && mentionsAny(raw, contextHints...):
		return &failure{fatal: &provider.ContextTooLongError{Provider: c.name, Message: msg}}
	case retryable(status):
		f := &failure{status: status, cause: errors.New(msg)}
		f.retryAfter, f.hasRetryAfter = parseRetryAfter(header.Get("Retry-After"), now)
		return f
	default:
		return &failure{fatal: &provider.RequestError{Provider: c.name, Status: status, Message: msg}}
	}
}

// redact removes the API key from text that came from the server.
func (c *Client) redact(s string) string {
	if c.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, "[redacted]")
}
