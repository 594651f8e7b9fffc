package slack

import (
	"errors"
	"strings"
	"testing"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/slack/fakeslack"
)

func TestPostAndUpdateBlocks(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	ctx := testCtx(t)
	ref := bots.ThreadRef{Platform: "slack", Team: fake.TeamID(), Channel: "C1", Thread: "1700000000.000007"}

	ts, err := a.Post(ctx, ref, bots.Message{Text: "**Run** `rm -rf build`? @here", Buttons: []bots.Button{
		{ActionID: "approve", Label: "Approve", Value: "a1", Style: bots.StylePrimary},
		{ActionID: "always", Label: "Approve for this thread", Value: "a1"},
		{ActionID: "deny", Label: "Deny", Value: "a1", Style: bots.StyleDanger},
	}})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := fake.Message("C1", ts)
	if !ok {
		t.Fatalf("message %s not found", ts)
	}
	wantBlocks := []fakeslack.Block{
		{Type: "section", Text: "*Run* `rm -rf build`? @\u200bhere", TextType: "mrkdwn"},
		{Type: "actions", Buttons: []fakeslack.Button{
			{ActionID: "approve", Label: "Approve", Value: "a1", Style: "primary"},
			{ActionID: "always", Label: "Approve for this thread", Value: "a1"},
			{ActionID: "deny", Label: "Deny", Value: "a1", Style: "danger"},
		}},
	}
	if !blocksEqual(m.Blocks, wantBlocks) {
		t.Errorf("blocks: got %+v, want %+v", m.Blocks, wantBlocks)
	}
	if m.ThreadTS != ref.Thread || m.Text == "" || m.UnfurlLinks != "false" || m.UnfurlMedia != "false" {
		t.Errorf("message: got thread %q text %q unfurl %q/%q, want thread %q, a fallback text, unfurls off",
			m.ThreadTS, m.Text, m.UnfurlLinks, m.UnfurlMedia, ref.Thread)
	}

	if err := a.Update(ctx, ref, ts, bots.Message{Text: "Approved by Bob"}); err != nil {
		t.Fatal(err)
	}
	m, _ = fake.Message("C1", ts)
	want := []fakeslack.Block{{Type: "section", Text: "Approved by Bob", TextType: "mrkdwn"}}
	if !blocksEqual(m.Blocks, want) || m.Edits != 1 || m.Text != "Approved by Bob" {
		t.Errorf("after update: got blocks %+v edits %d text %q, want %+v, 1 edit", m.Blocks, m.Edits, m.Text, want)
	}
}

func TestPostLongTextSplitsIntoSections(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	var b strings.Builder
	for i := 0; b.Len() < 11500; i++ {
		b.WriteString("A paragraph with a <tag> & some words in it, number ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(".\n\n")
	}
	ts, err := a.Post(testCtx(t), bots.ThreadRef{Channel: "C1"}, bots.Message{Text: b.String()})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := fake.Message("C1", ts)
	if len(m.Blocks) < 4 {
		t.Fatalf("blocks: got %d, want at least 4 sections for ~14,000 escaped characters", len(m.Blocks))
	}
	var joined []string
	for i, blk := range m.Blocks {
		if blk.Type != "section" || textLen(blk.Text) > 3000 {
			t.Errorf("block %d: got %s of %d chars, want a section of at most 3000", i, blk.Type, textLen(blk.Text))
		}
		joined = append(joined, blk.Text)
	}
	if got, want := strings.Join(joined, "\n"), ToMrkdwn(b.String()); strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
		t.Errorf("sections lost or changed text")
	}
	if textLen(m.Text) > 3000 {
		t.Errorf("fallback text: got %d chars, want at most 3000", textLen(m.Text))
	}
}

