package jetstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reasonix/teams/bots"
)

// DefaultDedupeWindow is how long an inbound event id is remembered when
// Options.DedupeWindow is zero. Slack and Discord stop redelivering well
// within a day.
const DefaultDedupeWindow = 24 * time.Hour

// closeTimeout bounds how long Close waits for the connection to drain.
const closeTimeout = 10 * time.Second

// Options configures Open.
type Options struct {
	// Dir is where the embedded server keeps its files. Required unless
	// URL is set; two processes must not share one Dir.
	Dir string
	// URL is an external NATS server (nats://host:port, comma-separated
	// for a cluster). Empty runs the embedded server.
	URL string
	// CredsFile is a NATS credentials file for URL; empty connects without.
	CredsFile string
	// DedupeWindow is how long an event id is remembered by Inbox.Add;
	// zero means DefaultDedupeWindow.
	DedupeWindow time.Duration
	// Logger receives the store's and the embedded server's diagnostics;
	// nil discards them.
	Logger *slog.Logger
}

// Store is the JetStream-backed bots.Store. It is safe for concurrent use,
// except that only one Consume may run at a time.
type Store struct {
	log    *slog.Logger
	srv    *server.Server // nil when connected to an external URL
	nc     *nats.Conn
	closed chan struct{} // closed by the connection's ClosedHandler

	inbox     jetstream.Consumer
	js        jetstream.JetStream
	seen      jetstream.KeyValue
	bindings  jetstream.KeyValue
	approvals jetstream.KeyValue

	closeOnce sync.Once
	closeErr  error
}

var _ bots.Store = (*Store)(nil)

// Open starts the embedded server (or connects to opts.URL), creates or
// updates the stream, consumer and buckets the store needs, and returns the
// ready store. The caller must Close it.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if opts.DedupeWindow <= 0 {
		opts.DedupeWindow = DefaultDedupeWindow
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{log: log, closed: make(chan struct{})}

	connOpts := []nats.Option{
		nats.Name("reasonix"),
		nats.ClosedHandler(func(*nats.Conn) { close(s.closed) }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("jetstream: disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info("jetstream: reconnected", "url", nc.ConnectedUrlRedacted())
		}),
	}
	url := opts.URL
	if url == "" {
		if opts.Dir == "" {
			return nil, errors.New("jetstream: open: Options.Dir is required for the embedded server (or set Options.URL)")
		}
		srv, err := startEmbedded(opts.Dir, log)
		if err != nil {
			return nil, err
		}
		s.srv = srv
		url = srv.ClientURL()
		connOpts = append(connOpts, nats.InProcessServer(srv))
	} else {
		// Keep trying for ever once connected: a gateway outlives a
		// NATS restart or a cluster leader change.
		connOpts = append(connOpts, nats.MaxReconnects(-1), nats.ReconnectWait(time.Second))
		if opts.CredsFile != "" {
			connOpts = append(connOpts, nats.UserCredentials(opts.CredsFile))
		}
	}

	nc, err := nats.Connect(url, connOpts...)
	if err != nil {
		s.shutdownServer()
		return nil, fmt.Errorf("jetstream: connect to %s: %w", redactURL(opts.URL), err)
	}
	s.nc = nc
	if err := s.provision(ctx, opts.DedupeWindow); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// provision creates or updates everything the store uses, so that Open on
// a fresh directory and Open on an old one behave the same.
func (s *Store) provision(ctx context.Context, dedupe time.Duration) error {
	js, err := jetstream.New(s.nc)
	if err != nil {
		return fmt.Errorf("jetstream: open: %w", err)
	}
	s.js = js
	if s.inbox, err = createInbox(ctx, js, dedupe); err != nil {
		return err
	}
	buckets := []struct {
		kv  *jetstream.KeyValue
		cfg jetstream.KeyValueConfig
	}{
		{&s.seen, seenBucketConfig(dedupe)},
		{&s.bindings, bindingsBucketConfig()},
		{&s.approvals, approvalsBucketConfig()},
	}
	for _, b := range buckets {
		kv, err := js.CreateOrUpdateKeyValue(ctx, b.cfg)
		if err != nil {
			return fmt.Errorf("jetstream: open bucket %s: %w", b.cfg.Bucket, err)
		}
		*b.kv = kv
	}
	return nil
}

// Close drains the connection (in-flight acks and publishes complete) and
// shuts the embedded server down, which flushes JetStream's files. Cancel
// Consume before calling Close. Close is idempotent.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if s.nc != nil {
			if err := s.nc.Drain(); err != nil {
				s.nc.Close()
			}
			select {
			case <-s.closed:
			case <-time.After(closeTimeout):
				s.nc.Close()
				s.closeErr = errors.New("jetstream: close: connection did not drain in time")
			}
		}
		s.shutdownServer()
	})
	return s.closeErr
}

func (s *Store) shutdownServer() {
	if s.srv == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}
