package bots_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/bottest"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider/providertest"
)

func call(id, name, args string) providertest.ToolCall {
	return providertest.ToolCall{ID: id, Name: name, Arguments: args}
}

func writeFile(id, path, content string) providertest.Turn {
	return providertest.Turn{ToolCalls: []providertest.ToolCall{call(id, "write_file", fmt.Sprintf(`{"path":%q,"content":%q}`, path, content))}}
}

func answer(text string) providertest.Turn { return providertest.Turn{Text: []string{text}} }

// A thread from mention to pushed branch: approval by the requester, a
// follow-up that continues the same session, approve-for-thread.
func TestThreadLifecycle(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(writeFile("w1", "greet.txt", "hello\n"), answer("Added greet.txt."))
	ref := h.plat.NewThread("C-app")
	first := h.say(ref, ada, "add a greeting file", true)

	ap := h.approvalMessage(ref, "write_file")
	if !strings.Contains(ap.Text(), "greet.txt") || len(ap.Last().Buttons) != 3 {
		t.Fatalf("approval message = %q with %d buttons", ap.Text(), len(ap.Last().Buttons))
	}
	if err := h.plat.Press(context.Background(), ref, ap.ID, ada, button(ap, bots.ActionApprove)); err != nil {
		t.Fatal(err)
	}
	h.wait("the answer", botText(ref, "Added greet.txt."))
	h.wait("the ✅ reaction", bottest.HasReaction(ref, first.MessageID, "white_check_mark"))
	decided, _ := h.plat.Message(ref, ap.ID)
	if len(decided.Last().Buttons) != 0 || !strings.Contains(decided.Text(), "Approved once by Ada") {
		t.Errorf("decided approval = %q (buttons %d)", decided.Text(), len(decided.Last().Buttons))
	}
	ans, _ := findBot(h.plat, ref, "Added greet.txt.")
	if !strings.Contains(ans.Text(), "pushed") {
		t.Errorf("answer footer = %q, want the diff stat and push", ans.Text())
	}
	branches := remoteBranches(t, h.remote)
	var branch string
	for _, b := range branches {
		if strings.HasPrefix(b, "reasonix/") {
			branch = b
		}
	}
	if files := remoteFiles(t, h.remote, branch); !slices.Contains(files, "greet.txt") {
		t.Fatalf("branch %q on the remote has %v, want greet.txt (branches %v)", branch, files, branches)
	}
	h.wait("the final card", botText(ref, "**done**"))
	card, _ := findBot(h.plat, ref, "**done**")
	if !strings.Contains(card.Text(), "app@"+branch) || !strings.Contains(card.Text(), "cache") {
		t.Errorf("final card = %q", card.Text())
	}

	// Follow-up without a mention continues the session.
	h.srv.Enqueue(writeFile("w2", "bye.txt", "bye\n"), writeFile("w3", "bye.txt", "bye!\n"), answer("Added bye.txt."))
	h.say(ref, ada, "also add a bye file", false)
	ap2 := h.approvalMessage(ref, "bye.txt")
	if err := h.plat.Press(context.Background(), ref, ap2.ID, ada, button(ap2, bots.ActionApproveThread)); err != nil {
		t.Fatal(err)
	}
	h.wait("the second answer", botText(ref, "Added bye.txt."))
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.Messages[1].Content, "add a greeting file") {
		t.Error("the follow-up did not continue the same session")
	}
	var approvals int
	for _, m := range h.plat.BotMessages(ref) {
		if strings.Contains(m.Text(), "Approval needed") || strings.Contains(m.Text(), "Approved") {
			approvals++
		}
	}
	if approvals != 2 {
		t.Errorf("approval messages = %d, want 2 (the second write was covered by the thread grant)", approvals)
	}
	if files := remoteFiles(t, h.remote, branch); !slices.Contains(files, "bye.txt") {
		t.Errorf("branch files = %v, want bye.txt pushed", files)
	}
}

