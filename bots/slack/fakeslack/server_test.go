package fakeslack

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

func newClient(s *Server, token string) *slack.Client {
	return slack.New(token, slack.OptionAPIURL(s.APIURL()))
}

func TestWebAPI(t *testing.T) {
	t.Parallel()
	s := New(Options{})
	defer s.Close()
	ctx := context.Background()
	api := newClient(s, s.BotToken())

	if _, err := newClient(s, "xoxb-nope").AuthTestContext(ctx); err == nil || err.Error() != "invalid_auth" {
		t.Errorf("auth.test with a wrong token: got %v, want invalid_auth", err)
	}
	id, err := api.AuthTestContext(ctx)
	if err != nil || id.UserID != s.BotUserID() || id.TeamID != s.TeamID() {
		t.Fatalf("auth.test: got %+v, %v", id, err)
	}

	seen := map[string]bool{}
	for range 5 {
		_, ts, err := api.PostMessageContext(ctx, "C1", slack.MsgOptionText("hi", false))
		if err != nil {
			t.Fatal(err)
		}
		if seen[ts] {
			t.Fatalf("ts %s returned twice", ts)
		}
		seen[ts] = true
	}

	tests := []struct {
		name  string
		block slack.Block
		want  string
	}{
		{"section too long", slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, strings.Repeat("x", 3001), false, false), nil, nil), errInvalidBlocks},
		{"label too long", slack.NewActionBlock("", slack.NewButtonBlockElement("a", "v", slack.NewTextBlockObject(slack.PlainTextType, strings.Repeat("l", 76), false, false))), errInvalidBlocks},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := api.PostMessageContext(ctx, "C1", slack.MsgOptionBlocks(tt.block))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}

	s.RateLimit("chat.postMessage", 1, 7)
	_, _, err = api.PostMessageContext(ctx, "C1", slack.MsgOptionText("hi", false))
	var rl *slack.RateLimitedError
	if !errors.As(err, &rl) || rl.RetryAfter != 7*time.Second {
		t.Errorf("injected 429: got %v, want a RateLimitedError of 7s", err)
	}
}

func TestConversationReplies(t *testing.T) {
	t.Parallel()
	s := New(Options{})
	defer s.Close()
	api := newClient(s, s.BotToken())
	root, _ := s.Mention("C1", "U1", "go")
	_, _ = s.ThreadReply("C1", root, "U2", "and this")
	if _, _, err := api.PostMessageContext(context.Background(), "C1", slack.MsgOptionText("done", false), slack.MsgOptionTS(root)); err != nil {
		t.Fatal(err)
	}
	msgs, _, _, err := api.GetConversationRepliesContext(context.Background(), &slack.GetConversationRepliesParameters{ChannelID: "C1", Timestamp: root})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.Text)
	}
	if got, want := strings.Join(texts, "|"), "<@UBOT> go|and this|done"; got != want {
		t.Errorf("replies: got %q, want %q", got, want)
	}
}
