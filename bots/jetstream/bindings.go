package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reasonix/teams/bots"
)

// bindingsBucket holds one key per thread (the encoded thread key).
const bindingsBucket = "reasonix_bindings"

func bindingsBucketConfig() jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket:      bindingsBucket,
		Description: "Reasonix gateway thread bindings",
		History:     1,
		Storage:     jetstream.FileStorage,
	}
}

// GetBinding returns the binding of thread key and its revision, or an
// error matching bots.ErrNotFound.
func (s *Store) GetBinding(ctx context.Context, key string) (bots.Binding, uint64, error) {
	if key == "" {
		return bots.Binding{}, 0, fmt.Errorf("jetstream: get binding: empty thread key: %w", bots.ErrNotFound)
	}
	e, err := s.bindings.Get(ctx, encodeKey(key))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return bots.Binding{}, 0, fmt.Errorf("jetstream: get binding %q: %w", key, bots.ErrNotFound)
	}
	if err != nil {
		return bots.Binding{}, 0, fmt.Errorf("jetstream: get binding %q: %w", key, err)
	}
	var b bots.Binding
	if err := json.Unmarshal(e.Value(), &b); err != nil {
		return bots.Binding{}, 0, fmt.Errorf("jetstream: get binding %q: decode: %w", key, err)
	}
	return b, e.Revision(), nil
}

// PutBinding stores b under b.Key if the stored revision is rev (0: only
// if there is none yet) and returns the new revision. A lost race returns
// an error matching bots.ErrConflict; re-read and retry.
func (s *Store) PutBinding(ctx context.Context, b bots.Binding, rev uint64) (uint64, error) {
	if b.Key == "" {
		return 0, errors.New("jetstream: put binding: the binding has no Key")
	}
	data, err := json.Marshal(b)
	if err != nil {
		return 0, fmt.Errorf("jetstream: put binding %q: %w", b.Key, err)
	}
	key := encodeKey(b.Key)
	var newRev uint64
	if rev == 0 {
		newRev, err = s.bindings.Create(ctx, key, data)
		if errors.Is(err, jetstream.ErrKeyExists) {
			return 0, fmt.Errorf("jetstream: create binding %q: it already exists: %w", b.Key, bots.ErrConflict)
		}
	} else {
		newRev, err = s.bindings.Update(ctx, key, data, rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return 0, fmt.Errorf("jetstream: update binding %q: revision %d is no longer current: %w", b.Key, rev, bots.ErrConflict)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("jetstream: put binding %q: %w", b.Key, err)
	}
	return newRev, nil
}

// ListBindings returns every stored binding, in no particular order.
func (s *Store) ListBindings(ctx context.Context) ([]bots.Binding, error) {
	entries, err := listEntries(ctx, s.bindings)
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	out := make([]bots.Binding, 0, len(entries))
	for _, e := range entries {
		var b bots.Binding
		if err := json.Unmarshal(e.Value(), &b); err != nil {
			key, _ := decodeKey(e.Key())
			return nil, fmt.Errorf("jetstream: list bindings: decode %q: %w", key, err)
		}
		out = append(out, b)
	}
	return out, nil
}
