package slack

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

// Rate-limit retries: a 429 on a post or an edit is waited out this many
// times, and only when Slack asks for a short wait; otherwise the gateway
// gets a *bots.RateLimitError and decides.
const (
	maxRateRetries = 2
	maxRetryWait   = 30 * time.Second
)

// ErrEmptyFile is returned by Upload for a file with no content, which
// Slack's upload flow refuses.
var ErrEmptyFile = errors.New("slack: cannot upload an empty file")

// Post sends m into the thread (a new top-level message when ref.Thread is
// empty) and returns its ts.
func (a *Adapter) Post(ctx context.Context, ref bots.ThreadRef, m bots.Message) (string, error) {
	opts := messageOptions(m)
	if ref.Thread != "" {
		opts = append(opts, slack.MsgOptionTS(ref.Thread))
	}
	var ts string
	err := a.withRetry(ctx, "chat.postMessage", func() error {
		var err error
		_, ts, err = a.api.PostMessageContext(ctx, ref.Channel, opts...)
		return err
	})
	return ts, err
}

// Update replaces the message's text and buttons; a message without
// buttons loses the ones it had.
func (a *Adapter) Update(ctx context.Context, ref bots.ThreadRef, messageID string, m bots.Message) error {
	opts := messageOptions(m)
	return a.withRetry(ctx, "chat.update", func() error {
		_, _, _, err := a.api.UpdateMessageContext(ctx, ref.Channel, messageID, opts...)
		return err
	})
}

// PostEphemeral shows m to one user in the thread.
func (a *Adapter) PostEphemeral(ctx context.Context, ref bots.ThreadRef, userID string, m bots.Message) error {
	opts := messageOptions(m)
	if ref.Thread != "" {
		opts = append(opts, slack.MsgOptionTS(ref.Thread))
	}
	_, err := a.api.PostEphemeralContext(ctx, ref.Channel, userID, opts...)
	return wrapErr("chat.postEphemeral", err)
}

// ReplyCommand answers a slash command privately: through its response_url
// when it has one, else as an ephemeral message in its channel.
func (a *Adapter) ReplyCommand(ctx context.Context, ev bots.Event, m bots.Message) error {
	if ev.ReplyToken == "" {
		return a.PostEphemeral(ctx, ev.Ref, ev.User.ID, m)
	}
	r := render(m)
	msg := &slack.WebhookMessage{
		Text:         r.fallback,
		Blocks:       &slack.Blocks{BlockSet: r.blocks},
		ResponseType: slack.ResponseTypeEphemeral,
	}
	return wrapErr("response_url", slack.PostWebhookCustomHTTPContext(ctx, ev.ReplyToken, a.opts.HTTPClient, msg))
}

// React adds or removes an emoji on a message. Adding one that is there
// already, or removing one that is not, is no error.
func (a *Adapter) React(ctx context.Context, ref bots.ThreadRef, messageID, emoji string, add bool) error {
	item := slack.NewRefToMessage(ref.Channel, messageID)
	name := slackEmoji(emoji)
	if add {
		err := a.api.AddReactionContext(ctx, name, item)
		if slackCode(err) == "already_reacted" {
			return nil
		}
		return wrapErr("reactions.add", err)
	}
	err := a.api.RemoveReactionContext(ctx, name, item)
	if slackCode(err) == "no_reaction" {
		return nil
	}
	return wrapErr("reactions.remove", err)
}

// emojiNames maps the gateway's emoji names to Slack's. They happen to be
// the same today; this is where a difference would go. Unknown names pass
// through unchanged.
var emojiNames = map[string]string{"eyes": "eyes", "white_check_mark": "white_check_mark", "x": "x"}

func slackEmoji(name string) string {
	if s, ok := emojiNames[name]; ok {
		return s
	}
	return name
}

// Upload attaches a file to the thread with Slack's upload flow
// (files.getUploadURLExternal, the upload, files.completeUploadExternal).
func (a *Adapter) Upload(ctx context.Context, ref bots.ThreadRef, filename string, content []byte, comment string) error {
	if len(content) == 0 {
		return ErrEmptyFile
	}
	params := slack.UploadFileParameters{
		Reader:          bytes.NewReader(content),
		FileSize:        len(content),
		Filename:        filename,
		Title:           filename,
		Channel:         ref.Channel,
		ThreadTimestamp: ref.Thread,
	}
	if comment != "" {
		params.InitialComment = ToMrkdwn(comment)
	}
	_, err := a.api.UploadFileContext(ctx, params)
	return wrapErr("files.upload", err)
}

// messageOptions renders m for chat.postMessage, chat.update and
// chat.postEphemeral: blocks, a fallback text, no link or media unfurls.
func messageOptions(m bots.Message) []slack.MsgOption {
	r := render(m)
	return []slack.MsgOption{
		slack.MsgOptionText(r.fallback, false),
		slack.MsgOptionBlocks(r.blocks...),
		slack.MsgOptionDisableLinkUnfurl(),
		slack.MsgOptionDisableMediaUnfurl(),
	}
}

// withRetry runs call, waiting out short 429s up to maxRateRetries times.
func (a *Adapter) withRetry(ctx context.Context, method string, call func() error) error {
	for attempt := 0; ; attempt++ {
		err := call()
		var rl *slack.RateLimitedError
		if !errors.As(err, &rl) || attempt >= maxRateRetries || rl.RetryAfter > maxRetryWait {
			return wrapErr(method, err)
		}
		a.log.Debug("slack: rate limited; waiting", "method", method, "retry_after", rl.RetryAfter)
		t := time.NewTimer(rl.RetryAfter)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// wrapErr names the method in an error and turns Slack's 429 into the
// gateway's *bots.RateLimitError.
func wrapErr(method string, err error) error {
	if err == nil {
		return nil
	}
	var rl *slack.RateLimitedError
	if errors.As(err, &rl) {
		return &bots.RateLimitError{Op: "slack " + method, RetryAfter: rl.RetryAfter}
	}
	return &APIError{Method: method, Err: err}
}

// slackCode is Slack's error code in err, or "".
func slackCode(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return ""
}
