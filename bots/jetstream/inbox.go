package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reasonix/teams/bots"
)

// The inbox's names on the server. Changing them orphans existing data.
const (
	inboxStream   = "REASONIX_INBOX"
	inboxSubject  = "reasonix.inbox.events"
	inboxConsumer = "gateway"
	seenBucket    = "reasonix_inbox_seen"
)

const (
	// inboxAckWait is how long a delivered event may stay unacknowledged
	// before the server hands it out again, e.g. after a crash.
	inboxAckWait = 2 * time.Minute
	// retryDelay is how long an event whose handler failed waits before
	// it is delivered again.
	retryDelay = time.Second
	// releaseDelay is the redelivery delay for events fetched but never
	// handed to fn because Consume is stopping. It must be positive: only
	// a delayed NAK is written to the consumer's state, so only it
	// survives a restart of the embedded server (a plain NAK would wait
	// out inboxAckWait).
	releaseDelay = time.Millisecond
	// prefetch is how many events Consume buffers ahead of fn.
	prefetch = 32
	// ackTimeout bounds acknowledging one event, even after Consume's
	// context has ended: the event was handled, so the ack should land.
	ackTimeout = 10 * time.Second
)

func createInbox(ctx context.Context, js jetstream.JetStream, dedupe time.Duration) (jetstream.Consumer, error) {
	stream, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        inboxStream,
		Description: "Reasonix gateway inbound chat events",
		Subjects:    []string{inboxSubject},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.WorkQueuePolicy,
		Duplicates:  dedupe,
	})
	if err != nil {
		return nil, fmt.Errorf("jetstream: open stream %s: %w", inboxStream, err)
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       inboxConsumer,
		Description:   "Reasonix gateway event processing",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       inboxAckWait,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		MaxDeliver:    -1,
	})
	if err != nil {
		return nil, fmt.Errorf("jetstream: open consumer %s on %s: %w", inboxConsumer, inboxStream, err)
	}
	return cons, nil
}

// seenBucketConfig describes the ids of events already processed. The
// stream's own duplicate window forgets an event once it is acknowledged
// (work-queue retention deletes it) and the server restarts, because the
// server rebuilds that window from the messages still stored. A key here,
// written just before the acknowledgement and expiring with the window,
// keeps a platform's late redelivery from running an event twice.
func seenBucketConfig(dedupe time.Duration) jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket:      seenBucket,
		Description: "Reasonix gateway processed event ids",
		History:     1,
		TTL:         dedupe,
		Storage:     jetstream.FileStorage,
	}
}

// eventMsgID is the event's deduplication id: platform ids are only
// unique within their platform.
func eventMsgID(ev bots.Event) string { return ev.Ref.Platform + ":" + ev.ID }

// Add records ev in the inbox. dup reports that an event with the same
// platform and ID was recorded within the dedupe window; it is not
// recorded again.
func (s *Store) Add(ctx context.Context, ev bots.Event) (dup bool, err error) {
	if ev.ID == "" {
		return false, fmt.Errorf("jetstream: add %s event from %q: event has no ID to deduplicate by", ev.Kind, ev.Ref.Platform)
	}
	id := eventMsgID(ev)
	_, err = s.seen.Get(ctx, encodeKey(id))
	switch {
	case err == nil:
		return true, nil
	case !errors.Is(err, jetstream.ErrKeyNotFound):
		return false, fmt.Errorf("jetstream: add event %s: check processed ids: %w", id, err)
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return false, fmt.Errorf("jetstream: add event %s: %w", id, err)
	}
	ack, err := s.js.Publish(ctx, inboxSubject, data, jetstream.WithMsgID(id), jetstream.WithExpectStream(inboxStream))
	if err != nil {
		return false, fmt.Errorf("jetstream: add event %s: %w", id, err)
	}
	return ack.Duplicate, nil
}

// Consume hands recorded events to fn one at a time, in the order they
// were added, until ctx ends; it then returns nil. An event fn accepts
// (returns nil) is acknowledged and never delivered again; an event fn
// rejects is delivered again about a second later, after the events
// already queued behind it, so order holds for first deliveries only.
// Events that cannot be decoded are logged and dropped. If the process
// dies mid-event, that event is delivered again after two minutes (the
// consumer's ack wait); events merely fetched ahead are handed back when
// Consume returns. Consume returns an error if the connection closes, e.g.
// because Close was called first.
//
// Several processes may Consume the same inbox (through a shared NATS
// server); each event then goes to one of them. Within one Store, run one
// Consume at a time.
func (s *Store) Consume(ctx context.Context, fn func(context.Context, bots.Event) error) error {
	it, err := s.inbox.Messages(jetstream.PullMaxMessages(prefetch))
	if err != nil {
		return fmt.Errorf("jetstream: consume %s: %w", inboxStream, err)
	}
	defer s.release(it)
	for {
		msg, err := it.Next(jetstream.NextContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("jetstream: consume %s: %w", inboxStream, err)
		}
		if ctx.Err() != nil {
			// Next picks at random when a message and the end of ctx are
			// both ready; do not start new work after the end.
			s.releaseMsg(msg)
			return nil
		}
		s.handle(ctx, msg, fn)
	}
}

// handle runs fn on one message and settles it with the server.
func (s *Store) handle(ctx context.Context, msg jetstream.Msg, fn func(context.Context, bots.Event) error) {
	var seq uint64
	if md, err := msg.Metadata(); err == nil {
		seq = md.Sequence.Stream
	}
	var ev bots.Event
	if err := json.Unmarshal(msg.Data(), &ev); err != nil {
		s.log.Error("jetstream: dropping undecodable inbox event", "seq", seq, "err", err)
		if err := msg.TermWithReason("undecodable event"); err != nil {
			s.log.Warn("jetstream: terminate inbox event", "seq", seq, "err", err)
		}
		return
	}
	if err := fn(ctx, ev); err != nil {
		s.log.Warn("jetstream: inbox event failed; delivering it again later",
			"seq", seq, "id", ev.ID, "platform", ev.Ref.Platform, "err", err)
		if err := msg.NakWithDelay(retryDelay); err != nil {
			s.log.Warn("jetstream: reject inbox event", "seq", seq, "err", err)
		}
		return
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
	defer cancel()
	if id := msg.Headers().Get(jetstream.MsgIDHeader); id != "" {
		if _, err := s.seen.Put(actx, encodeKey(id), []byte(strconv.FormatUint(seq, 10))); err != nil {
			// Not fatal: the event is handled, only a late redelivery
			// after a restart could slip through.
			s.log.Warn("jetstream: remember processed event", "seq", seq, "id", id, "err", err)
		}
	}
	if err := msg.DoubleAck(actx); err != nil {
		s.log.Error("jetstream: acknowledge inbox event; it will be delivered again",
			"seq", seq, "id", ev.ID, "err", err)
	}
}

// release stops the iterator and hands back the events it had fetched
// but Consume never processed, so they are delivered again promptly rather
// than after inboxAckWait.
func (s *Store) release(it jetstream.MessagesContext) {
	it.Drain()
	defer it.Stop()
	for {
		msg, err := it.Next(jetstream.NextMaxWait(time.Second))
		if err != nil {
			return
		}
		s.releaseMsg(msg)
	}
}

// releaseMsg hands one unprocessed event back for prompt redelivery.
func (s *Store) releaseMsg(msg jetstream.Msg) {
	if err := msg.NakWithDelay(releaseDelay); err != nil {
		s.log.Debug("jetstream: release inbox event", "err", err)
	}
}
