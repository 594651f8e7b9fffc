package bots

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/controller"
	"github.com/reasonix/teams/workspaces"
)

// thread is the in-memory side of one chat thread: its binding, its open
// session, and a serial queue of work (turns and the thread commands that
// must not overlap with them).
type thread struct {
	g   *Gateway
	key string
	ref ThreadRef

	shuttingDown atomic.Bool

	mu      sync.Mutex // guards the fields below
	binding Binding
	rev     uint64 // store revision of binding; 0 when not stored yet or not read since a restart
	session *OpenedSession
	ctrl    *controller.Controller
	ws      *workspaces.Workspace
	jobs    []threadJob
	working bool // a goroutine is draining jobs
	waiting int  // turns enqueued but not yet submitted to the controller
	cancel  context.CancelFunc
	steers  []agent.Turn // steers for a turn that is queued but not started
	card    *liveCard    // the running turn's status card
}

// threadFor returns the thread for ref, creating it when create is set.
func (g *Gateway) threadFor(ref ThreadRef, create bool) *thread {
	g.mu.Lock()
	defer g.mu.Unlock()
	t, ok := g.threads[ref.Key()]
	if !ok && create {
		t = &thread{g: g, key: ref.Key(), ref: ref}
		g.threads[t.key] = t
	}
	return t
}

// threadJob is one item of a thread's serial queue.
type threadJob struct {
	run  func(context.Context)
	turn bool  // a turn (counted in waiting; dropped by stop)
	ev   Event // the message that queued a turn
}

// enqueueTurn queues a turn that markPending already counted as waiting.
func (t *thread) enqueueTurn(ctx context.Context, ev Event, run func(context.Context)) {
	t.enqueue(ctx, threadJob{run: run, turn: true, ev: ev})
}

// enqueue adds work to the thread's serial queue.
func (t *thread) enqueue(ctx context.Context, job threadJob) {
	t.mu.Lock()
	t.jobs = append(t.jobs, job)
	start := !t.working
	t.working = true
	t.mu.Unlock()
	if !start {
		return
	}
	t.g.wg.Add(1)
	go func() {
		defer t.g.wg.Done()
		for {
			t.mu.Lock()
			if len(t.jobs) == 0 {
				t.working = false
				t.mu.Unlock()
				return
			}
			job := t.jobs[0]
			t.jobs = t.jobs[1:]
			t.mu.Unlock()
			job.run(ctx)
		}
	}()
}

// markPending records in the store that a turn is about to be queued, so
// a crash before it finishes is noticed at the next start. A new thread's
// binding is created here with its requester.
//
// The turn counts as waiting from inside the same locked change, so no
// turn ending concurrently can store "not running" in between; the card id
// of the previous turn is cleared so a restart cannot mislabel it.
func (t *thread) markPending(ctx context.Context, ev Event) error {
	err := t.save(ctx, func(b *Binding) {
		t.waiting++
		if b.Key == "" {
			*b = Binding{Key: t.key, Ref: t.ref, Requester: ev.User, Created: ev.At}
		}
		b.Running, b.TriggerID, b.CardID, b.Updated = true, ev.MessageID, "", time.Now().UTC()
		b.Task = firstLine(ev.Text, 200)
	})
	if err != nil {
		t.mu.Lock()
		t.notWaitingLocked()
		t.mu.Unlock()
	}
	return err
}

// steer hands text to the running turn, or keeps it for a turn that is
// waiting to start. It reports false when neither exists (a turn that is
// only finishing up counts as neither): the message starts a new turn.
func (t *thread) steer(turn agent.Turn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctrl != nil && t.ctrl.Steer(turn) {
		return true
	}
	if t.waiting > 0 {
		t.steers = append(t.steers, turn)
		return true
	}
	return false
}

// notWaitingLocked marks one waiting turn as started (or abandoned); the
// last one takes the buffered steers with it, so they never leak into an
// unrelated later turn.
func (t *thread) notWaitingLocked() {
	t.waiting--
	if t.waiting == 0 {
		t.steers = nil
	}
}

