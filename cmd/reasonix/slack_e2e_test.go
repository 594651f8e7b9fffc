package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/slack/fakeslack"
	"github.com/reasonix/teams/engine/provider/providertest"
)

// writeFileTurn is a model turn that asks to write a file, which needs an
// approval in the ask posture.
func writeFileTurn(id, path, content string) providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.ToolCall{call(id, "write_file", fmt.Sprintf(`{"path":%q,"content":%q}`, path, content))}}
}

// answerTurn is a model turn that answers with text and ends the turn.
func answerTurn(text string) providertest.Turn { return providertest.Turn{Text: []string{text}} }

// mentionsIn reports whether a message of the request with role contains s.
func mentionsIn(r providertest.RecordedRequest, role, s string) bool {
	for _, m := range r.Messages {
		if m.Role == role && strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// TestSlackSocketModeEndToEnd drives one `reasonix bot` process through a
// Slack conversation over Socket Mode: a mention with an approval, a
// follow-up, a stop, a dropped connection and a redelivered envelope, then
// a graceful SIGTERM.
func TestSlackSocketModeEndToEnd(t *testing.T) {
	e := newBotE2E(t, botSetup{mode: "socket", fake: fakeslack.Options{RedeliverOnReconnect: true}})
	e.start()
	e.wait(t, "the socket mode connection", func() bool { return e.fake.OpenConnections() == 1 })

	const task1, markerTask = "add a greeting file", "marker please"
	var (
		ts1, mention1 string // the first thread and its app_mention envelope
		tsMarker      string // the last thread, still finishing when SIGTERM comes
		approval1     fakeslack.Message
		graceClick    string // the envelope of Grace's approving click
		wantRequests  int    // model requests the conversation should cost
		threads       = map[string]bool{}
	)
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"a mention gets 👀 and a status card in its thread, edited in place", func(t *testing.T) {
			e.model.Enqueue(writeFileTurn("w1", "greet.txt", "hello\n"), answerTurn("Added greet.txt."))
			wantRequests += 2
			ts1, mention1 = e.fake.Mention(botChannel, userAda, task1)
			threads[ts1] = true
			e.wait(t, "the 👀 reaction", e.hasReaction(ts1, "eyes"))
			e.wait(t, "the status card", func() bool { return len(e.cards(ts1, task1)) > 0 })
			card := e.cards(ts1, task1)[0]
			e.wait(t, "an edit of the status card", func() bool {
				return slices.ContainsFunc(e.fake.Updates(), func(u fakeslack.Message) bool { return u.TS == card.TS })
			})
			if n := len(e.cards(ts1, task1)); n != 1 {
				t.Errorf("status cards: got %d, want 1 edited in place", n)
			}
		}},
		{"only an approver's click decides the approval", func(t *testing.T) {
			approval1 = e.approval(t, ts1, "greet.txt")
			want := []string{bots.ActionApprove, bots.ActionApproveThread, bots.ActionDeny}
			var got []string
			for _, b := range buttons(approval1) {
				got = append(got, b.ActionID)
				if b.Value == "" {
					t.Errorf("button %s has no approval id", b.ActionID)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("approval buttons: got %v, want %v", got, want)
			}
			id := buttonValue(approval1, bots.ActionApprove)

			e.fake.Click(botChannel, approval1.TS, userEve, bots.ActionApprove, id)
			e.wait(t, "the notice to Eve", func() bool {
				return slices.ContainsFunc(e.fake.Ephemerals(), func(x fakeslack.Ephemeral) bool { return x.User == userEve })
			})
			notice := e.fake.Ephemerals()[0]
			if notice.User != userEve || notice.ThreadTS != ts1 || !strings.Contains(notice.Text, "can't decide") {
				t.Errorf("notice: got %+v, want one to %s in thread %s saying she can't decide", notice, userEve, ts1)
			}
			if still, _ := e.fake.Message(botChannel, approval1.TS); len(buttons(still)) == 0 {
				t.Fatalf("Eve's click decided the approval: %q", still.Text)
			}
			if n := len(e.model.Requests()); n != 1 {
				t.Errorf("model requests while the approval waits: got %d, want 1", n)
			}

			graceClick = e.fake.Click(botChannel, approval1.TS, userGrace, bots.ActionApprove, id)
			e.wait(t, "the approval to be decided", func() bool {
				m, _ := e.fake.Message(botChannel, approval1.TS)
				return len(buttons(m)) == 0
			})
			decided, _ := e.fake.Message(botChannel, approval1.TS)
			if !strings.Contains(decided.Text, "Approved once by Grace") {
				t.Errorf("decided approval: got %q, want it to say Grace approved", decided.Text)
			}
		}},
		{"the answer is a new message and the branch is pushed", func(t *testing.T) {
			e.wait(t, "the answer", e.says(ts1, "Added greet.txt."))
			ans := e.withText(ts1, "Added greet.txt.")[0]
			if !strings.Contains(ans.Text, "pushed") {
				t.Errorf("answer: got %q, want the 📝 … pushed footer", ans.Text)
			}
			if ans.Edits != 0 {
				t.Errorf("answer edits: got %d, want 0 (a new message, not an edit)", ans.Edits)
			}
			e.wait(t, "the ✅ reaction", e.hasReaction(ts1, "white_check_mark"))
			if e.hasReaction(ts1, "eyes")() {
				t.Error("👀 is still on the finished request")
			}
			e.wait(t, "the final card", func() bool { return len(e.withText(ts1, "*done* · "+task1)) == 1 })
			card := e.cards(ts1, task1)[0]
			if card.Edits == 0 || !strings.Contains(card.Text, "write_file") || !strings.Contains(card.Text, "cache") {
				t.Errorf("final card (%d edits): got %q, want the step and the accounting", card.Edits, card.Text)
			}
			var branch string
			for _, b := range remoteBranches(t, e.remote) {
				if strings.HasPrefix(b, "reasonix/") {
					branch = b
				}
			}
			if branch == "" {
				t.Fatalf("remote branches: got %v, want a reasonix/… branch", remoteBranches(t, e.remote))
			}
			if files := remoteFiles(t, e.remote, branch); !slices.Contains(files, "greet.txt") {
				t.Errorf("files on %s: got %v, want greet.txt", branch, files)
			}
			if !strings.Contains(card.Text, "app@"+branch) {
				t.Errorf("final card: got %q, want it to name app@%s", card.Text, branch)
			}
		}},
		{"a thread reply without a mention continues the session", func(t *testing.T) {
			e.model.Enqueue(answerTurn("It says hello."))
			wantRequests++
			e.fake.ThreadReply(botChannel, ts1, userAda, "what does greet.txt say?")
			e.wait(t, "the follow-up answer", e.says(ts1, "It says hello."))
			reqs := e.modelRequests(t, wantRequests)
			last := reqs[len(reqs)-1]
			if !mentionsIn(last, "user", task1) || !mentionsIn(last, "assistant", "Added greet.txt.") || !mentionsIn(last, "user", "what does greet.txt say?") {
				t.Errorf("follow-up request: got %+v, want the earlier turn before the new question", last.Messages)
			}
			if last.Messages[0].Content != reqs[0].Messages[0].Content {
				t.Error("the follow-up sent a different system prompt: not the same session")
			}
		}},
		{"stop cancels a long-running command", func(t *testing.T) {
			e.model.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("s1", "bash", `{"command":"sleep 30"}`)}})
			wantRequests++
			const task = "now wait a while"
			tsWait, _ := e.fake.ThreadReply(botChannel, ts1, userAda, task)
			e.wait(t, "the sleep on the card", func() bool {
				c := e.cards(ts1, task)
				return len(c) > 0 && strings.Contains(c[0].Text, "sleep 30")
			})
			e.fake.ThreadReply(botChannel, ts1, userAda, "stop")
			e.wait(t, "Stopped.", func() bool {
				return slices.ContainsFunc(e.inThread(ts1), func(m fakeslack.Message) bool { return m.Text == "Stopped." })
			})
			e.wait(t, "the ❌ reaction", e.hasReaction(tsWait, "x"))
			e.wait(t, "the canceled card", func() bool { return len(e.withText(ts1, "*canceled* · "+task)) == 1 })
		}},
		{"a dropped socket reconnects and loses nothing", func(t *testing.T) {
			const napTask, pingTask = "take a nap", "are you still there?"
			e.model.Enqueue(writeFileTurn("w2", "nap.txt", "zzz\n"))
			ts2, _ := e.fake.Mention(botChannel, userAda, napTask)
			threads[ts2] = true
			ap := e.approval(t, ts2, "nap.txt")
			// The nap thread's turn is pending on its approval: the ping
			// answers first, then the nap.
			e.model.Enqueue(answerTurn("Still here."), answerTurn("Napped."))
			wantRequests += 3

			before := e.fake.Connections()
			ts3, _ := e.fake.Mention(botChannel, userGrace, pingTask)
			threads[ts3] = true
			e.fake.DropConnections()
			e.wait(t, "a new socket connection", func() bool {
				return e.fake.Connections() > before && e.fake.OpenConnections() > 0
			})
			e.wait(t, "the answer to the mention sent as the socket dropped", e.says(ts3, "Still here."))

			e.fake.Click(botChannel, ap.TS, userAda, bots.ActionApprove, buttonValue(ap, bots.ActionApprove))
			e.wait(t, "the interrupted turn's answer", e.says(ts2, "Napped."))
			e.wait(t, "both final cards", func() bool {
				return len(e.withText(ts2, "*done* · "+napTask)) == 1 && len(e.withText(ts3, "*done* · "+pingTask)) == 1
			})
			for _, c := range []struct{ ts, task string }{{ts2, napTask}, {ts3, pingTask}} {
				if n := len(e.cards(c.ts, c.task)); n != 1 {
					t.Errorf("cards for %q: got %d, want 1", c.task, n)
				}
				if n := e.reactionsAdded(c.ts, "eyes"); n != 1 {
					t.Errorf("👀 added to %q: got %d times, want 1", c.task, n)
				}
			}
			if n := len(e.modelRequests(t, wantRequests)); n != wantRequests {
				t.Errorf("model requests: got %d, want %d", n, wantRequests)
			}
		}},
		{"a redelivered envelope starts no second turn", func(t *testing.T) {
			ephemerals := len(e.fake.Ephemerals())
			for _, env := range []string{mention1, graceClick} {
				if err := e.fake.Redeliver(env); err != nil {
					t.Fatal(err)
				}
			}
			e.wait(t, "the redeliveries to be acked", func() bool {
				acks := e.fake.Acks()
				count := func(id string) int {
					return len(slices.DeleteFunc(slices.Clone(acks), func(a string) bool { return a != id }))
				}
				return count(mention1) >= 2 && count(graceClick) >= 2
			})
			// Envelopes are handled in order: once a later mention is
			// answered, the redeliveries have been through the gateway.
			e.model.Enqueue(answerTurn("Marker."))
			wantRequests++
			tsMarker, _ = e.fake.Mention(botChannel, userAda, markerTask)
			threads[tsMarker] = true
			e.wait(t, "the marker answer", e.says(tsMarker, "Marker."))

			if n := len(e.cards(ts1, task1)); n != 1 {
				t.Errorf("cards for the redelivered mention: got %d, want 1", n)
			}
			if n := len(e.withText(ts1, "Added greet.txt.")); n != 1 {
				t.Errorf("answers to the redelivered mention: got %d, want 1", n)
			}
			if n := len(e.fake.Ephemerals()); n != ephemerals {
				t.Errorf("ephemerals after a redelivered click: got %d, want %d", n, ephemerals)
			}
			if n := len(e.model.Requests()); n != wantRequests {
				t.Errorf("model requests: got %d, want %d", n, wantRequests)
			}
		}},
		{"every message stays in its thread", func(t *testing.T) {
			for _, m := range e.fake.Posted() {
				if !threads[m.ThreadTS] {
					t.Errorf("message %s posted with thread_ts %q, want one of the conversation's threads: %q", m.TS, m.ThreadTS, m.Text)
				}
			}
		}},
		{"SIGTERM stops the bot with exit 0 and keeps the final card", func(t *testing.T) {
			e.stop(t)
			// The marker turn's card may still be waiting for its last
			// edit; a graceful stop lets it land.
			if n := len(e.withText(tsMarker, "*done* · "+markerTask)); n != 1 {
				t.Errorf("final cards of the last turn after SIGTERM: got %d, want 1\n%s", n, e.dump())
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			return
		}
	}
}

