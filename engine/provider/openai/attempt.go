package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

// errIdle is the cancel cause of an attempt whose stream went silent.
var errIdle = errors.New("stream idle")

// failure is why one attempt did not produce a response.
type failure struct {
	// fatal, when set, ends Stream with this error: no retry can help.
	fatal error
	// The rest describes a retryable failure.
	status        int   // HTTP status, 0 for connection and stream failures
	cause         error // what went wrong
	retryAfter    time.Duration
	hasRetryAfter bool
	streamed      bool // a 200 stream had begun, so deltas may have been emitted
}

// watchdog cancels an attempt when no bytes arrive for d.
type watchdog struct {
	d     time.Duration
	timer *time.Timer
}

func startWatchdog(d time.Duration, cancel context.CancelCauseFunc) *watchdog {
	return &watchdog{d: d, timer: time.AfterFunc(d, func() { cancel(errIdle) })}
}

func (w *watchdog) kick() { w.timer.Reset(w.d) }
func (w *watchdog) stop() { w.timer.Stop() }

// idleReader kicks the watchdog whenever bytes arrive.
type idleReader struct {
	r io.Reader
	w *watchdog
}

func (r idleReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.w.kick()
	}
	return n, err
}

// attempt sends the frozen body once and reads the answer.
func (c *Client) attempt(ctx context.Context, body []byte, onDelta func(provider.Delta)) (provider.Response, *failure) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	dog := startWatchdog(c.idleTimeout, cancel)
	defer dog.stop()

	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return provider.Response{}, &failure{fatal: fmt.Errorf("%s: build request: %w", c.name, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return provider.Response{}, c.brokenOrCanceled(ctx, actx, err, false)
	}
	defer resp.Body.Close()
	in := idleReader{r: resp.Body, w: dog}

	if resp.StatusCode != http.StatusOK {
		errBody, _ := io.ReadAll(io.LimitReader(in, maxErrorBody))
		if ctx.Err() != nil {
			return provider.Response{}, c.canceled(ctx)
		}
		return provider.Response{}, c.classifyStatus(resp.StatusCode, resp.Header, errBody, time.Now())
	}

	acc, err := readStream(in, onDelta)
	if err != nil {
		return provider.Response{}, c.brokenOrCanceled(ctx, actx, err, true)
	}
	if acc.done {
		// Let the connection be reused: drain what little may follow [DONE].
		_, _ = io.Copy(io.Discard, io.LimitReader(in, maxErrorBody))
	}
	return acc.response(), nil
}

// brokenOrCanceled tells a cancelled call from an idle or broken attempt.
func (c *Client) brokenOrCanceled(ctx, actx context.Context, err error, streamed bool) *failure {
	if ctx.Err() != nil {
		return c.canceled(ctx)
	}
	if errors.Is(context.Cause(actx), errIdle) {
		err = fmt.Errorf("%w: no data for %s", errIdle, c.idleTimeout)
	}
	return &failure{cause: err, streamed: streamed}
}

// canceled is the failure for a call whose context ended.
func (c *Client) canceled(ctx context.Context) *failure {
	return &failure{fatal: fmt.Errorf("%s: %w", c.name, ctx.Err())}
}
