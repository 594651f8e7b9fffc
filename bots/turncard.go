package bots

import (
	"context"
	"sync"
	"time"
)

// liveCard is a turn's status card: the state, guarded by its own lock
// because queue-position updates arrive from other turns' goroutines, and
// the throttled message that shows it.
type liveCard struct {
	id   string
	max  int
	live *LiveMessage

	mu   sync.Mutex // guards card
	card Card
}

func newLiveCard(ctx context.Context, g *Gateway, a Adapter, ev Event, task string) *liveCard {
	lc := &liveCard{max: a.Limits().MaxText}
	lc.card = Card{Task: task, Speaker: nonEmpty(ev.User.Name, ev.User.ID), Phase: PhasePreparing, Started: time.Now()}
	id, err := postWithRetry(ctx, a, ev.Ref, lc.card.Render(lc.max))
	if err != nil {
		g.log.Error("could not post the status card", "thread", ev.Ref.Key(), "err", err)
		return lc
	}
	lc.id = id
	lc.live = NewLiveMessage(a, ev.Ref, id, g.opts.EditInterval)
	return lc
}

// update changes the card and schedules an edit.
func (lc *liveCard) update(change func(*Card)) {
	lc.mu.Lock()
	change(&lc.card)
	lc.card.Elapsed = time.Since(lc.card.Started).Round(time.Second)
	m := lc.card.Render(lc.max)
	lc.mu.Unlock()
	if lc.live != nil {
		lc.live.Set(m)
	}
}

// close writes the final state.
func (lc *liveCard) close(ctx context.Context) {
	if lc.live != nil {
		_ = lc.live.Close(ctx)
	}
}
