package bots_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/reasonix/teams/bots"
)

func TestCardRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		card bots.Card
		want string
	}{
		{
			name: "queued",
			card: bots.Card{Task: "fix the flaky TestLogin", Phase: bots.PhaseQueued, QueueAhead: 2, Repo: "api", Branch: "reasonix/ab12", Speaker: "Ana"},
			want: "🕒 **queued (2 ahead)** · fix the flaky TestLogin\n`api@reasonix/ab12` · by Ana",
		},
		{
			name: "queued first in line",
			card: bots.Card{Task: "bump deps", Phase: bots.PhaseQueued},
			want: "🕒 **queued** · bump deps",
		},
		{
			name: "running",
			card: bots.Card{
				Task: "fix the flaky\nTestLogin", Repo: "api", Branch: "reasonix/ab12", Phase: bots.PhaseRunning,
				Steps: []bots.Step{
					{Tool: "grep", Subject: "TestLogin", State: bots.StepOK, Duration: 340 * time.Millisecond},
					{Tool: "bash", Subject: "go test ./auth/...", State: bots.StepFailed, Duration: 1250 * time.Millisecond},
					{Tool: "bash", Subject: "rm -rf /", State: bots.StepBlocked, Note: "denied by policy"},
					{Tool: "edit_file", Subject: "auth/login_test.go", State: bots.StepRunning},
				},
				PromptTokens: 12345, CacheHitTokens: 11700, CompletionTokens: 1234, Cost: 0.01234, Elapsed: 65 * time.Second,
			},
			want: "🔄 **running** · fix the flaky TestLogin\n" +
				"`api@reasonix/ab12`\n" +
				"✓ grep `TestLogin` 340ms\n" +
				"✗ bash `go test ./auth/...` 1.2s\n" +
				"⛔ bash `rm -rf /` — denied by policy\n" +
				"⏳ edit_file `auth/login_test.go`\n" +
				"tokens 12.3k in · 1.2k out · cache 94% · $0.0123 · 1m05s",
		},
		{
			name: "done with note",
			card: bots.Card{Task: "t", Phase: bots.PhaseDone, PromptTokens: 900, CompletionTokens: 80, Elapsed: 3 * time.Hour / 2, Note: "pushed reasonix/ab12"},
			want: "✅ **done** · t\ntokens 900 in · 80 out · cache 0% · 1h30m\npushed reasonix/ab12",
		},
		{
			name: "failed",
			card: bots.Card{Task: "t", Phase: bots.PhaseFailed, Error: "provider: 401 unauthorized"},
			want: "❌ **failed** · t\n**error:** provider: 401 unauthorized",
		},
		{
			name: "subject with backticks and newlines",
			card: bots.Card{Phase: bots.PhaseRunning, Steps: []bots.Step{{Tool: "bash", Subject: "echo `date`\n  && true", State: bots.StepOK, Duration: 2 * time.Minute}}},
			want: "🔄 **running**\n✓ bash `echo 'date' && true` 2m00s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.card.Render(4000)
			if got.Text != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got.Text, tt.want)
			}
			if len(got.Buttons) != 0 {
				t.Errorf("got %d buttons, want none", len(got.Buttons))
			}
		})
	}
}

func manySteps(n int) []bots.Step {
	steps := make([]bots.Step, n)
	for i := range steps {
		steps[i] = bots.Step{Tool: "read_file", Subject: "pkg/file" + strings.Repeat("x", i%5) + ".go", State: bots.StepOK, Duration: time.Second}
	}
	return steps
}

func TestCardRenderShowsNewestSteps(t *testing.T) {
	t.Parallel()
	steps := manySteps(12)
	steps[11].Subject = "last.go"
	text := bots.Card{Phase: bots.PhaseRunning, Steps: steps}.Render(4000).Text
	lines := strings.Split(text, "\n")
	if got, want := len(lines), 1+1+8; got != want {
		t.Fatalf("got %d lines, want %d:\n%s", got, want, text)
	}
	if got, want := lines[1], "… 4 earlier steps"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := lines[9], "✓ read_file `last.go` 1.0s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCardRenderClipsLongFields(t *testing.T) {
	t.Parallel()
	card := bots.Card{
		Task:  strings.Repeat("é", 150),
		Phase: bots.PhaseRunning,
		Steps: []bots.Step{{Tool: "bash", Subject: strings.Repeat("a", 200), State: bots.StepRunning}},
	}
	lines := strings.Split(card.Render(4000).Text, "\n")
	task := strings.TrimPrefix(lines[0], "🔄 **running** · ")
	if got, want := utf8.RuneCountInString(task), 100; got != want {
		t.Errorf("task: got %d runes, want %d", got, want)
	}
	if !strings.HasSuffix(task, "…") {
		t.Errorf("task: got %q, want an ellipsis at the end", task)
	}
	subject := strings.TrimSuffix(strings.TrimPrefix(lines[1], "⏳ bash `"), "`")
	if got, want := utf8.RuneCountInString(subject), 80; got != want {
		t.Errorf("subject: got %d runes, want %d", got, want)
	}
}

func TestCardRenderWithinLimit(t *testing.T) {
	t.Parallel()
	card := bots.Card{
		Task: "fix it", Repo: "api", Branch: "b", Phase: bots.PhaseRunning, Steps: manySteps(20),
		PromptTokens: 1000, CompletionTokens: 10, Elapsed: time.Second,
		Error: strings.Repeat("ошибка ", 40),
	}
	full := card.Render(0).Text
	for _, max := range []int{1, 2, 3, 10, 50, 300, 400, 500, len(full) - 1, len(full), len(full) + 10} {
		got := card.Render(max).Text
		if len(got) > max {
			t.Errorf("max %d: got %d bytes", max, len(got))
		}
		if !utf8.ValidString(got) {
			t.Errorf("max %d: got invalid UTF-8 %q", max, got)
		}
		if max >= len(full) && got != full {
			t.Errorf("max %d: got a cut card, want the full one", max)
		}
	}
	// Steps go before anything else is cut.
	footer := "tokens 1.0k in · 10 out · cache 0% · 1s"
	got := card.Render(len(full) - 1).Text
	if !strings.Contains(got, footer) || !strings.Contains(got, "… 13 earlier steps") {
		t.Errorf("got\n%s\nwant the footer kept and one more step hidden", got)
	}
}

func TestPhaseString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		phase bots.Phase
		want  string
	}{
		{bots.PhaseQueued, "queued"},
		{bots.PhasePreparing, "preparing"},
		{bots.PhaseRunning, "running"},
		{bots.PhaseWaitingApproval, "waiting for approval"},
		{bots.PhaseDone, "done"},
		{bots.PhaseFailed, "failed"},
		{bots.PhaseCanceled, "canceled"},
		{bots.PhaseInterrupted, "interrupted"},
		{bots.Phase(42), "Phase(42)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := tt.phase.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
