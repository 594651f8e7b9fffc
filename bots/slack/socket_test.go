package slack

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/slack/fakeslack"
)

// gatedHandler blocks in Handle until released, and says when it is there.
type gatedHandler struct {
	entered chan bots.Event
	release chan struct{}
}

func (g *gatedHandler) Handle(ctx context.Context, ev bots.Event) error {
	g.entered <- ev
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func TestMentionAckedOnlyAfterHandle(t *testing.T) {
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	g := &gatedHandler{entered: make(chan bots.Event, 4), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, g) }()
	defer func() { cancel(); <-done }()
	waitFor(t, fake, func() bool { return fake.OpenConnections() == 1 })

	ts, env := fake.Mention("C1", "U1", "fix the flaky <@U2> test")
	var ev bots.Event
	select {
	case ev = <-g.entered:
	case <-testCtx(t).Done():
		t.Fatal("Handle was never called")
	}
	if fake.Acked(env) {
		t.Fatalf("envelope %s acked before Handle returned", env)
	}
	want := bots.Event{
		Kind: bots.KindMessage, ID: ev.ID,
		Ref:       bots.ThreadRef{Platform: "slack", Team: fake.TeamID(), Channel: "C1", Thread: ts},
		MessageID: ts, User: bots.User{ID: "U1", Name: "Alice"}, Text: "fix the flaky @Bob test", Mention: true, At: ev.At,
	}
	if ev != want {
		t.Errorf("event: got %+v, want %+v", ev, want)
	}
	if !strings.HasPrefix(ev.ID, "Ev") {
		t.Errorf("event id: got %q, want the envelope's event_id", ev.ID)
	}
	close(g.release)
	// Both envelopes (app_mention and its message copy) end up acked; the
	// copy never reaches Handle.
	waitFor(t, fake, func() bool { return len(fake.Acks()) == 2 })
	if !fake.Acked(env) {
		t.Errorf("envelope %s: got not acked, want acked", env)
	}
	select {
	case extra := <-g.entered:
		t.Errorf("duplicate message copy reached Handle: %+v", extra)
	default:
	}
}

func TestHandlerErrorLeavesEnvelopeUnacked(t *testing.T) {
	fake, _, h := startSocket(t, fakeslack.Options{})
	h.failText("first", true)
	_, failed := fake.DM("D1", "U1", "first")
	_, ok := fake.DM("D1", "U1", "second")
	// Envelopes are handled in order: once the second is acked, the first
	// has had its answer.
	waitFor(t, fake, func() bool { return fake.Acked(ok) })
	if fake.Acked(failed) {
		t.Fatalf("envelope %s: got acked, want unacked after a Handle error", failed)
	}
	h.failText("first", false)
	if err := fake.Redeliver(failed); err != nil {
		t.Fatal(err)
	}
	waitFor(t, fake, func() bool { return fake.Acked(failed) })
	got := h.got()
	if len(got) != 2 || got[0].Text != "second" || got[1].Text != "first" {
		t.Errorf("events: got %+v, want second then the redelivered first", got)
	}
}

