package openai

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
)

// sleepLog replaces the client's sleep: it records each wait and returns at once.
type sleepLog struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleepLog) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// deltaLog collects what a Stream call emitted.
type deltaLog struct {
	mu     sync.Mutex
	deltas []provider.Delta
}

func (d *deltaLog) add(x provider.Delta) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.deltas = append(d.deltas, x)
}

func (d *deltaLog) all() []provider.Delta {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]provider.Delta(nil), d.deltas...)
}

const testKey = "sk-test-secret-key"

func newFake(t testing.TB, opts ...providertest.Option) *providertest.Server {
	t.Helper()
	s := providertest.New(opts...)
	t.Cleanup(s.Close)
	return s
}

// newTestClient builds a client for baseURL whose sleeps are recorded.
func newTestClient(t testing.TB, baseURL string, edit func(*provider.Config)) (*Client, *sleepLog) {
	t.Helper()
	cfg := provider.Config{Name: "deepseek", Kind: "openai", BaseURL: baseURL, Model: "deepseek-chat", APIKey: testKey}
	if edit != nil {
		edit(&cfg)
	}
	c, err := newClient(cfg)
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	log := &sleepLog{}
	c.sleep = log.sleep
	return c, log
}

func userRequest(text string) provider.Request {
	return provider.Request{Messages: []provider.Message{
		{Role: provider.RoleSystem, Content: "You are a coding agent."},
		{Role: provider.RoleUser, Content: text},
	}}
}

// isA reports whether err is (or wraps) a T, and names T for messages.
func isA[T error](err error) (bool, string) {
	var target T
	return err != nil && errors.As(err, &target), fmt.Sprintf("%T", target)
}
