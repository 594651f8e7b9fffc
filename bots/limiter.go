package bots

import (
	"context"
	"sync"
)

// limiter bounds turns running at once across threads. Waiters queue in
// arrival order and are told their position as it changes, so a thread
// can show "queued (n ahead)".
type limiter struct {
	mu      sync.Mutex // guards running and waiters
	max     int
	running int
	waiters []*waiter
}

type waiter struct {
	ready    chan struct{} // closed when the slot is granted
	position func(ahead int)
}

func newLimiter(max int) *limiter {
	if max < 1 {
		max = 1
	}
	return &limiter{max: max}
}

// acquire waits for a slot. position is called (outside the lock) with the
// number of waiters ahead whenever it changes, first right away when the
// caller must wait. The returned release must be called exactly once.
func (l *limiter) acquire(ctx context.Context, position func(ahead int)) (func(), error) {
	l.mu.Lock()
	if l.running < l.max && len(l.waiters) == 0 {
		l.running++
		l.mu.Unlock()
		return l.releaseOnce(), nil
	}
	w := &waiter{ready: make(chan struct{}), position: position}
	l.waiters = append(l.waiters, w)
	ahead := len(l.waiters) - 1
	l.mu.Unlock()
	if position != nil {
		position(ahead)
	}
	select {
	case <-w.ready:
		return l.releaseOnce(), nil
	case <-ctx.Done():
		l.mu.Lock()
		granted := true
		for i, other := range l.waiters {
			if other == w {
				l.waiters = append(l.waiters[:i], l.waiters[i+1:]...)
				granted = false
				break
			}
		}
		notify := l.snapshotLocked()
		l.mu.Unlock()
		if granted {
			// The slot arrived as we gave up: pass it on.
			l.release()
		} else {
			notify()
		}
		return nil, ctx.Err()
	}
}

func (l *limiter) releaseOnce() func() {
	var once sync.Once
	return func() { once.Do(l.release) }
}

func (l *limiter) release() {
	l.mu.Lock()
	if len(l.waiters) > 0 {
		w := l.waiters[0]
		l.waiters = l.waiters[1:]
		close(w.ready) // the slot passes to w; running stays the same
	} else {
		l.running--
	}
	notify := l.snapshotLocked()
	l.mu.Unlock()
	notify()
}

// snapshotLocked captures the waiters' new positions; the returned func
// reports them without the lock held.
func (l *limiter) snapshotLocked() func() {
	ws := append([]*waiter(nil), l.waiters...)
	return func() {
		for i, w := range ws {
			if w.position != nil {
				w.position(i)
			}
		}
	}
}

// queued is the number of waiters.
func (l *limiter) queued() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.waiters)
}
