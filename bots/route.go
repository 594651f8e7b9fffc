package bots

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/teams/engine/agent"
)

// dispatch routes one recorded inbound event. It must return quickly: the
// work an event causes runs on the thread's queue or its own goroutine.
func (g *Gateway) dispatch(ctx context.Context, ev Event) error {
	if g.closing.Load() {
		return errClosing
	}
	switch ev.Kind {
	case KindPress:
		if notice := g.decidePress(ctx, ev); notice != "" {
			g.goTracked(ctx, func(ctx context.Context) { g.notifyUser(ctx, ev, notice) })
		}
	case KindCommand:
		g.goTracked(ctx, func(ctx context.Context) { g.handleSlashCommand(ctx, ev) })
	case KindMessage:
		return g.routeMessage(ctx, ev)
	default:
		g.log.Warn("unknown event kind dropped", "kind", ev.Kind, "id", ev.ID)
	}
	return nil
}

func (g *Gateway) goTracked(ctx context.Context, f func(context.Context)) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f(ctx)
	}()
}

// thread commands people can type in a bot thread.
const (
	cmdStop   = "stop"
	cmdStatus = "status"
	cmdDiff   = "diff"
	cmdPR     = "pr"
	cmdNew    = "new"
	cmdHelp   = "help"
)

// threadCommand recognises a message that is exactly a thread command.
func threadCommand(text string) string {
	switch w := strings.ToLower(strings.TrimSpace(text)); w {
	case cmdStop, cmdStatus, cmdDiff, cmdPR, cmdNew, cmdHelp:
		return w
	}
	return ""
}

// errClosing refuses an event during shutdown; it stays in the inbox and
// is processed after the next start.
var errClosing = errors.New("bots: shutting down")

// routeMessage starts, continues or steers a thread's session, or runs a
// thread command. An error leaves the event in the inbox for redelivery.
func (g *Gateway) routeMessage(ctx context.Context, ev Event) error {
	t := g.threadFor(ev.Ref, false)
	if t == nil && !ev.Mention {
		return nil // a thread the bot does not own, and nobody addressed it
	}
	if !g.opts.Access.MayUse(ev.Ref, ev.User) {
		g.goTracked(ctx, func(ctx context.Context) {
			g.notifyUser(ctx, ev, "Sorry, you are not on the list of people who can use Reasonix here. Ask an admin to add you to [access] users.")
		})
		return nil
	}
	text := strings.TrimSpace(ev.Text)
	if len(text) > maxMessageBytes {
		g.goTracked(ctx, func(ctx context.Context) {
			g.reply(ctx, ev.Ref, fmt.Sprintf("That message is %d KB; the limit is %d KB. Put long material in a file in the repo or a gist and point me at it.", len(text)>>10, maxMessageBytes>>10))
		})
		return nil
	}
	if t == nil {
		t = g.threadFor(ev.Ref, true)
	}
	switch threadCommand(text) {
	case cmdStop:
		g.goTracked(ctx, func(ctx context.Context) { g.commandStop(ctx, t, ev) })
		return nil
	case cmdStatus:
		g.goTracked(ctx, func(ctx context.Context) { g.commandStatus(ctx, t) })
		return nil
	case cmdHelp:
		g.goTracked(ctx, func(ctx context.Context) { g.reply(ctx, ev.Ref, helpText) })
		return nil
	case cmdDiff:
		t.enqueue(ctx, threadJob{run: func(ctx context.Context) { g.commandDiff(ctx, t) }})
		return nil
	case cmdPR:
		t.enqueue(ctx, threadJob{run: func(ctx context.Context) { g.commandPR(ctx, t, ev) }})
		return nil
	case cmdNew:
		t.enqueue(ctx, threadJob{run: func(ctx context.Context) { g.commandNew(ctx, t, ev) }})
		return nil
	}
	opts, text := parseThreadOptions(text)
	if text == "" {
		g.goTracked(ctx, func(ctx context.Context) {
			g.reply(ctx, ev.Ref, "What should I do? Mention me with a task, e.g. `@reasonix fix the flaky TestLogin`. Say `help` for more.")
		})
		return nil
	}
	turn := agent.Turn{Text: text, Speaker: speaker(ev)}
	if t.steer(turn) {
		g.goTracked(ctx, func(ctx context.Context) { g.react(ctx, ev.Ref, ev.MessageID, "eyes", true) })
		t.noteSteer(ev)
		return nil
	}
	// Mark the turn pending in the store before the event is acknowledged:
	// if the process dies before the turn runs, the restart tells the thread.
	if err := t.markPending(ctx, ev); err != nil {
		return err
	}
	// Acknowledge at once, even if the thread is still finishing a turn;
	// the turn waits for it before swapping 👀 for its outcome.
	acked := make(chan struct{})
	g.goTracked(ctx, func(ctx context.Context) {
		defer close(acked)
		g.react(ctx, ev.Ref, ev.MessageID, "eyes", true)
	})
	t.enqueueTurn(ctx, ev, func(ctx context.Context) { g.runTurn(ctx, t, ev, turn, opts, acked) })
	return nil
}

