package provider

import (
	"math"
	"testing"
)

func TestPricesCost(t *testing.T) {
	t.Parallel()
	flash := Prices{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.6}
	tests := []struct {
		name string
		u    Usage
		want float64
	}{
		{"all hit", Usage{PromptTokens: 1e6, CacheHitTokens: 1e6}, 0.003},
		{"all miss", Usage{PromptTokens: 1e6, CacheMissTokens: 1e6}, 0.15},
		{"unsplit prompt billed as miss", Usage{PromptTokens: 1e6}, 0.15},
		{"output", Usage{CompletionTokens: 2e6}, 1.2},
	}
	for _, tt := range tests {
		if got := flash.Cost(tt.u); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if r := (Usage{CacheHitTokens: 3, CacheMissTokens: 1}).HitRatio(); r != 0.75 {
		t.Errorf("hit ratio = %v, want 0.75", r)
	}
}

func TestRegistryRejectsUnknownKind(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{Name: "x", Kind: "no-such-kind"}); err == nil {
		t.Error("got nil error for an unknown kind")
	}
}