func TestApprovalRoles(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(writeFile("w1", "a.txt", "a"), answer("done one"))
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "write a", true)
	ap := h.approvalMessage(ref, "a.txt")

	// Eve is neither the requester nor an approver.
	if err := h.plat.Press(context.Background(), ref, ap.ID, eve, button(ap, bots.ActionApprove)); err != nil {
		t.Fatal(err)
	}
	h.wait("the refusal notice", bottest.HasEphemerals(ref, 1))
	if e := h.plat.Ephemerals(ref)[0]; e.User != eve.ID || !strings.Contains(e.Message.Text, "can't decide") {
		t.Errorf("notice = %+v", e)
	}
	if still, _ := h.plat.Message(ref, ap.ID); len(still.Last().Buttons) == 0 {
		t.Fatal("an unauthorised press resolved the approval")
	}
	// Grace is an approver: her deny wins; a second press finds it decided.
	if err := h.plat.Press(context.Background(), ref, ap.ID, grace, button(ap, bots.ActionDeny)); err != nil {
		t.Fatal(err)
	}
	err := h.plat.Send(context.Background(), bots.Event{Kind: bots.KindPress, Ref: ref, MessageID: ap.ID, User: ada, ActionID: bots.ActionApprove, Value: button(ap, bots.ActionApprove).Value})
	if err != nil {
		t.Fatal(err)
	}
	h.wait("the answer", botText(ref, "done one"))
	decided, _ := h.plat.Message(ref, ap.ID)
	if !strings.Contains(decided.Text(), "Denied by Grace") {
		t.Errorf("approval message = %q", decided.Text())
	}
	reqs := h.srv.Requests()
	if res := reqs[len(reqs)-1].Messages; !strings.Contains(res[len(res)-1].Content, "Grace denied") {
		t.Errorf("model was told %q", res[len(res)-1].Content)
	}
	h.wait("the late press notice", bottest.HasEphemerals(ref, 2))
}

func TestApprovalTimeout(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) {
		c.opts = func(o *bots.Options) { o.ApprovalTimeout = 150 * time.Millisecond }
	})
	h.srv.Enqueue(writeFile("w1", "a.txt", "a"), answer("gave up"))
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "write a", true)
	h.wait("the timeout notice", botText(ref, "timed out"))
	h.wait("the answer", botText(ref, "gave up"))
	ap, _ := findBot(h.plat, ref, "Nobody answered")
	if len(ap.Last().Buttons) != 0 {
		t.Error("the timed-out approval still has buttons")
	}
}

func TestSteerAndStop(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) { c.rules.Allow = []string{"Bash(sleep:*)"} })
	h.srv.Enqueue(
		providertest.Turn{ToolCalls: []providertest.ToolCall{call("s1", "bash", `{"command":"sleep 1"}`)}},
		answer("steered answer"),
	)
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "wait a second", true)
	h.wait("the sleep to start", botText(ref, "sleep 1"))
	steer := h.say(ref, grace, "use the v2 API instead", false)
	h.wait("the steer acknowledgement", bottest.HasReaction(ref, steer.MessageID, "eyes"))
	h.wait("the answer", botText(ref, "steered answer"))
	reqs := h.srv.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if !strings.Contains(msgs[len(msgs)-1].Content, "use the v2 API instead") || !strings.Contains(msgs[len(msgs)-1].Content, "Grace") {
		t.Errorf("last message to the model = %q, want the steer with its speaker", msgs[len(msgs)-1].Content)
	}

	h.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("s2", "bash", `{"command":"sleep 30"}`)}})
	h.say(ref, ada, "now wait longer", false)
	h.wait("the long sleep to start", botText(ref, "sleep 30"))
	h.say(ref, ada, "stop", false)
	h.wait("the stop", botText(ref, "Stopped."))
	h.wait("the canceled card", botText(ref, "**canceled**"))
}

func TestParallelThreadsStayApart(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) { c.posture = permission.PostureAuto })
	h.srv.Close()
	h.srv = providertest.New(providertest.WithResponder(func(req providertest.RecordedRequest) providertest.Turn {
		task := req.Messages[1].Content
		name := "one.txt"
		if strings.Contains(task, "second") {
			name = "two.txt"
		}
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			return answer("wrote " + name)
		}
		return writeFile("w", name, name)
	}))
	t.Cleanup(h.srv.Close)
	h.stop()
	h.opts.Sessions.(*testSessions).srv = h.srv
	h.start()

	r1, r2 := h.plat.NewThread("C-app"), h.plat.NewThread("C-app")
	h.say(r1, ada, "first task", true)
	h.say(r2, grace, "second task", true)
	h.wait("both answers", func(p *bottest.Platform) bool {
		return botText(r1, "wrote one.txt")(p) && botText(r2, "wrote two.txt")(p)
	})
	var got [][]string
	for _, b := range remoteBranches(t, h.remote) {
		if strings.HasPrefix(b, "reasonix/") {
			got = append(got, remoteFiles(t, h.remote, b))
		}
	}
	if len(got) != 2 {
		t.Fatalf("thread branches = %v, want 2", got)
	}
	for _, files := range got {
		if slices.Contains(files, "one.txt") == slices.Contains(files, "two.txt") {
			t.Errorf("a branch holds %v, want exactly one thread's file", files)
		}
	}
}

