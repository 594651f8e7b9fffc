package fakeslack

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// SetRequestURL switches the fake to HTTP mode: from now on inbound
// events are POSTed, signed, to base + /slack/events, /slack/interactive
// and /slack/commands instead of going over Socket Mode. An empty base
// switches back.
func (s *Server) SetRequestURL(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requestURL = strings.TrimRight(base, "/")
}

// postHTTP delivers an envelope as Slack's Events API does; a 200 answer
// counts as its acknowledgement.
func (s *Server) postHTTP(base, id string) {
	s.mu.Lock()
	e := s.envelopes[id]
	e.deliveries++
	kind, payload, retry := e.kind, e.payload, e.retryAttempt
	s.notifyLocked()
	s.mu.Unlock()

	var path, contentType string
	var body []byte
	switch kind {
	case "events_api":
		path, contentType, body = "/slack/events", "application/json", payload
	case "interactive":
		path, contentType = "/slack/interactive", "application/x-www-form-urlencoded"
		body = []byte(url.Values{"payload": {string(payload)}}.Encode())
	case "slash_commands":
		path, contentType = "/slack/commands", "application/x-www-form-urlencoded"
		var fields map[string]string
		_ = json.Unmarshal(payload, &fields)
		form := url.Values{}
		for k, v := range fields {
			form.Set(k, v)
		}
		body = []byte(form.Encode())
	}
	req := SignedRequest(s.opts.SigningSecret, base+path, body, time.Now())
	req.Header.Set("Content-Type", contentType)
	if retry > 0 {
		req.Header.Set("X-Slack-Retry-Num", strconv.Itoa(retry))
		req.Header.Set("X-Slack-Retry-Reason", "http_timeout")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return
	}
	s.mu.Lock()
	e.acked = true
	s.acks = append(s.acks, id)
	s.notifyLocked()
	s.mu.Unlock()
}

// VerifyURL sends the url_verification challenge to the request URL and
// reports whether it was echoed, as Slack does when an operator saves the
// events URL.
func (s *Server) VerifyURL(ctx context.Context) error {
	s.mu.Lock()
	base := s.requestURL
	s.mu.Unlock()
	challenge := "fake-challenge-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	body, _ := json.Marshal(map[string]string{"token": "fake-verification", "challenge": challenge, "type": "url_verification"})
	req := SignedRequest(s.opts.SigningSecret, base+"/slack/events", body, time.Now()).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("fakeslack: url_verification: %w", err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), challenge) {
		return fmt.Errorf("fakeslack: url_verification: got %d %q, want 200 with %q", resp.StatusCode, got, challenge)
	}
	return nil
}

// SignedRequest builds a POST of body to target (a URL, or a path for
// handler tests) signed as Slack signs requests: X-Slack-Request-Timestamp
// and X-Slack-Signature = "v0=" + hex HMAC-SHA256 of "v0:<ts>:<body>".
func SignedRequest(secret, target string, body []byte, ts time.Time) *http.Request {
	req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		panic(fmt.Sprintf("fakeslack: bad request target %q: %v", target, err))
	}
	stamp := strconv.FormatInt(ts.Unix(), 10)
	req.Header.Set("X-Slack-Request-Timestamp", stamp)
	req.Header.Set("X-Slack-Signature", Sign(secret, stamp, body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// Sign returns Slack's v0 signature of body at timestamp (Unix seconds).
func Sign(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:", timestamp)
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}
