package bots

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// LiveMessage is a posted message kept up to date by editing it in place,
// at most once per interval. Set records the state the message should show
// and returns at once; a goroutine owned by the LiveMessage writes the
// newest state when the interval allows, so a burst of Sets costs one edit.
// Close writes the final state and stops the goroutine: every LiveMessage
// must be closed.
type LiveMessage struct {
	adapter  Adapter
	ref      ThreadRef
	id       string
	interval time.Duration

	kick   chan struct{} // holds a token when Set has news for the writer
	stop   chan struct{} // closed by Close: the writer returns
	done   chan struct{} // closed when the writer has returned
	cancel context.CancelFunc
	ctx    context.Context // for edits; canceled when Close gives up

	stopOnce sync.Once

	mu     sync.Mutex // guards want, wanted, closed
	want   Message    // the newest state asked for
	wanted bool       // want holds something
	closed bool       // Close has begun; Set is a no-op

	// The writer's state, owned by the writer goroutine until done is
	// closed and by Close (holding closeMu) after that.
	closeMu   sync.Mutex
	written   Message   // what the message shows, as far as we know
	known     bool      // written is known (a write succeeded)
	notBefore time.Time // the next edit may not start before this
}

// NewLiveMessage starts keeping the message messageID in ref up to date.
// The caller has just posted it, so the first edit comes an interval from
// now at the earliest. The interval is raised to the adapter's
// MinEditInterval when that is longer.
func NewLiveMessage(a Adapter, ref ThreadRef, messageID string, interval time.Duration) *LiveMessage {
	ctx, cancel := context.WithCancel(context.Background())
	interval = max(interval, a.Limits().MinEditInterval, 0)
	l := &LiveMessage{
		adapter:   a,
		ref:       ref,
		id:        messageID,
		interval:  interval,
		kick:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
		ctx:       ctx,
		cancel:    cancel,
		notBefore: time.Now().Add(interval),
	}
	go l.writer()
	return l
}

// ID is the id of the message being edited.
func (l *LiveMessage) ID() string { return l.id }

// Set makes m the state the message should show. It does not wait for the
// edit; after Close it does nothing.
func (l *LiveMessage) Set(m Message) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.want = cloneMessage(m)
	l.wanted = true
	l.mu.Unlock()
	select {
	case l.kick <- struct{}{}:
	default: // the writer already has news pending
	}
}

// Close writes the newest state if the message does not show it yet,
// waiting for the interval and any rate-limit pause as long as ctx allows,
// and stops the writer. Set does nothing afterwards. The error is the
// final edit's, or ctx's when it ended first.
func (l *LiveMessage) Close(ctx context.Context) error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.stopOnce.Do(func() { close(l.stop) })
	defer l.cancel()

	select {
	case <-l.done:
	case <-ctx.Done():
		l.cancel() // abandon an edit in flight
		<-l.done
		return ctx.Err()
	}

	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	for {
		m, ok := l.pending()
		if !ok {
			return nil
		}
		if err := sleepUntil(ctx, l.notBefore, nil); err != nil {
			return err
		}
		err := l.write(ctx, m)
		var rl *RateLimitError
		if !errors.As(err, &rl) {
			return err
		}
	}
}

// writer is the goroutine that edits the message while it is open.
func (l *LiveMessage) writer() {
	defer close(l.done)
	for {
		select {
		case <-l.kick:
		case <-l.stop:
			return
		}
		if sleepUntil(l.ctx, l.notBefore, l.stop) != nil {
			return
		}
		m, ok := l.pending()
		if !ok {
			continue
		}
		err := l.write(l.ctx, m)
		var rl *RateLimitError
		switch {
		case err == nil:
		case errors.As(err, &rl):
			// Try again once the pause is over, with whatever is newest.
			select {
			case l.kick <- struct{}{}:
			default:
			}
		case l.ctx.Err() != nil:
			return
		default:
			// Not retried until the next Set or Close, so a broken
			// message cannot make the writer spin.
			slog.Default().Warn("bots: status message edit failed",
				"platform", l.adapter.Platform(), "thread", l.ref.Key(), "message", l.id, "err", err)
		}
	}
}

// pending returns the newest state if the message does not show it yet.
func (l *LiveMessage) pending() (Message, bool) {
	l.mu.Lock()
	m, wanted := l.want, l.wanted
	l.mu.Unlock()
	if !wanted || (l.known && equalMessage(m, l.written)) {
		return Message{}, false
	}
	return m, true
}

// write edits the message and sets when the next edit may start: an
// interval after this one ended, or after the platform's pause if it is
// longer.
func (l *LiveMessage) write(ctx context.Context, m Message) error {
	err := l.adapter.Update(ctx, l.ref, l.id, m)
	wait := l.interval
	var rl *RateLimitError
	if errors.As(err, &rl) {
		wait = max(wait, rl.RetryAfter)
	}
	l.notBefore = time.Now().Add(wait)
	if err == nil {
		l.written, l.known = m, true
	}
	return err
}

// sleepUntil waits until t, returning early with an error when ctx ends or
// stop (which may be nil) is closed.
func sleepUntil(ctx context.Context, t time.Time, stop <-chan struct{}) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return errLiveStopped
	}
}

// errLiveStopped ends the writer's wait when Close takes over.
var errLiveStopped = errors.New("bots: live message closed")

func equalMessage(a, b Message) bool {
	return a.Text == b.Text && slices.Equal(a.Buttons, b.Buttons)
}

func cloneMessage(m Message) Message {
	m.Buttons = slices.Clone(m.Buttons)
	return m
}
