package controller

import (
	"sync"

	"github.com/reasonix/teams/engine/event"
)

// fanout delivers every published event to every subscription, in order.
// Each subscription has an unbounded queue drained by its own goroutine, so
// a slow frontend never blocks the run and never loses an event.
type fanout struct {
	mu     sync.Mutex // guards subs and closed
	subs   map[*Subscription]struct{}
	closed bool
}

// Subscription is one frontend's view of the event stream.
type Subscription struct {
	ch     chan event.Event
	mu     sync.Mutex // guards queue and ended
	queue  []event.Event
	ended  bool
	wake   chan struct{} // buffered(1)
	done   chan struct{} // closed by Close to stop the pump early
	once   sync.Once
	parent *fanout
}

// Subscribe starts receiving events published from now on. Call Close when
// done; the channel is closed after Close or after the controller closes.
func (c *Controller) Subscribe() *Subscription {
	return c.fanout.subscribe()
}

func (f *fanout) subscribe() *Subscription {
	s := &Subscription{ch: make(chan event.Event), wake: make(chan struct{}, 1), done: make(chan struct{}), parent: f}
	f.mu.Lock()
	if f.subs == nil {
		f.subs = map[*Subscription]struct{}{}
	}
	if f.closed {
		s.ended = true
	} else {
		f.subs[s] = struct{}{}
	}
	f.mu.Unlock()
	go s.pump()
	return s
}

// Events is the ordered event stream.
func (s *Subscription) Events() <-chan event.Event { return s.ch }

// Close stops delivery; pending events are dropped.
func (s *Subscription) Close() {
	s.parent.mu.Lock()
	delete(s.parent.subs, s)
	s.parent.mu.Unlock()
	s.once.Do(func() { close(s.done) })
}

func (f *fanout) publish(ev event.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs {
		s.push(ev)
	}
}

func (f *fanout) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for s := range f.subs {
		s.end()
		delete(f.subs, s)
	}
}

func (s *Subscription) push(ev event.Event) {
	s.mu.Lock()
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump owns s.ch: it forwards queued events and closes the channel at the end.
func (s *Subscription) pump() {
	defer close(s.ch)
	for {
		s.mu.Lock()
		batch, ended := s.queue, s.ended
		s.queue = nil
		s.mu.Unlock()
		for _, ev := range batch {
			select {
			case s.ch <- ev:
			case <-s.done:
				return
			}
		}
		if ended && len(batch) == 0 {
			return
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
	}
}
