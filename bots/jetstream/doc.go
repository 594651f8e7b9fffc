// Package jetstream is the durable state store of the chat gateway, built on
// NATS JetStream. It implements bots.Store: the inbox of inbound events (a
// work-queue stream deduplicated by platform event id), thread bindings and
// approval records (key-value buckets updated with compare-and-swap).
//
// By default the store runs a NATS server with JetStream inside the process,
// keeping its files in Options.Dir, so a single binary needs nothing else.
// Setting Options.URL talks to an external NATS deployment instead, which is
// how several gateway processes share one inbox and one set of bindings; the
// code after the connection is the same in both modes.
//
// Only cmd/ imports this package, to open the store and hand it to the
// gateway; the gateway itself sees it solely through the bots.Store
// interface.
package jetstream
