package providertest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

const sampleBody = `{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}],` +
	`"tools":[{"type":"function","function":{"name":"ls","description":"List","parameters":{}}}],` +
	`"tool_choice":"none","max_tokens":77,"stream":true,"stream_options":{"include_usage":true}}`

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// dataEvents reads an SSE body into its data payloads.
func dataEvents(t *testing.T, r io.Reader) ([]string, error) {
	t.Helper()
	var events []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			events = append(events, p)
		}
	}
	return events, sc.Err()
}

func TestServerRecordsRequests(t *testing.T) {
	s := New()
	defer s.Close()
	s.Enqueue(Turn{Text: []string{"a"}})
	resp := post(t, s.URL()+"/chat/completions", sampleBody)
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if string(r.Body) != sampleBody || r.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("got body %s auth %q, want the raw body and header", r.Body, r.Header.Get("Authorization"))
	}
	if r.Model != "m" || len(r.Messages) != 2 || r.Messages[1].Content != "hi" || len(r.Tools) != 1 ||
		r.Tools[0].Function.Name != "ls" || r.ToolChoice != "none" || r.MaxTokens != 77 || !r.Stream || !r.IncludeUsage {
		t.Errorf("got %+v, want the decoded request", r)
	}
	if s.Pending() != 0 {
		t.Errorf("got %d pending, want 0", s.Pending())
	}
}

func TestServerErrors(t *testing.T) {
	tests := []struct {
		name           string
		path, body     string
		turns          []Turn
		wantStatus     int
		wantRetryAfter string
		wantInBody     string
	}{
		{name: "no turn left", path: "/v1/chat/completions", body: sampleBody, wantStatus: 500, wantInBody: NoTurnLeft},
		{name: "fault with retry-after", path: "/v1/chat/completions", body: sampleBody,
			turns:      []Turn{{Fault: &Fault{Status: 429, RetryAfter: "3"}}},
			wantStatus: 429, wantRetryAfter: "3", wantInBody: "Too Many Requests"},
		{name: "fault with body", path: "/chat/completions", body: sampleBody,
			turns:      []Turn{{Fault: &Fault{Status: 402, Body: `{"error":{"message":"Insufficient Balance"}}`}}},
			wantStatus: 402, wantInBody: "Insufficient Balance"},
		{name: "bad json", path: "/v1/chat/completions", body: "{", wantStatus: 400, wantInBody: "not valid JSON"},
		{name: "unknown path", path: "/v1/embeddings", body: sampleBody, wantStatus: 404, wantInBody: "unknown path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			defer s.Close()
			s.Enqueue(tt.turns...)
			base := strings.TrimSuffix(s.URL(), "/v1")
			resp := post(t, base+tt.path, tt.body)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus || resp.Header.Get("Retry-After") != tt.wantRetryAfter {
				t.Errorf("got %d retry-after %q, want %d %q", resp.StatusCode, resp.Header.Get("Retry-After"), tt.wantStatus, tt.wantRetryAfter)
			}
			if !strings.Contains(string(body), tt.wantInBody) {
				t.Errorf("got body %s, want it to mention %q", body, tt.wantInBody)
			}
		})
	}
}

func TestServerStreamShape(t *testing.T) {
	s := New(WithResponder(func(req RecordedRequest) Turn {
		return Turn{Text: []string{"echo:" + req.Messages[len(req.Messages)-1].Content},
			ToolCalls: []ToolCall{{ID: "c1", Name: "ls", Arguments: `{"dir":"."}`}}}
	}))
	defer s.Close()
	resp := post(t, s.URL()+"/chat/completions", sampleBody)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("got content type %q, want text/event-stream", ct)
	}
	events, err := dataEvents(t, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	// role, text, tool header, 4 argument pieces, finish, usage, [DONE]
	if len(events) != 10 || events[9] != "[DONE]" {
		t.Fatalf("got %d events %q, want 10 ending in [DONE]", len(events), events)
	}
	var args strings.Builder
	for _, ev := range events[2:7] {
		var c chunk
		if err := json.Unmarshal([]byte(ev), &c); err != nil {
			t.Fatal(err)
		}
		args.WriteString(c.Choices[0].Delta.ToolCalls[0].Function.Arguments)
	}
	if args.String() != `{"dir":"."}` {
		t.Errorf("got arguments %q, want them whole again", args.String())
	}
	if !strings.Contains(events[1], `"content":"echo:hi"`) || !strings.Contains(events[7], `"finish_reason":"tool_calls"`) {
		t.Errorf("got %s and %s, want the echoed text and a tool_calls finish", events[1], events[7])
	}
	var u struct {
		Choices []any `json:"choices"`
		Usage   usage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(events[8]), &u); err != nil {
		t.Fatal(err)
	}
	// "echo:hi" + `{"dir":"."}` = 18 bytes.
	if len(u.Choices) != 0 || u.Usage.PromptTokens == 0 || u.Usage.CompletionTokens != 5 ||
		u.Usage.PromptCacheHitTokens+u.Usage.PromptCacheMissTokens != u.Usage.PromptTokens {
		t.Errorf("got %+v, want a usage-only chunk with 5 completion tokens", u)
	}
}

func TestServerBreaks(t *testing.T) {
	tests := []struct {
		name string
		turn Turn
	}{
		{name: "cut", turn: Turn{Text: []string{"a", "b", "c"}, CutAfter: 2}},
		{name: "idle until close", turn: Turn{Text: []string{"a", "b", "c"}, IdleAfter: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			s.Enqueue(tt.turn)
			resp := post(t, s.URL()+"/chat/completions", sampleBody)
			r := bufio.NewReader(resp.Body)
			for i := 0; i < 2; i++ { // the two events sent before the break
				line, err := r.ReadString('\n')
				if err != nil || !strings.HasPrefix(line, "data: ") {
					t.Fatalf("got %q %v, want event %d", line, err, i)
				}
				if _, err := r.ReadString('\n'); err != nil {
					t.Fatal(err)
				}
			}
			if tt.turn.IdleAfter > 0 {
				s.Close() // must not hang on the held stream
			} else {
				defer s.Close()
			}
			_, err := io.ReadAll(r)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("got %v, want %v (an aborted stream)", err, io.ErrUnexpectedEOF)
			}
		})
	}
}
