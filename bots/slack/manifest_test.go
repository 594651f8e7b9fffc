package slack

import (
	"strings"
	"testing"
)

func TestManifest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		socket  bool
		url     string
		want    []string
		notWant []string
	}{
		{
			name:    "socket mode",
			socket:  true,
			want:    []string{"  socket_mode_enabled: true\n"},
			notWant: []string{"request_url", "url:"},
		},
		{
			name:   "http mode",
			socket: false,
			url:    "https://bot.example.com/",
			want: []string{
				"  socket_mode_enabled: false\n",
				`    request_url: "https://bot.example.com/slack/events"`,
				`    request_url: "https://bot.example.com/slack/interactive"`,
				`      url: "https://bot.example.com/slack/commands"`,
			},
		},
	}
	common := []string{
		`  name: "Reasonix Dev"`,
		`    display_name: "reasonix-dev"`,
		"    - command: /reasonix\n",
		"  interactivity:\n    is_enabled: true\n",
		"      - app_mentions:read\n", "      - chat:write\n", "      - channels:history\n", "      - groups:history\n",
		"      - im:history\n", "      - reactions:write\n", "      - files:write\n", "      - users:read\n", "      - commands\n",
		"      - app_mention\n", "      - message.channels\n", "      - message.groups\n", "      - message.im\n",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Manifest("Reasonix Dev", tt.socket, tt.url)
			for _, w := range append(common, tt.want...) {
				if !strings.Contains(got, w) {
					t.Errorf("manifest lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("manifest has %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "\t") {
				t.Errorf("manifest has a tab, which YAML forbids for indentation")
			}
		})
	}
}
