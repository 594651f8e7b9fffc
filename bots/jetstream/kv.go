package jetstream

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// encodeKey turns an arbitrary string (a thread key holds ':' and
// platform ids may hold anything) into a valid KV key. Unpadded URL-safe
// base64 only uses letters, digits, '-' and '_', all allowed in keys.
func encodeKey(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// decodeKey reverses encodeKey.
func decodeKey(k string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return "", fmt.Errorf("key %q is not one this store wrote: %w", k, err)
	}
	return string(b), nil
}

// listEntries returns the latest value of every live key in kv, read in one
// pass over the bucket (rather than listing keys and fetching each).
func listEntries(ctx context.Context, kv jetstream.KeyValue) ([]jetstream.KeyValueEntry, error) {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", kv.Bucket(), err)
	}
	defer func() { _ = w.Stop() }()
	var entries []jetstream.KeyValueEntry
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return nil, fmt.Errorf("list %s: watcher closed before the initial values were read", kv.Bucket())
			}
			if e == nil { // every value present at the start has been read
				return entries, nil
			}
			entries = append(entries, e)
		case <-ctx.Done():
			return nil, fmt.Errorf("list %s: %w", kv.Bucket(), ctx.Err())
		}
	}
}
