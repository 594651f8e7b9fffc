package openai

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	zero := func(int64) int64 { return 0 }
	top := func(max int64) int64 { return max - 1 }
	tests := []struct {
		name   string
		n      int
		jitter func(int64) int64
		want   time.Duration
	}{
		{name: "first retry low", n: 1, jitter: zero, want: 250 * time.Millisecond},
		{name: "first retry high", n: 1, jitter: top, want: 500 * time.Millisecond},
		{name: "third retry low", n: 3, jitter: zero, want: time.Second},
		{name: "capped", n: 10, jitter: top, want: 30 * time.Second},
		{name: "huge n capped", n: 80, jitter: zero, want: 15 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoff(tt.n, tt.jitter); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		value  string
		want   time.Duration
		wantOK bool
	}{
		{name: "absent", value: ""},
		{name: "seconds", value: "7", want: 7 * time.Second, wantOK: true},
		{name: "negative", value: "-3", want: 0, wantOK: true},
		{name: "http date", value: "Sun, 01 Mar 2026 12:00:42 GMT", want: 42 * time.Second, wantOK: true},
		{name: "past date", value: "Sun, 01 Mar 2026 11:00:00 GMT", want: 0, wantOK: true},
		{name: "garbage", value: "soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.value, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("got %v %v, want %v %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