func TestRedeliveredEventRunsOnce(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(answer("only once"))
	ref := h.plat.NewThread("C-app")
	ev := bots.Event{ID: "ev-fixed", Kind: bots.KindMessage, Ref: ref, User: ada, Text: "hello", Mention: true}
	for i := 0; i < 3; i++ {
		if err := h.plat.Send(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	h.wait("the answer", botText(ref, "only once"))
	h.srv.Enqueue(answer("marker"))
	h.say(ref, ada, "next", false)
	h.wait("the marker", botText(ref, "marker"))
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("model requests = %d, want 2 (the redeliveries started no turn)", n)
	}
}

func TestProviderFailureIsToldPlainly(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(providertest.Turn{Fault: &providertest.Fault{Status: 401, Body: `{"error":{"message":"bad key sk-secret"}}`}})
	ref := h.plat.NewThread("C-app")
	first := h.say(ref, ada, "hello", true)
	h.wait("the error", botText(ref, "rejected our API key"))
	h.wait("the ❌ reaction", bottest.HasReaction(ref, first.MessageID, "x"))
	for _, m := range h.plat.BotMessages(ref) {
		if strings.Contains(m.Text(), "sk-secret") {
			t.Errorf("a message leaked the provider's error body: %q", m.Text())
		}
	}
}

func TestAccessAndInputChecks(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) {
		c.opts = func(o *bots.Options) { o.Access.Users = []string{"mem:" + ada.ID} }
	})
	ref := h.plat.NewThread("C-app")
	h.say(ref, eve, "do things", true)
	h.wait("the refusal", bottest.HasEphemerals(ref, 1))
	ref2 := h.plat.NewThread("C-other")
	h.say(ref2, ada, "hello there", true)
	h.wait("the repo question", botText(ref2, "Which repository"))
	ref3 := h.plat.NewThread("C-other")
	h.say(ref3, ada, "repo=nope hello", true)
	h.wait("the unknown repo reply", botText(ref3, "I don't know a repo named `nope`"))
	ref4 := h.plat.NewThread("C-app")
	h.say(ref4, ada, strings.Repeat("x", 50<<10), true)
	h.wait("the size refusal", botText(ref4, "the limit is 40 KB"))
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("model requests = %d, want none", n)
	}
}

func TestRestartRecoversThreads(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(answer("first answer"))
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "remember the number 42", true)
	h.wait("the answer", botText(ref, "first answer"))

	// A crash mid-turn leaves the binding marked running and an approval
	// pending; simulate exactly that state, then start again.
	h.stop()
	h.start()
	ctx := context.Background()
	b, rev, err := h.store.GetBinding(ctx, ref.Key())
	if err != nil {
		t.Fatal(err)
	}
	h.stop()
	h.start()
	b.Running = true
	if _, err := h.store.PutBinding(ctx, b, rev); err != nil {
		t.Fatal(err)
	}
	h.store.PutApproval(ctx, bots.Approval{ID: "stale", ThreadKey: ref.Key(), Ref: ref, Tool: "bash", Subject: "make deploy", State: bots.ApprovalPending})
	h.stop()
	h.start()
	h.wait("the interruption notice", botText(ref, "I was restarted"))
	h.wait("the expiry notice", botText(ref, "expired because the bot restarted"))

	h.srv.Enqueue(answer("it was 42"))
	h.say(ref, ada, "what number?", false)
	h.wait("the answer after restart", botText(ref, "it was 42"))
	reqs := h.srv.Requests()
	if !strings.Contains(reqs[len(reqs)-1].Messages[1].Content, "remember the number 42") {
		t.Error("the session was not resumed from its transcript")
	}
	if reqs[len(reqs)-1].Messages[0].Content != reqs[0].Messages[0].Content {
		t.Error("the resumed session sent a different system prompt")
	}
}

