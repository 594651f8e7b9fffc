package workspaces

import (
	"context"
	"sync"
)

// keyLock is a set of mutexes created on demand, one per key, so work on
// different keys runs in parallel while work on one key is serialized.
// Entries are dropped when nobody holds or waits for them.
type keyLock struct {
	mu    sync.Mutex          // guards slots
	slots map[string]*keySlot // by key
}

type keySlot struct {
	ch    chan struct{} // holds one token while the key is locked
	users int           // holders plus waiters; guarded by keyLock.mu
}

func newKeyLock() *keyLock { return &keyLock{slots: make(map[string]*keySlot)} }

func (l *keyLock) slot(key string) *keySlot {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.slots[key]
	if !ok {
		s = &keySlot{ch: make(chan struct{}, 1)}
		l.slots[key] = s
	}
	s.users++
	return s
}

func (l *keyLock) drop(key string, s *keySlot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s.users--
	if s.users == 0 {
		delete(l.slots, key)
	}
}

// lock waits for key until ctx ends and returns the function that unlocks it.
func (l *keyLock) lock(ctx context.Context, key string) (unlock func(), err error) {
	s := l.slot(key)
	select {
	case s.ch <- struct{}{}:
		return func() { <-s.ch; l.drop(key, s) }, nil
	case <-ctx.Done():
		l.drop(key, s)
		return nil, ctx.Err()
	}
}

// tryLock locks key only if it is free right now.
func (l *keyLock) tryLock(key string) (unlock func(), ok bool) {
	s := l.slot(key)
	select {
	case s.ch <- struct{}{}:
		return func() { <-s.ch; l.drop(key, s) }, true
	default:
		l.drop(key, s)
		return nil, false
	}
}
