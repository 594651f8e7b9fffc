package openai

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	backoffBase = 500 * time.Millisecond
	backoffCap  = 30 * time.Second
	// maxRetryAfter is the longest Retry-After the client waits out; a
	// server asking for more ends the retries at once, since a chat turn
	// should fail visibly rather than hang for minutes.
	maxRetryAfter = 2 * time.Minute
)

// backoff is the wait before retry number n (1 for the first retry):
// exponential from backoffBase, capped at backoffCap, with "equal jitter"
// (half fixed, half random) so concurrent sessions spread out. jitter
// returns a value in [0, max).
func backoff(n int, jitter func(max int64) int64) time.Duration {
	d := backoffCap
	if n < 16 {
		d = min(backoffBase<<(n-1), backoffCap)
	}
	half := d / 2
	return half + time.Duration(jitter(int64(half)+1))
}

// randomJitter is the production jitter source.
func randomJitter(max int64) int64 { return rand.Int64N(max) }

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date
// (relative to now). ok is false when the header is absent or unreadable.
func parseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		// Clamp so absurd values cannot overflow a Duration.
		return time.Duration(min(max(secs, 0), 1<<31)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// sleepContext waits d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