func TestCardEditsStayUnderTheRate(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) {
		c.posture = permission.PostureAuto
		c.opts = func(o *bots.Options) { o.EditInterval = 80 * time.Millisecond }
	})
	var turns []providertest.Turn
	for i := 0; i < 12; i++ {
		turns = append(turns, providertest.Turn{ToolCalls: []providertest.ToolCall{call(fmt.Sprint(i), "ls", `{}`)}})
	}
	h.srv.Enqueue(append(turns, answer("listed"))...)
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "list a lot", true)
	h.wait("the answer", botText(ref, "listed"))
	h.wait("the final card", botText(ref, "**done**"))
	gap, ok := h.plat.MaxEditRate()
	if !ok {
		t.Fatal("no message was edited; the card should have been")
	}
	if gap < 80*time.Millisecond {
		t.Errorf("a message was edited %v after its previous version, want ≥ 80ms", gap)
	}
	card, _ := findBot(h.plat, ref, "**done**")
	if !strings.Contains(card.Text(), "earlier steps") {
		t.Errorf("final card = %q, want the step list cut with a count", card.Text())
	}
}

func TestQueuedTurnsShowTheirPlace(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) {
		c.rules.Allow = []string{"Bash(sleep:*)"}
		c.opts = func(o *bots.Options) { o.MaxConcurrentTurns = 1 }
	})
	h.srv.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("s", "bash", `{"command":"sleep 1"}`)}}, answer("first done"), answer("second done"))
	r1, r2 := h.plat.NewThread("C-app"), h.plat.NewThread("C-app")
	h.say(r1, ada, "slow one", true)
	h.wait("the first to run", botText(r1, "sleep 1"))
	h.say(r2, grace, "fast one", true)
	h.wait("the queued card", botText(r2, "**queued**"))
	h.wait("both answers", func(p *bottest.Platform) bool {
		return botText(r1, "first done")(p) && botText(r2, "second done")(p)
	})
}

func TestNewGivesAFreshBranchThatSurvivesRestart(t *testing.T) {
	h := newHarness(t, func(c *harnessConfig) { c.posture = permission.PostureAuto })
	h.srv.Enqueue(writeFile("w1", "a.txt", "a"), answer("wrote a"))
	ref := h.plat.NewThread("C-app")
	h.say(ref, ada, "write a", true)
	h.wait("the first answer", botText(ref, "wrote a"))
	h.say(ref, ada, "new", false)
	h.wait("the restart notice", botText(ref, "Started over"))
	h.srv.Enqueue(writeFile("w2", "b.txt", "b"), answer("wrote b"))
	h.say(ref, ada, "write b", false)
	h.wait("the second answer", botText(ref, "wrote b"))

	var branches []string
	for _, b := range remoteBranches(t, h.remote) {
		if strings.HasPrefix(b, "reasonix/") {
			branches = append(branches, b)
		}
	}
	if len(branches) != 2 {
		t.Fatalf("thread branches = %v, want two (one per generation)", branches)
	}
	second, _ := findBot(h.plat, ref, "wrote b")
	var fresh string
	for _, b := range branches {
		if strings.Contains(second.Text(), b) {
			fresh = b
		}
	}
	if files := remoteFiles(t, h.remote, fresh); slices.Contains(files, "a.txt") || !slices.Contains(files, "b.txt") {
		t.Errorf("fresh branch %q has %v, want b.txt only", fresh, files)
	}
	if reqs := h.srv.Requests(); strings.Contains(reqs[len(reqs)-1].Messages[1].Content, "write a") {
		t.Error("the new session still carries the old conversation")
	}

	h.stop()
	h.start()
	h.say(ref, ada, "diff", false)
	h.wait("the diff after a restart", botText(ref, "+b"))
	h.say(ref, ada, "status", false)
	h.wait("the status", botText(ref, "**Status**"))
	status, _ := findBot(h.plat, ref, "**Status**")
	if !strings.Contains(status.Text(), fresh) {
		t.Errorf("status after restart = %q, want branch %s", status.Text(), fresh)
	}
}
