package bots

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestLimiterQueuesInOrderAndReportsPositions(t *testing.T) {
	l := newLimiter(1)
	release1, err := l.acquire(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	positions := map[int][]int{}
	granted := make(chan int, 2)
	for i := 0; i < 2; i++ {
		queued := make(chan struct{})
		go func() {
			release, err := l.acquire(context.Background(), func(ahead int) {
				mu.Lock()
				positions[i] = append(positions[i], ahead)
				mu.Unlock()
				if len(positions[i]) == 1 {
					close(queued)
				}
			})
			if err != nil {
				t.Error(err)
				return
			}
			granted <- i
			release()
		}()
		<-queued
	}
	release1()
	if first, second := <-granted, <-granted; first != 0 || second != 1 {
		t.Errorf("granted %d then %d, want 0 then 1", first, second)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := positions[1]; len(got) < 2 || got[0] != 1 || got[len(got)-1] != 0 {
		t.Errorf("second waiter saw positions %v, want 1 then 0", got)
	}
}

func TestLimiterCancelWhileQueued(t *testing.T) {
	l := newLimiter(1)
	release, _ := l.acquire(context.Background(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := l.acquire(ctx, func(int) { cancel() })
		done <- err
	}()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want canceled", err)
	}
	release()
	// The slot is free again: no waiter holds it.
	r, err := l.acquire(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r()
	if l.queued() != 0 {
		t.Errorf("queued = %d, want 0", l.queued())
	}
}

func TestAccess(t *testing.T) {
	ref := ThreadRef{Platform: "slack", Channel: "C1"}
	ada, bob := User{ID: "U1"}, User{ID: "U2"}
	tests := []struct {
		name        string
		a           Access
		user        User
		use         bool
		approveOwn  bool
		approveBobs bool
	}{
		{"open", Access{RequesterCanApprove: true}, ada, true, true, false},
		{"user list", Access{Users: []string{"slack:U2"}}, ada, false, false, false},
		{"channel list", Access{Channels: []string{"slack:C9"}}, ada, false, false, false},
		{"approver", Access{Approvers: []string{"slack:U1"}}, ada, true, true, true},
		{"requester cannot approve", Access{RequesterCanApprove: false}, ada, true, false, false},
		{"other platform id", Access{Approvers: []string{"discord:U1"}}, ada, true, false, false},
	}
	for _, tt := range tests {
		if got := tt.a.MayUse(ref, tt.user); got != tt.use {
			t.Errorf("%s: MayUse = %v, want %v", tt.name, got, tt.use)
		}
		if got := tt.a.MayApprove("slack", tt.user, tt.user); got != tt.approveOwn {
			t.Errorf("%s: approve own = %v, want %v", tt.name, got, tt.approveOwn)
		}
		if got := tt.a.MayApprove("slack", tt.user, bob); got != tt.approveBobs {
			t.Errorf("%s: approve bob's = %v, want %v", tt.name, got, tt.approveBobs)
		}
	}
}

func TestParseThreadOptions(t *testing.T) {
	tests := []struct {
		in, repo, branch, text string
	}{
		{"fix it", "", "", "fix it"},
		{"repo=api fix the login", "api", "", "fix the login"},
		{"fix it branch=release/1.2 repo=web", "web", "release/1.2", "fix it"},
		{"repo=api\n\nkeep  the   spacing", "api", "", "keep  the   spacing"},
		{"repo= nothing", "", "", "repo= nothing"},
	}
	for _, tt := range tests {
		opts, text := parseThreadOptions(tt.in)
		if opts.repo != tt.repo || opts.branch != tt.branch || text != tt.text {
			t.Errorf("%q: got %+v %q, want repo %q branch %q text %q", tt.in, opts, text, tt.repo, tt.branch, tt.text)
		}
	}
	for in, want := range map[string]string{"stop": cmdStop, " Status ": cmdStatus, "stop it now": "", "PR": cmdPR} {
		if got := threadCommand(in); got != want {
			t.Errorf("threadCommand(%q) = %q, want %q", in, got, want)
		}
	}
}
