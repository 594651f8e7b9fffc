package slack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/reasonix/teams/bots"
)

// Run learns the bot's identity with auth.test, then receives events over
// Socket Mode or serves the Events API on Options.Listen until ctx ends,
// when it returns nil. Socket Mode reconnects by itself; Run returns an
// error only when Slack refuses the tokens or the listener fails.
func (a *Adapter) Run(ctx context.Context, h bots.Handler) error {
	if _, err := a.Identify(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	if a.opts.Mode == ModeHTTP {
		return a.runHTTP(ctx, h)
	}
	return a.runSocket(ctx, h)
}

// runSocket drives slack-go's Socket Mode client. Envelopes are handled
// one at a time, in arrival order, so a thread's messages reach the
// gateway in the order people wrote them.
func (a *Adapter) runSocket(ctx context.Context, h bots.Handler) error {
	client := socketmode.New(a.api, socketmode.OptionLog(slogOutput{a.log}))
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- client.RunContext(runCtx) }()
	for {
		select {
		case <-ctx.Done():
			cancel()
			<-done
			return nil
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("slack socket mode: %w", err)
		case evt := <-client.Events:
			a.handleSocketEvent(ctx, client, h, evt)
		}
	}
}

// handleSocketEvent converts one envelope, hands it to the gateway and
// acknowledges it only once the gateway has recorded it.
func (a *Adapter) handleSocketEvent(ctx context.Context, client *socketmode.Client, h bots.Handler, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeConnected:
		a.log.Info("slack: socket mode connected")
		return
	case socketmode.EventTypeConnectionError, socketmode.EventTypeIncomingError:
		a.log.Warn("slack: socket mode connection trouble", "event", string(evt.Type), "detail", fmt.Sprint(evt.Data))
		return
	}
	if evt.Request == nil || evt.Request.EnvelopeID == "" {
		return // lifecycle events carry no envelope to acknowledge
	}
	var (
		ev  bots.Event
		ok  bool
		err error
	)
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		ev, ok, err = a.fromCallback(ctx, evt.Request.Payload)
	case socketmode.EventTypeInteractive:
		if cb, is := evt.Data.(slack.InteractionCallback); is {
			ev, ok = a.fromInteraction(ctx, cb)
		}
	case socketmode.EventTypeSlashCommand:
		if cmd, is := evt.Data.(slack.SlashCommand); is {
			ev, ok = a.fromCommand(ctx, cmd), true
		}
	}
	if err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			// The payload is fine but Slack could not be asked who we are:
			// leave it unacknowledged so that Slack redelivers it.
			a.log.Warn("slack: event left for redelivery", "envelope", evt.Request.EnvelopeID, "err", err)
			return
		}
		a.log.Warn("slack: dropping unreadable envelope", "envelope", evt.Request.EnvelopeID, "err", err)
	}
	if ok {
		if err := h.Handle(ctx, ev); err != nil {
			a.log.Warn("slack: gateway did not record the event; Slack will redeliver it", "event", ev.ID, "err", err)
			return
		}
	}
	if err := client.AckCtx(ctx, evt.Request.EnvelopeID, nil); err != nil {
		a.log.Warn("slack: ack failed", "envelope", evt.Request.EnvelopeID, "err", err)
	}
}

// runHTTP serves HTTPHandler on Options.Listen until ctx ends.
func (a *Adapter) runHTTP(ctx context.Context, h bots.Handler) error {
	ln, err := net.Listen("tcp", a.opts.Listen)
	if err != nil {
		return fmt.Errorf("slack http mode: listening on %q: %w", a.opts.Listen, err)
	}
	srv := &http.Server{Handler: a.HTTPHandler(h), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	a.log.Info("slack: events API listening", "addr", ln.Addr().String())
	select {
	case err := <-served:
		return fmt.Errorf("slack http mode: %w", err)
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
		<-served
		return nil
	}
}
