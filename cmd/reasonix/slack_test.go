package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/teams/bots/slack/fakeslack"
	"github.com/reasonix/teams/engine/config"
)

func TestSlackManifestCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	httpCfg := filepath.Join(dir, "http.toml")
	if err := os.WriteFile(httpCfg, []byte("[slack]\nmode = \"http\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	socketCfg := filepath.Join(dir, "socket.toml")
	if err := os.WriteFile(socketCfg, []byte("[slack]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCfg := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(badCfg, []byte("[slack]\nmode = \"rtm\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{name: "no subcommand", args: nil, code: exitUsage},
		{name: "unknown subcommand", args: []string{"install"}, code: exitUsage},
		{name: "missing config file", args: []string{"manifest", "--config", filepath.Join(dir, "none.toml")}, code: exitUsage},
		{name: "socket by default", args: []string{"manifest", "--config", socketCfg}, code: exitOK,
			out: []string{`name: "Reasonix"`, "socket_mode_enabled: true", "- app_mentions:read"}},
		{name: "http with url", args: []string{"manifest", "--config", httpCfg, "--name", "RX", "--request-url", "https://rx.example.com"}, code: exitOK,
			out: []string{`name: "RX"`, "socket_mode_enabled: false", `request_url: "https://rx.example.com/slack/events"`}},
		{name: "invalid config", args: []string{"manifest", "--config", badCfg}, code: exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if code := runSlack(context.Background(), tt.args, &stdout, &stderr); code != tt.code {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			for _, w := range tt.out {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}
}

func TestDoctorSlackCheck(t *testing.T) {
	fake := fakeslack.New(fakeslack.Options{})
	defer fake.Close()
	cfg := func(enabled bool) *config.Config {
		c := &config.Config{}
		c.Slack = config.Slack{Enabled: enabled, Mode: "socket", APIURL: fake.APIURL(),
			BotTokenEnv: "RX_TEST_SLACK_BOT", AppTokenEnv: "RX_TEST_SLACK_APP", SigningSecretEnv: "RX_TEST_SLACK_SIGNING"}
		return c
	}
	tests := []struct {
		name     string
		cfg      *config.Config
		bot, app string
		ran      bool
		status   string
		detail   string
	}{
		{name: "disabled", cfg: cfg(false), ran: false},
		{name: "no bot token", cfg: cfg(true), app: fake.AppToken(), ran: true, status: statusFail, detail: "$RX_TEST_SLACK_BOT is empty"},
		{name: "no app token", cfg: cfg(true), bot: fake.BotToken(), ran: true, status: statusFail, detail: "$RX_TEST_SLACK_APP is empty"},
		{name: "refused", cfg: cfg(true), bot: "xoxb-wrong", app: fake.AppToken(), ran: true, status: statusFail, detail: "invalid_auth"},
		{name: "ok", cfg: cfg(true), bot: fake.BotToken(), app: fake.AppToken(), ran: true, status: statusOK, detail: "bot user " + fake.BotUserID()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("RX_TEST_SLACK_BOT", tt.bot)
			t.Setenv("RX_TEST_SLACK_APP", tt.app)
			r, ran := checkSlack(context.Background(), tt.cfg)
			if ran != tt.ran {
				t.Fatalf("ran: got %v, want %v", ran, tt.ran)
			}
			if ran && (r.status != tt.status || !strings.Contains(r.detail, tt.detail)) {
				t.Errorf("check: got %s %q, want %s containing %q", r.status, r.detail, tt.status, tt.detail)
			}
		})
	}
}
