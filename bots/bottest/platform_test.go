package bottest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/bots"
	"github.com/reasonix/teams/bots/bottest"
)

// recorder is a handler that keeps the events it gets and answers with err.
type recorder struct {
	mu     sync.Mutex
	events []bots.Event
	err    error
}

func (r *recorder) Handle(_ context.Context, ev bots.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return r.err
}

func (r *recorder) got() []bots.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// running starts p.Run with a recorder until the test ends.
func running(t *testing.T, p *bottest.Platform) *recorder {
	t.Helper()
	r := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, r) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: got %v, want nil", err)
		}
	})
	return r
}

var ana = bots.User{ID: "U1", Name: "Ana"}

func TestPostAndUpdate(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := bottest.New(bottest.Options{})
	ref := p.NewThread("C1")
	id, err := p.Post(ctx, ref, bots.Message{Text: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Update(ctx, ref, id, bots.Message{Text: "v2"}); err != nil {
		t.Fatal(err)
	}
	msgs := p.Messages(ref)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if got, want := len(m.Edits), 2; got != want {
		t.Fatalf("got %d versions, want %d", got, want)
	}
	if got, want := m.Text(), "v2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !m.FromBot() || m.Ref != ref {
		t.Errorf("got author %v in %v, want the bot in %v", m.User, m.Ref, ref)
	}
	m.Edits[1].Message.Text = "changed by the caller"
	if got, _ := p.Message(ref, id); got.Text() != "v2" {
		t.Errorf("got %q after changing a snapshot, want %q", got.Text(), "v2")
	}
	if _, ok := p.MaxEditRate(); !ok {
		t.Errorf("MaxEditRate: got no edits, want one gap")
	}
}

func TestPostStartsThread(t *testing.T) {
	t.Parallel()
	p := bottest.New(bottest.Options{Name: "slack"})
	id, err := p.Post(t.Context(), bots.ThreadRef{Channel: "C1"}, bots.Message{Text: "report"})
	if err != nil {
		t.Fatal(err)
	}
	ref := bots.ThreadRef{Platform: "slack", Channel: "C1", Thread: id}
	if got := p.Messages(ref); len(got) != 1 || got[0].ID != id {
		t.Errorf("got %v, want the message as the start of thread %s", got, id)
	}
}

func TestRejects(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := bottest.New(bottest.Options{Limits: bots.Limits{MaxText: 5}})
	ref := p.NewThread("C1")
	id, err := p.Post(ctx, ref, bots.Message{Text: "ééééé"}) // 5 characters, 10 bytes
	if err != nil {
		t.Fatal(err)
	}
	injected := errors.New("injected")
	p.FailNext(bottest.OpPost, injected)
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"injected failure", func() error { _, err := p.Post(ctx, ref, bots.Message{Text: "x"}); return err }, injected},
		{"too long", func() error { _, err := p.Post(ctx, ref, bots.Message{Text: "123456"}); return err }, bottest.ErrTooLong},
		{"empty", func() error { _, err := p.Post(ctx, ref, bots.Message{}); return err }, bottest.ErrEmptyMessage},
		{"unknown message", func() error { return p.Update(ctx, ref, "nope", bots.Message{Text: "x"}) }, bottest.ErrNoMessage},
		{"other channel", func() error {
			return p.Update(ctx, bots.ThreadRef{Channel: "C2", Thread: ref.Thread}, id, bots.Message{Text: "x"})
		}, bottest.ErrNoMessage},
		{"reaction on unknown message", func() error { return p.React(ctx, ref, "nope", "eyes", true) }, bottest.ErrNoMessage},
		{"reply without token", func() error { return p.ReplyCommand(ctx, bots.Event{}, bots.Message{Text: "x"}) }, bottest.ErrNoReplyToken},
		{"press on a missing button", func() error { return p.Press(ctx, ref, id, ana, bots.Button{ActionID: "a"}) }, bottest.ErrNoButton},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
	if got := p.Failures(); len(got) != 1 || got[0].Op != bottest.OpPost {
		t.Errorf("got failures %v, want the one injected post failure", got)
	}
	if got, want := len(p.Messages(ref)), 1; got != want {
		t.Errorf("got %d messages, want %d", got, want)
	}
}

func TestInbound(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := bottest.New(bottest.Options{Team: "T1"})
	r := running(t, p)
	ref := p.NewThread("C1")

	first, err := p.Say(ctx, ref, ana, "fix it", true)
	if err != nil {
		t.Fatal(err)
	}
	if first.MessageID != ref.Thread {
		t.Errorf("got message id %q, want the thread id %q for the message that starts it", first.MessageID, ref.Thread)
	}
	second, err := p.Say(ctx, ref, ana, "and the docs", false)
	if err != nil {
		t.Fatal(err)
	}
	if second.MessageID == first.MessageID || second.ID == first.ID {
		t.Errorf("got ids %q/%q twice, want new ones", second.ID, second.MessageID)
	}

	buttons := []bots.Button{{ActionID: "approve", Label: "Approve", Value: "ap-1"}}
	card, err := p.Post(ctx, ref, bots.Message{Text: "approve?", Buttons: buttons})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Press(ctx, ref, card, ana, buttons[0]); err != nil {
		t.Fatal(err)
	}
	if err := p.Command(ctx, ref, ana, "status"); err != nil {
		t.Fatal(err)
	}

	evs := r.got()
	if got, want := len(evs), 4; got != want {
		t.Fatalf("got %d events, want %d", got, want)
	}
	for _, ev := range evs {
		if ev.ID == "" || ev.At.IsZero() || ev.Ref.Platform != "mem" || ev.Ref.Team != "T1" {
			t.Errorf("got %+v, want ID, At, platform and team filled in", ev)
		}
	}
	kinds := []bots.EventKind{evs[0].Kind, evs[1].Kind, evs[2].Kind, evs[3].Kind}
	if want := []bots.EventKind{bots.KindMessage, bots.KindMessage, bots.KindPress, bots.KindCommand}; !slices.Equal(kinds, want) {
		t.Errorf("got kinds %v, want %v", kinds, want)
	}
	if press := evs[2]; press.ActionID != "approve" || press.Value != "ap-1" || press.MessageID != card {
		t.Errorf("got press %+v, want approve/ap-1 on %s", press, card)
	}
	if !evs[0].Mention || evs[1].Mention {
		t.Errorf("got mentions %v, %v, want true, false", evs[0].Mention, evs[1].Mention)
	}
	if got := len(p.Messages(ref)); got != 3 {
		t.Errorf("got %d messages, want 3 (two said, one posted)", got)
	}
	if got := len(p.BotMessages(ref)); got != 1 {
		t.Errorf("got %d bot messages, want 1", got)
	}

	if err := p.ReplyCommand(ctx, evs[3], bots.Message{Text: "idle"}); err != nil {
		t.Fatal(err)
	}
	if got := p.CommandReplies(); len(got) != 1 || got[0].Message.Text != "idle" {
		t.Errorf("got %v, want one reply", got)
	}
}