// stop cancels the running turn and drops the queued ones. It reports
// whether anything was stopped and the messages whose turns were dropped.
func (t *thread) stop() (stopped bool, dropped []Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cancel != nil {
		t.cancel()
		stopped = true
	}
	if t.ctrl != nil && t.ctrl.Cancel() {
		stopped = true
	}
	kept := t.jobs[:0]
	for _, j := range t.jobs {
		if j.turn {
			dropped = append(dropped, j.ev)
			t.notWaitingLocked()
			continue
		}
		kept = append(kept, j)
	}
	t.jobs = kept
	return stopped || len(dropped) > 0, dropped
}

// ensureSession binds the thread to a repo and workspace (choosing the
// repo from the first message) and opens its engine session, resuming the
// stored one after a restart.
func (t *thread) ensureSession(ctx context.Context, ev Event, opts threadOptions) error {
	t.mu.Lock()
	if t.ctrl != nil {
		t.mu.Unlock()
		return nil
	}
	b := t.binding
	t.mu.Unlock()

	g := t.g
	if b.Repo == "" { // the thread's first turn: choose its repo
		repo, err := g.chooseRepo(t.ref, opts.repo)
		if err != nil {
			return err
		}
		base := opts.branch
		if base == "" {
			base = repo.DefaultBranch
		}
		b.Repo, b.Base = repo.Name, base
	}
	ws, err := g.opts.Workspaces.Prepare(ctx, b.Repo, workspaceThreadID(t.key, b.Generation), b.Base)
	if err != nil {
		return &workspaceError{err: err}
	}
	opened, err := g.opts.Sessions.OpenSession(ctx, ws.Path, b.SessionID)
	if err != nil && b.SessionID != "" {
		// The transcript is gone or unreadable: start fresh rather than
		// leaving the thread stuck, and say so.
		g.log.Warn("could not resume session; starting a new one", "thread", t.key, "session", b.SessionID, "err", err)
		opened, err = g.opts.Sessions.OpenSession(ctx, ws.Path, "")
	}
	if err != nil {
		return fmt.Errorf("could not open an agent session: %w", err)
	}
	ctrl := controller.New(opened.Session, controller.Options{Approvals: true, ApprovalTimeout: g.opts.ApprovalTimeout})

	t.mu.Lock()
	t.ws = ws
	t.session, t.ctrl = &opened, ctrl
	t.mu.Unlock()
	// Change the stored binding field by field: other messages may have
	// marked it (pending turns) since it was read above.
	return t.save(ctx, func(cur *Binding) {
		if cur.Key == "" {
			cur.Key, cur.Ref, cur.Created = t.key, t.ref, ev.At
		}
		if cur.Requester.ID == "" {
			cur.Requester = ev.User
		}
		cur.Repo, cur.Base, cur.Branch, cur.Workspace, cur.SessionID = b.Repo, b.Base, ws.Branch, ws.Path, opened.Session.ID()
		cur.Updated = time.Now().UTC()
	})
}

// workspace returns the thread's working copy, re-attaching it after a
// restart (Prepare returns the existing worktree); nil when the thread has
// never had one.
func (t *thread) workspace(ctx context.Context) (*workspaces.Workspace, error) {
	t.mu.Lock()
	ws, b := t.ws, t.binding
	t.mu.Unlock()
	if ws != nil || b.Workspace == "" {
		return ws, nil
	}
	ws, err := t.g.opts.Workspaces.Prepare(ctx, b.Repo, workspaceThreadID(t.key, b.Generation), b.Base)
	if err != nil {
		return nil, &workspaceError{err: err}
	}
	t.mu.Lock()
	if t.ws == nil {
		t.ws = ws
	}
	ws = t.ws
	t.mu.Unlock()
	return ws, nil
}