// parseThreadOptions takes inline repo=NAME and branch=BASE words out of
// the text.
func parseThreadOptions(text string) (threadOptions, string) {
	var opts threadOptions
	var kept []string
	for _, line := range strings.Split(text, "\n") {
		var words []string
		for _, w := range strings.Fields(line) {
			switch {
			case strings.HasPrefix(w, "repo=") && len(w) > len("repo="):
				opts.repo = strings.TrimPrefix(w, "repo=")
			case strings.HasPrefix(w, "branch=") && len(w) > len("branch="):
				opts.branch = strings.TrimPrefix(w, "branch=")
			default:
				words = append(words, w)
			}
		}
		if len(words) == 0 && strings.TrimSpace(line) != "" {
			continue
		}
		// Keep the line as written unless an option was removed from it.
		if len(words) == len(strings.Fields(line)) {
			kept = append(kept, line)
		} else {
			kept = append(kept, strings.Join(words, " "))
		}
	}
	return opts, strings.TrimSpace(strings.Join(kept, "\n"))
}

// speaker is how the agent sees who is talking.
func speaker(ev Event) string {
	return fmt.Sprintf("%s (%s:%s)", nonEmpty(ev.User.Name, ev.User.ID), ev.Ref.Platform, ev.User.ID)
}

// reply posts a plain message in a thread, logging a failure.
func (g *Gateway) reply(ctx context.Context, ref ThreadRef, text string) string {
	a, ok := g.adapter(ref.Platform)
	if !ok {
		return ""
	}
	var first string
	for _, part := range Split(text, a.Limits().MaxText) {
		id, err := postWithRetry(ctx, a, ref, Message{Text: part})
		if err != nil {
			g.log.Warn("post failed", "thread", ref.Key(), "err", err)
			return first
		}
		if first == "" {
			first = id
		}
	}
	return first
}

// notifyUser tells one person something only they see, falling back to a
// thread reply on platforms without ephemeral messages.
func (g *Gateway) notifyUser(ctx context.Context, ev Event, text string) {
	a, ok := g.adapter(ev.Ref.Platform)
	if !ok {
		return
	}
	if ev.Kind == KindCommand {
		if r, ok := a.(CommandReplier); ok {
			if err := r.ReplyCommand(ctx, ev, Message{Text: text}); err == nil {
				return
			}
		}
	}
	if e, ok := a.(EphemeralPoster); ok {
		if err := e.PostEphemeral(ctx, ev.Ref, ev.User.ID, Message{Text: text}); err == nil {
			return
		}
	}
	g.reply(ctx, ev.Ref, text)
}

// react adds or removes a reaction where the platform supports them.
func (g *Gateway) react(ctx context.Context, ref ThreadRef, messageID, emoji string, add bool) {
	if messageID == "" {
		return
	}
	a, ok := g.adapter(ref.Platform)
	if !ok {
		return
	}
	if r, ok := a.(Reactor); ok {
		if err := r.React(ctx, ref, messageID, emoji, add); err != nil {
			g.log.Debug("reaction failed", "emoji", emoji, "err", err)
		}
	}
}