func TestSendReturnsHandlerError(t *testing.T) {
	t.Parallel()
	p := bottest.New(bottest.Options{})
	r := running(t, p)
	r.mu.Lock()
	r.err = errors.New("not recorded")
	r.mu.Unlock()
	if err := p.Send(t.Context(), bots.Event{Kind: bots.KindMessage}); err == nil {
		t.Errorf("got nil, want the handler's error")
	}
}

func TestSendWaitsForRun(t *testing.T) {
	t.Parallel()
	p := bottest.New(bottest.Options{})
	sent := make(chan error, 1)
	go func() { sent <- p.Send(t.Context(), bots.Event{Kind: bots.KindMessage, ID: "fixed"}) }()
	r := running(t, p)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if got := r.got(); len(got) != 1 || got[0].ID != "fixed" {
		t.Errorf("got %v, want the event with its own id", got)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := bottest.New(bottest.Options{}).Send(ctx, bots.Event{}); !errors.Is(err, context.Canceled) {
		t.Errorf("without Run: got %v, want %v", err, context.Canceled)
	}
	if err := p.Run(t.Context(), r); !errors.Is(err, bottest.ErrRunning) {
		t.Errorf("second Run: got %v, want %v", err, bottest.ErrRunning)
	}
}

func TestReactionsEphemeralsUploads(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := bottest.New(bottest.Options{})
	running(t, p)
	ref := p.NewThread("C1")
	ev, err := p.Say(ctx, ref, ana, "hi", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		emoji string
		add   bool
	}{{"eyes", true}, {"white_check_mark", true}, {"eyes", false}, {"x", true}} {
		if err := p.React(ctx, ref, ev.MessageID, step.emoji, step.add); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := p.Reactions(ref, ev.MessageID), []string{"white_check_mark", "x"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}

	if err := p.PostEphemeral(ctx, ref, ana.ID, bots.Message{Text: "only you"}); err != nil {
		t.Fatal(err)
	}
	if got := p.Ephemerals(ref); len(got) != 1 || got[0].User != ana.ID || got[0].Message.Text != "only you" {
		t.Errorf("got %v, want one ephemeral for %s", got, ana.ID)
	}

	content := []byte("diff --git a/x b/x")
	if err := p.Upload(ctx, ref, "change.diff", content, "the diff"); err != nil {
		t.Fatal(err)
	}
	content[0] = 'X'
	files := p.Uploads(ref)
	if len(files) != 1 || files[0].Name != "change.diff" || string(files[0].Content) != "diff --git a/x b/x" {
		t.Errorf("got %v, want the file as uploaded", files)
	}
}

func TestWaitFor(t *testing.T) {
	t.Parallel()
	p := bottest.New(bottest.Options{})
	ref := p.NewThread("C1")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	go func() {
		for i := range 5 {
			if _, err := p.Post(ctx, ref, bots.Message{Text: fmt.Sprintf("message %d", i)}); err != nil {
				t.Error(err)
			}
		}
	}()
	if err := p.WaitFor(ctx, bottest.HasText(ref, "message 4")); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitFor(ctx, bottest.HasBotMessages(ref, 5)); err != nil {
		t.Fatal(err)
	}

	short, cancelShort := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancelShort()
	if err := p.WaitFor(short, bottest.HasBotMessages(ref, 6)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want %v", err, context.DeadlineExceeded)
	}
}

// TestConcurrentUse is for the race detector.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := bottest.New(bottest.Options{})
	running(t, p)
	ref := p.NewThread("C1")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			id, err := p.Post(ctx, ref, bots.Message{Text: "w"})
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 20 {
				text := strings.Repeat("x", i+1)
				if err := p.Update(ctx, ref, id, bots.Message{Text: text}); err != nil {
					t.Error(err)
				}
				_ = p.React(ctx, ref, id, "eyes", i%2 == 0)
				_, _ = p.Say(ctx, ref, ana, fmt.Sprintf("w%d says %d", w, i), false)
				_ = p.Messages(ref)
				_, _ = p.MaxEditRate()
			}
		})
	}
	wg.Wait()
	if got, want := len(p.BotMessages(ref)), 8; got != want {
		t.Errorf("got %d bot messages, want %d", got, want)
	}
	if got, want := len(p.Messages(ref)), 8+8*20; got != want {
		t.Errorf("got %d messages, want %d", got, want)
	}
}