func TestInboundMessages(t *testing.T) {
	tests := []struct {
		name string
		send func(f *fakeslack.Server) (envelope string)
		want func(f *fakeslack.Server) []bots.Event // nil: nothing forwarded
	}{
		{
			name: "thread reply without mention",
			send: func(f *fakeslack.Server) string {
				_, env := f.ThreadReply("C1", "1700000000.000042", "U2", "also check <@U1>'s notes &amp; logs")
				return env
			},
			want: func(f *fakeslack.Server) []bots.Event {
				return []bots.Event{{Kind: bots.KindMessage, Ref: bots.ThreadRef{Platform: "slack", Team: f.TeamID(), Channel: "C1", Thread: "1700000000.000042"},
					User: bots.User{ID: "U2", Name: "Bob"}, Text: "also check @Alice's notes & logs"}}
			},
		},
		{
			name: "thread reply with mention comes once, as a mention",
			send: func(f *fakeslack.Server) string {
				_, env := f.ThreadReply("C1", "1700000000.000042", "U2", "<@UBOT> stop")
				return env
			},
			want: func(f *fakeslack.Server) []bots.Event {
				return []bots.Event{{Kind: bots.KindMessage, Ref: bots.ThreadRef{Platform: "slack", Team: f.TeamID(), Channel: "C1", Thread: "1700000000.000042"},
					User: bots.User{ID: "U2", Name: "Bob"}, Text: "stop", Mention: true}}
			},
		},
		{
			name: "direct message is a mention and a thread of its own",
			send: func(f *fakeslack.Server) string {
				_, env := f.DM("D9", "U1", "status")
				return env
			},
			want: func(f *fakeslack.Server) []bots.Event {
				return []bots.Event{{Kind: bots.KindMessage, Ref: bots.ThreadRef{Platform: "slack", Team: f.TeamID(), Channel: "D9", Thread: "$ts"},
					User: bots.User{ID: "U1", Name: "Alice"}, Text: "status", Mention: true}}
			},
		},
		{
			name: "own bot message ignored",
			send: func(f *fakeslack.Server) string {
				_, env := f.BotMessage("C1", "1700000000.000042", "working on it")
				return env
			},
		},
		{
			name: "another bot ignored",
			send: func(f *fakeslack.Server) string {
				_, env := f.SendMessage(fakeslack.InboundMessage{Channel: "C1", User: "U7", BotID: "BOTHER", Text: "deploy done", ThreadTS: "1700000000.000042"})
				return env
			},
		},
		{
			name: "edit subtype ignored",
			send: func(f *fakeslack.Server) string {
				_, env := f.SendMessage(fakeslack.InboundMessage{Channel: "C1", User: "U1", Text: "x", ThreadTS: "1700000000.000042", Subtype: "message_changed"})
				return env
			},
		},
		{
			name: "top-level chatter without mention ignored",
			send: func(f *fakeslack.Server) string {
				_, env := f.SendMessage(fakeslack.InboundMessage{Channel: "C1", User: "U1", Text: "lunch?"})
				return env
			},
		},
		{
			name: "file share in a thread forwarded",
			send: func(f *fakeslack.Server) string {
				_, env := f.SendMessage(fakeslack.InboundMessage{Channel: "C1", User: "U1", Text: "log attached", ThreadTS: "1700000000.000042", Subtype: "file_share"})
				return env
			},
			want: func(f *fakeslack.Server) []bots.Event {
				return []bots.Event{{Kind: bots.KindMessage, Ref: bots.ThreadRef{Platform: "slack", Team: f.TeamID(), Channel: "C1", Thread: "1700000000.000042"},
					User: bots.User{ID: "U1", Name: "Alice"}, Text: "log attached"}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, _, h := startSocket(t, fakeslack.Options{})
			tt.send(fake)
			// Every envelope of the message is acked once processed.
			waitFor(t, fake, func() bool { return allAcked(fake) })
			got := h.got()
			var want []bots.Event
			if tt.want != nil {
				want = tt.want(fake)
			}
			if len(got) != len(want) {
				t.Fatalf("events: got %+v, want %+v", got, want)
			}
			for i := range want {
				w := want[i]
				w.ID, w.MessageID, w.At = got[i].ID, got[i].MessageID, got[i].At
				if w.Ref.Thread == "$ts" {
					w.Ref.Thread = got[i].MessageID
				}
				if got[i] != w {
					t.Errorf("event %d: got %+v, want %+v", i, got[i], w)
				}
				if got[i].ID == "" || got[i].MessageID == "" {
					t.Errorf("event %d: got empty id or message id: %+v", i, got[i])
				}
			}
		})
	}
}

func TestButtonPress(t *testing.T) {
	fake, a, h := startSocket(t, fakeslack.Options{})
	ctx := testCtx(t)
	ref := bots.ThreadRef{Platform: "slack", Team: fake.TeamID(), Channel: "C1", Thread: "1700000000.000100"}
	ts, err := a.Post(ctx, ref, bots.Message{Text: "Run `go test ./...`?", Buttons: []bots.Button{
		{ActionID: "approve", Label: "Approve", Value: "req-1", Style: bots.StylePrimary},
		{ActionID: "deny", Label: "Deny", Value: "req-1", Style: bots.StyleDanger},
	}})
	if err != nil {
		t.Fatal(err)
	}
	env := fake.Click("C1", ts, "U2", "approve", "req-1")
	waitFor(t, fake, func() bool { return fake.Acked(env) })
	got := h.got()
	if len(got) != 1 {
		t.Fatalf("events: got %d, want 1", len(got))
	}
	ev := got[0]
	want := bots.Event{Kind: bots.KindPress, ID: ev.ID, Ref: ref, MessageID: ts, User: bots.User{ID: "U2", Name: "Bob"},
		ActionID: "approve", Value: "req-1", ReplyToken: ev.ReplyToken, At: ev.At}
	if ev != want {
		t.Errorf("press: got %+v, want %+v", ev, want)
	}
	if !strings.HasPrefix(ev.ID, "action:") {
		t.Errorf("press id: got %q, want action:<trigger_id>", ev.ID)
	}
}

func TestSlashCommand(t *testing.T) {
	fake, a, h := startSocket(t, fakeslack.Options{})
	env, responseURL := fake.SlashCommand("C5", "U1", "status")
	waitFor(t, fake, func() bool { return fake.Acked(env) })
	got := h.got()
	if len(got) != 1 {
		t.Fatalf("events: got %d, want 1", len(got))
	}
	ev := got[0]
	want := bots.Event{Kind: bots.KindCommand, ID: ev.ID, Ref: bots.ThreadRef{Platform: "slack", Team: fake.TeamID(), Channel: "C5"},
		User: bots.User{ID: "U1", Name: "Alice"}, Text: "status", Mention: true, ReplyToken: responseURL, At: ev.At}
	if ev != want {
		t.Errorf("command: got %+v, want %+v", ev, want)
	}
	if !strings.HasPrefix(ev.ID, "cmd:") {
		t.Errorf("command id: got %q, want cmd:<trigger_id>", ev.ID)
	}
	if err := a.ReplyCommand(testCtx(t), ev, bots.Message{Text: "**2** threads running"}); err != nil {
		t.Fatal(err)
	}
	rs := fake.CommandResponses()
	if len(rs) != 1 || rs[0].URL != responseURL || rs[0].ResponseType != "ephemeral" || len(rs[0].Blocks) != 1 || rs[0].Blocks[0].Text != "*2* threads running" {
		t.Errorf("response_url: got %+v, want one ephemeral reply with *2* threads running", rs)
	}
}

func TestReplyCommandWithoutResponseURL(t *testing.T) {
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	ev := bots.Event{Kind: bots.KindCommand, Ref: bots.ThreadRef{Platform: "slack", Channel: "C5"}, User: bots.User{ID: "U1"}}
	if err := a.ReplyCommand(testCtx(t), ev, bots.Message{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	eph := fake.Ephemerals()
	if len(eph) != 1 || eph[0].Channel != "C5" || eph[0].User != "U1" || eph[0].Text != "hi" {
		t.Errorf("ephemerals: got %+v, want one to U1 in C5", eph)
	}
}

func TestSocketReconnect(t *testing.T) {
	fake, _, h := startSocket(t, fakeslack.Options{})
	_, first := fake.Mention("C1", "U1", "one")
	waitFor(t, fake, func() bool { return len(fake.Acks()) == 2 })

	fake.DropConnections()
	_, second := fake.Mention("C1", "U1", "two")
	waitFor(t, fake, func() bool { return len(fake.Acks()) == 4 })

	if got := fake.Connections(); got != 2 {
		t.Errorf("connections: got %d, want 2 (one reconnect)", got)
	}
	for _, env := range []string{first, second} {
		if n := fake.Deliveries(env); n != 1 {
			t.Errorf("envelope %s delivered %d times, want 1", env, n)
		}
	}
	got := h.got()
	if len(got) != 2 || got[0].Text != "one" || got[1].Text != "two" || got[0].ID == got[1].ID {
		t.Errorf("events: got %+v, want one and two, once each", got)
	}
}

func TestRedeliverOnReconnect(t *testing.T) {
	fake, _, h := startSocket(t, fakeslack.Options{RedeliverOnReconnect: true})
	h.failText("hello", true)
	_, env := fake.DM("D1", "U1", "hello")
	_, marker := fake.DM("D1", "U1", "marker")
	waitFor(t, fake, func() bool { return fake.Acked(marker) })
	if fake.Acked(env) {
		t.Fatalf("envelope %s: got acked, want unacked after a Handle error", env)
	}
	h.failText("hello", false)
	fake.DropConnections()
	waitFor(t, fake, func() bool { return fake.Acked(env) })
	if n := fake.Deliveries(env); n != 2 {
		t.Errorf("deliveries of %s: got %d, want 2", env, n)
	}
	if n := fake.Deliveries(marker); n != 1 {
		t.Errorf("deliveries of acked %s: got %d, want 1", marker, n)
	}
	got := h.got()
	if len(got) != 2 || got[0].Text != "marker" || got[1].Text != "hello" {
		t.Errorf("events: got %+v, want marker, then hello redelivered", got)
	}
}

func TestRunRejectsBadToken(t *testing.T) {
	fake := newFake(t, fakeslack.Options{})
	a, err := New(Options{BotToken: "xoxb-wrong", AppToken: fake.AppToken(), APIURL: fake.APIURL()})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Run(testCtx(t), &recorder{})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code() != "invalid_auth" {
		t.Errorf("Run: got %v, want an invalid_auth APIError", err)
	}
}