// save applies change to the binding and stores it with compare-and-swap,
// re-reading and retrying once on a conflict.
func (t *thread) save(ctx context.Context, change func(*Binding)) error {
	t.mu.Lock()
	change(&t.binding)
	t.mu.Unlock()
	// The in-memory binding is the truth for this thread; a conflict only
	// means the revision we hold is stale (for example after a restart),
	// so re-read it and write the current state again.
	for attempt := 0; ; attempt++ {
		t.mu.Lock()
		b, rev := t.binding, t.rev
		t.mu.Unlock()
		newRev, err := t.g.opts.Store.PutBinding(ctx, b, rev)
		if err == nil {
			t.mu.Lock()
			t.rev = newRev
			t.mu.Unlock()
			return nil
		}
		if !errors.Is(err, ErrConflict) || attempt > 0 {
			return fmt.Errorf("save thread state: %w", err)
		}
		_, stored, gerr := t.g.opts.Store.GetBinding(ctx, b.Key)
		if gerr != nil && !errors.Is(gerr, ErrNotFound) {
			return fmt.Errorf("save thread state: %w", gerr)
		}
		t.mu.Lock()
		t.rev = stored
		t.mu.Unlock()
	}
}

// closeSession releases the engine session (the workspace stays).
func (t *thread) closeSession() {
	t.mu.Lock()
	ctrl, s := t.ctrl, t.session
	t.ctrl, t.session = nil, nil
	t.mu.Unlock()
	if ctrl != nil {
		ctrl.Close()
	}
	if s != nil && s.Close != nil {
		s.Close()
	}
}

// workspaceThreadID names the thread's workspace; `new` bumps the
// binding's generation so the thread gets a fresh worktree and branch.
func workspaceThreadID(key string, gen int) string {
	if gen == 0 {
		return key
	}
	return fmt.Sprintf("%s#%d", key, gen)
}

// threadOptions are the inline options of a thread's first message.
type threadOptions struct {
	repo, branch string
}

// chooseRepo picks the repo: inline repo=NAME, the channel's default, or
// the only one configured.
func (g *Gateway) chooseRepo(ref ThreadRef, inline string) (RepoInfo, error) {
	find := func(name string) (RepoInfo, bool) {
		for _, r := range g.opts.Repos {
			if r.Name == name {
				return r, true
			}
		}
		return RepoInfo{}, false
	}
	switch {
	case inline != "":
		if r, ok := find(inline); ok {
			return r, nil
		}
		return RepoInfo{}, &repoChoiceError{reason: fmt.Sprintf("I don't know a repo named `%s`.", inline), repos: g.opts.Repos}
	case g.opts.ChannelRepos[ref.ChannelKey()] != "":
		name := g.opts.ChannelRepos[ref.ChannelKey()]
		if r, ok := find(name); ok {
			return r, nil
		}
		return RepoInfo{}, &repoChoiceError{reason: fmt.Sprintf("This channel's default repo `%s` is not configured (an operator should fix [[slack.channels]]); say `repo=NAME` meanwhile.", name), repos: g.opts.Repos}
	case len(g.opts.Repos) == 1:
		return g.opts.Repos[0], nil
	}
	if len(g.opts.Repos) == 0 {
		return RepoInfo{}, &repoChoiceError{reason: "No repository is configured; an operator must add a [[repos]] entry to reasonix.toml."}
	}
	return RepoInfo{}, &repoChoiceError{reason: "Which repository should I work on? Say `repo=NAME` in your message.", repos: g.opts.Repos}
}

// repoChoiceError asks the person to pick a repo.
type repoChoiceError struct {
	reason string
	repos  []RepoInfo
}

func (e *repoChoiceError) Error() string {
	msg := e.reason
	if len(e.repos) > 0 {
		msg += " Available:"
		for _, r := range e.repos {
			msg += " `" + r.Name + "`"
		}
	}
	return msg
}

// workspaceError wraps a failure to prepare the thread's working copy.
type workspaceError struct{ err error }

func (e *workspaceError) Error() string { return "could not prepare the workspace: " + e.err.Error() }
func (e *workspaceError) Unwrap() error { return e.err }
