package slack

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/slack/fakeslack"
)

// startHTTP serves an HTTP-mode adapter and points the fake at it.
func startHTTP(t *testing.T) (*fakeslack.Server, *Adapter, *recorder) {
	t.Helper()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeHTTP)
	h := &recorder{}
	srv := httptest.NewServer(a.HTTPHandler(h))
	t.Cleanup(srv.Close)
	fake.SetRequestURL(srv.URL)
	return fake, a, h
}

func TestHTTPModeDelivers(t *testing.T) {
	t.Parallel()
	fake, a, h := startHTTP(t)
	ts, mention := fake.Mention("C1", "U1", "bump deps")
	if !fake.Acked(mention) {
		t.Fatalf("mention: got no 200, want 200")
	}
	if !allAcked(fake) {
		t.Fatalf("the message copy of the mention: got no 200, want 200")
	}
	posted, err := a.Post(testCtx(t), bots.ThreadRef{Channel: "C1", Thread: ts}, bots.Message{Text: "ok?", Buttons: []bots.Button{{ActionID: "approve", Label: "Approve", Value: "v"}}})
	if err != nil {
		t.Fatal(err)
	}
	click := fake.Click("C1", posted, "U2", "approve", "v")
	cmd, _ := fake.SlashCommand("C1", "U1", "repos")
	for _, env := range []string{click, cmd} {
		if !fake.Acked(env) {
			t.Errorf("envelope %s: got no 200, want 200", env)
		}
	}
	got := h.got()
	if len(got) != 3 {
		t.Fatalf("events: got %+v, want mention, press, command", got)
	}
	wantKinds := []bots.EventKind{bots.KindMessage, bots.KindPress, bots.KindCommand}
	for i, k := range wantKinds {
		if got[i].Kind != k {
			t.Errorf("event %d: got kind %s, want %s", i, got[i].Kind, k)
		}
	}
	if got[0].Text != "bump deps" || !got[0].Mention || got[0].Ref.Thread != ts {
		t.Errorf("mention: got %+v", got[0])
	}
	if got[1].ActionID != "approve" || got[1].Ref.Thread != ts || got[1].MessageID != posted {
		t.Errorf("press: got %+v", got[1])
	}
	if got[2].Text != "repos" || got[2].ReplyToken == "" {
		t.Errorf("command: got %+v", got[2])
	}
}

func TestHTTPModeRetryAfterHandlerError(t *testing.T) {
	t.Parallel()
	fake, _, h := startHTTP(t)
	h.failText("hello", true)
	_, env := fake.DM("D1", "U1", "hello")
	if fake.Acked(env) {
		t.Fatalf("envelope %s: got 200, want 500 after a Handle error", env)
	}
	h.failText("hello", false)
	if err := fake.Redeliver(env); err != nil {
		t.Fatal(err)
	}
	if !fake.Acked(env) || len(h.got()) != 1 {
		t.Errorf("retry: got acked %v with %d events, want acked with 1", fake.Acked(env), len(h.got()))
	}
}

func TestHTTPModeRejectsBadRequests(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeHTTP)
	h := &recorder{}
	handler := a.HTTPHandler(h)
	body := fake.MentionEventBody("C1", "U1", "do it")
	tests := []struct {
		name string
		req  func() *http.Request
		want int
	}{
		{"valid", func() *http.Request {
			return fakeslack.SignedRequest(fake.SigningSecret(), "/slack/events", body, time.Now())
		}, http.StatusOK},
		{"wrong secret", func() *http.Request {
			return fakeslack.SignedRequest("not-the-secret", "/slack/events", body, time.Now())
		}, http.StatusUnauthorized},
		{"stale timestamp", func() *http.Request {
			return fakeslack.SignedRequest(fake.SigningSecret(), "/slack/events", body, time.Now().Add(-10*time.Minute))
		}, http.StatusUnauthorized},
		{"no signature", func() *http.Request {
			r := fakeslack.SignedRequest(fake.SigningSecret(), "/slack/events", body, time.Now())
			r.Header.Del("X-Slack-Signature")
			return r
		}, http.StatusUnauthorized},
		{"body changed after signing", func() *http.Request {
			r := fakeslack.SignedRequest(fake.SigningSecret(), "/slack/commands", []byte("text=a"), time.Now())
			r2 := fakeslack.SignedRequest(fake.SigningSecret(), "/slack/commands", []byte("text=b"), time.Now())
			r2.Header = r.Header
			return r2
		}, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.handleCalls()
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, tt.req())
			if rec.Code != tt.want {
				t.Errorf("status: got %d, want %d", rec.Code, tt.want)
			}
			if tt.want != http.StatusOK && h.handleCalls() != before {
				t.Errorf("handler called for a rejected request")
			}
		})
	}
}

func TestHTTPModeURLVerification(t *testing.T) {
	t.Parallel()
	fake, _, h := startHTTP(t)
	if err := fake.VerifyURL(testCtx(t)); err != nil {
		t.Error(err)
	}
	if n := h.handleCalls(); n != 0 {
		t.Errorf("handler calls: got %d, want 0 for url_verification", n)
	}
}

func TestRunHTTPStopsWithContext(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeHTTP)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, &recorder{}) }()
	waitFor(t, fake, func() bool { return fake.Calls("auth.test") == 1 })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: got %v, want nil after cancel", err)
	}
}