// TestSlackHTTPModeEndToEnd runs the bot with the Events API: signed
// requests are served, forged and stale ones are refused with 401 before
// anything runs.
func TestSlackHTTPModeEndToEnd(t *testing.T) {
	addr := freeAddr(t)
	e := newBotE2E(t, botSetup{mode: "http", listen: addr})
	e.model.Enqueue(answerTurn("Hello over HTTP."))
	e.start()
	base := "http://" + addr
	e.fake.SetRequestURL(base)
	e.poll(t, "the events endpoint to answer Slack's url_verification", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return e.fake.VerifyURL(ctx) == nil
	})

	refused := []struct {
		name   string
		secret string
		at     time.Time
	}{
		{"bad signature", "not-the-signing-secret", time.Now()},
		{"stale timestamp", e.fake.SigningSecret(), time.Now().Add(-10 * time.Minute)},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			body := e.fake.MentionEventBody(botChannel, userAda, "run something for "+tt.name)
			req := fakeslack.SignedRequest(tt.secret, base+"/slack/events", body, tt.at)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("status: got %d, want %d", resp.StatusCode, http.StatusUnauthorized)
			}
		})
	}

	t.Run("a signed mention is answered in its thread", func(t *testing.T) {
		ts, env := e.fake.Mention(botChannel, userAda, "say hello")
		if !e.fake.Acked(env) {
			t.Errorf("envelope %s: got no 200, want the event accepted", env)
		}
		e.wait(t, "the answer", e.says(ts, "Hello over HTTP."))
		e.wait(t, "the final card", func() bool { return len(e.withText(ts, "*done* · say hello")) == 1 })
		if n := len(e.model.Requests()); n != 1 {
			t.Errorf("model requests: got %d, want 1 (the refused requests ran nothing)", n)
		}
		for _, m := range e.fake.Posted() {
			if m.ThreadTS != ts {
				t.Errorf("message %s posted in thread %q, want only the signed mention's thread %s: %q", m.TS, m.ThreadTS, ts, m.Text)
			}
		}
	})

	t.Run("SIGTERM stops the bot with exit 0", func(t *testing.T) {
		e.stop(t)
	})
}
