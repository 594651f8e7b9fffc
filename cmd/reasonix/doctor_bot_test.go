package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/config"
)

func TestCheckStore(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o500)
	tests := []struct {
		name   string
		store  config.Store
		status string
		want   string
	}{
		{"embedded in a new dir", config.Store{Dir: filepath.Join(dir, "a", "b")}, statusOK, "embedded"},
		{"unreachable external", config.Store{URL: "nats://127.0.0.1:1"}, statusFail, "cannot use the NATS server"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		tests = append(tests, struct {
			name   string
			store  config.Store
			status string
			want   string
		}{"read-only dir", config.Store{Dir: filepath.Join(ro, "data")}, statusFail, "not writable"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkStore(context.Background(), &config.Config{Store: tt.store})
			if got.status != tt.status || !strings.Contains(got.detail, tt.want) {
				t.Errorf("got %s %q, want %s containing %q", got.status, got.detail, tt.status, tt.want)
			}
		})
	}
}

func TestCheckRepos(t *testing.T) {
	t.Setenv("REASONIX_TEST_TOKEN", "")
	tests := []struct {
		name   string
		repos  []config.Repo
		status string
	}{
		{"none", nil, statusWarn},
		{"https without token", []config.Repo{{Name: "a", URL: "https://github.com/o/a.git", TokenEnv: "REASONIX_TEST_TOKEN"}}, statusWarn},
		{"local", []config.Repo{{Name: "a", URL: "file:///srv/a.git"}}, statusOK},
	}
	for _, tt := range tests {
		if got := checkRepos(&config.Config{Repos: tt.repos}); got.status != tt.status {
			t.Errorf("%s: got %s (%s), want %s", tt.name, got.status, got.detail, tt.status)
		}
	}
}
