package bots

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/workspaces"
)

// Workspaces is what the gateway needs of the workspaces manager.
type Workspaces interface {
	Prepare(ctx context.Context, repo, threadID, base string) (*workspaces.Workspace, error)
	Commit(ctx context.Context, ws *workspaces.Workspace, message string, author workspaces.Author) (workspaces.CommitResult, error)
	Push(ctx context.Context, ws *workspaces.Workspace) error
	OpenPR(ctx context.Context, ws *workspaces.Workspace, title, body string) (string, error)
	Diff(ctx context.Context, ws *workspaces.Workspace) (string, error)
}

// OpenedSession is an engine session and what must be released with it.
type OpenedSession struct {
	Session *agent.Session
	Close   func()
}

// Sessions opens engine sessions rooted in a thread's workspace. cmd/
// implements it with the engine wiring (provider, tools, policy, sandbox,
// transcript).
type Sessions interface {
	// OpenSession starts a new session in root, or reopens resumeID from
	// its transcript when resumeID is not empty.
	OpenSession(ctx context.Context, root, resumeID string) (OpenedSession, error)
}

// RepoInfo is what the gateway knows of a configured repository.
type RepoInfo struct {
	Name          string
	DefaultBranch string
	// CanPush is set when the repo has push credentials (or a local URL).
	CanPush bool
	// AutoPR opens or updates the pull request after every changing turn.
	AutoPR bool
}

// Options configure a Gateway. Store, Workspaces and Sessions are required.
type Options struct {
	Store      Store
	Workspaces Workspaces
	Sessions   Sessions
	Repos      []RepoInfo
	// ChannelRepos maps "platform:channel" to the channel's default repo.
	ChannelRepos       map[string]string
	Access             Access
	MaxConcurrentTurns int
	EditInterval       time.Duration
	ApprovalTimeout    time.Duration
	ShutdownGrace      time.Duration
	Logger             *slog.Logger
}

// maxMessageBytes bounds a message that becomes a turn; longer ones are
// refused with a notice rather than sent to the model.
const maxMessageBytes = 40 << 10

// Gateway turns chat threads into agent sessions. It implements Handler
// for its adapters.
type Gateway struct {
	opts     Options
	log      *slog.Logger
	adapters map[string]Adapter
	limiter  *limiter

	mu      sync.Mutex // guards threads
	threads map[string]*thread

	approvals approvalIndex
	closing   atomic.Bool // set when Run stops taking work

	wg sync.WaitGroup // thread work goroutines
}

// New builds a gateway for the given adapters.
func New(opts Options, adapters ...Adapter) (*Gateway, error) {
	if opts.Store == nil || opts.Workspaces == nil || opts.Sessions == nil {
		return nil, errors.New("bots: Store, Workspaces and Sessions are required")
	}
	if len(adapters) == 0 {
		return nil, errors.New("bots: no chat adapter is enabled; enable [slack] (or another platform) in reasonix.toml")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.EditInterval <= 0 {
		opts.EditInterval = time.Second
	}
	if opts.ApprovalTimeout <= 0 {
		opts.ApprovalTimeout = 30 * time.Minute
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = 20 * time.Second
	}
	g := &Gateway{
		opts:     opts,
		log:      opts.Logger,
		adapters: map[string]Adapter{},
		limiter:  newLimiter(opts.MaxConcurrentTurns),
		threads:  map[string]*thread{},
	}
	for _, a := range adapters {
		if _, dup := g.adapters[a.Platform()]; dup {
			return nil, fmt.Errorf("bots: two adapters for platform %q", a.Platform())
		}
		g.adapters[a.Platform()] = a
	}
	return g, nil
}

// Handle records an inbound event before the platform is acknowledged.
// Events from bots (including this one) are dropped unrecorded.
func (g *Gateway) Handle(ctx context.Context, ev Event) error {
	if ev.User.Bot {
		return nil
	}
	if ev.ID == "" {
		return errors.New("bots: inbound event without an id")
	}
	if ev.At.IsZero() {
		ev.At = time.Now().UTC()
	}
	dup, err := g.opts.Store.Add(ctx, ev)
	if err != nil {
		return fmt.Errorf("bots: record event: %w", err)
	}
	if dup {
		g.log.Debug("duplicate event dropped", "id", ev.ID, "platform", ev.Ref.Platform)
	}
	return nil
}

// Run recovers state from the store, starts every adapter, and processes
// inbound events until ctx ends; then it stops taking work, gives running
// turns ShutdownGrace to finish, and tells the threads it cut.
func (g *Gateway) Run(ctx context.Context) error {
	if err := g.recover(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	// Turns outlive ctx by up to ShutdownGrace; intake (adapters and the
	// inbox consumer) stops with ctx or the first failure.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	intake, stopIntake := context.WithCancel(ctx)
	defer stopIntake()
	errs := make(chan error, len(g.adapters)+1)
	var intakeWG sync.WaitGroup
	for _, a := range g.adapters {
		intakeWG.Add(1)
		go func() {
			defer intakeWG.Done()
			if err := a.Run(intake, g); err != nil && intake.Err() == nil {
				errs <- fmt.Errorf("%s adapter: %w", a.Platform(), err)
			}
		}()
	}
	intakeWG.Add(1)
	go func() {
		defer intakeWG.Done()
		err := g.opts.Store.Consume(intake, func(_ context.Context, ev Event) error {
			return g.dispatch(work, ev)
		})
		if err != nil && intake.Err() == nil {
			errs <- fmt.Errorf("inbox: %w", err)
		}
	}()
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errs:
	}
	// Stop taking work before waiting for it, so no event starts a turn
	// while running turns are being drained; an event refused now stays in
	// the inbox for the next start.
	g.closing.Store(true)
	stopIntake()
	intakeWG.Wait()
	g.shutdown(stopWork)
	return runErr
}

// shutdown waits up to ShutdownGrace for running turns, then cancels them.
func (g *Gateway) shutdown(cancelWork context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		g.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(g.opts.ShutdownGrace):
		g.log.Warn("shutdown grace over; stopping running turns")
		g.mu.Lock()
		for _, t := range g.threads {
			t.shuttingDown.Store(true)
		}
		g.mu.Unlock()
		cancelWork()
		<-done
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, t := range g.threads {
		t.closeSession()
	}
}

func (g *Gateway) adapter(platform string) (Adapter, bool) {
	a, ok := g.adapters[platform]
	return a, ok
}