func TestReact(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	ctx := testCtx(t)
	ts, _ := fake.Mention("C1", "U1", "hi")
	ref := bots.ThreadRef{Platform: "slack", Channel: "C1", Thread: ts}
	steps := []struct {
		emoji string
		add   bool
	}{
		{"eyes", true},
		{"eyes", true}, // already_reacted is fine
		{"eyes", false},
		{"eyes", false}, // no_reaction is fine
		{"white_check_mark", true},
	}
	for _, s := range steps {
		if err := a.React(ctx, ref, ts, s.emoji, s.add); err != nil {
			t.Fatalf("React(%s, %v): %v", s.emoji, s.add, err)
		}
	}
	want := []fakeslack.Reaction{
		{Channel: "C1", TS: ts, Name: "eyes"},
		{Channel: "C1", TS: ts, Name: "eyes", Removed: true},
		{Channel: "C1", TS: ts, Name: "white_check_mark"},
	}
	got := fake.Reactions()
	if len(got) != len(want) {
		t.Fatalf("reactions: got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("reaction %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := a.React(ctx, ref, "1.000000", "x", true); err == nil {
		t.Errorf("React on a missing message: got nil, want an error")
	}
}

func TestUpload(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	ref := bots.ThreadRef{Platform: "slack", Channel: "C1", Thread: "1700000000.000003"}
	diff := []byte("--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old\n+new\n")
	if err := a.Upload(testCtx(t), ref, "changes.diff", diff, "the **diff**"); err != nil {
		t.Fatal(err)
	}
	ups := fake.Uploads()
	if len(ups) != 1 {
		t.Fatalf("uploads: got %d, want 1", len(ups))
	}
	u := ups[0]
	if u.Filename != "changes.diff" || string(u.Content) != string(diff) || u.Channel != "C1" || u.ThreadTS != ref.Thread || u.InitialComment != "the *diff*" {
		t.Errorf("upload: got %+v", u)
	}
	if err := a.Upload(testCtx(t), ref, "empty.txt", nil, ""); !errors.Is(err, ErrEmptyFile) {
		t.Errorf("empty upload: got %v, want ErrEmptyFile", err)
	}
}

func TestPostEphemeral(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	ref := bots.ThreadRef{Platform: "slack", Channel: "C1", Thread: "1700000000.000003"}
	if err := a.PostEphemeral(testCtx(t), ref, "U2", bots.Message{Text: "Only approvers can press this."}); err != nil {
		t.Fatal(err)
	}
	got := fake.Ephemerals()
	if len(got) != 1 || got[0].User != "U2" || got[0].ThreadTS != ref.Thread || len(got[0].Blocks) != 1 || got[0].Blocks[0].Text != "Only approvers can press this." {
		t.Errorf("ephemerals: got %+v", got)
	}
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		method     string
		times      int
		retryAfter int
		wantErr    bool
		wantCalls  int
	}{
		{name: "update retried after Retry-After", method: "chat.update", times: 1, retryAfter: 1, wantCalls: 2},
		{name: "post gives up after two retries", method: "chat.postMessage", times: 3, retryAfter: 0, wantErr: true, wantCalls: 3},
		{name: "long wait returned at once", method: "chat.update", times: 1, retryAfter: 120, wantErr: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, fakeslack.Options{})
			a := newAdapter(t, fake, ModeSocket)
			ctx := testCtx(t)
			ref := bots.ThreadRef{Platform: "slack", Channel: "C1"}
			ts, err := a.Post(ctx, ref, bots.Message{Text: "status"})
			if err != nil {
				t.Fatal(err)
			}
			base := fake.Calls(tt.method)
			fake.RateLimit(tt.method, tt.times, tt.retryAfter)
			if tt.method == "chat.update" {
				err = a.Update(ctx, ref, ts, bots.Message{Text: "status, edited"})
			} else {
				_, err = a.Post(ctx, ref, bots.Message{Text: "again"})
			}
			var rl *bots.RateLimitError
			if tt.wantErr != errors.As(err, &rl) {
				t.Fatalf("error: got %v, want a *bots.RateLimitError: %v", err, tt.wantErr)
			}
			if tt.wantErr && int(rl.RetryAfter.Seconds()) != tt.retryAfter {
				t.Errorf("RetryAfter: got %v, want %ds", rl.RetryAfter, tt.retryAfter)
			}
			if got := fake.Calls(tt.method) - base; got != tt.wantCalls {
				t.Errorf("calls: got %d, want %d", got, tt.wantCalls)
			}
		})
	}
}

func blocksEqual(a, b []fakeslack.Block) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Text != b[i].Text || a[i].TextType != b[i].TextType || len(a[i].Buttons) != len(b[i].Buttons) {
			return false
		}
		for j := range a[i].Buttons {
			if a[i].Buttons[j] != b[i].Buttons[j] {
				return false
			}
		}
	}
	return true
}
