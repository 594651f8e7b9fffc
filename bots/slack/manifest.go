package slack

import (
	"encoding/json"
	"strings"
)

// botScopes are the OAuth scopes the bot token needs.
var botScopes = []string{
	"app_mentions:read", // @reasonix in channels
	"chat:write",        // post and edit its messages
	"channels:history",  // follow-ups in threads of public channels
	"groups:history",    // ... and of private channels
	"im:history",        // direct messages
	"reactions:write",   // eyes, check mark, x on the messages it works on
	"files:write",       // diffs and logs as files
	"users:read",        // display names for the agent
	"commands",          // /reasonix
}

// botEvents are the events the app subscribes to.
var botEvents = []string{"app_mention", "message.channels", "message.groups", "message.im"}

// RequestURLPlaceholder stands in for the public URL in an HTTP-mode
// manifest printed without one.
const RequestURLPlaceholder = "https://reasonix.example.com"

// Manifest returns the Slack app manifest (YAML) for an app named appName:
// the bot user, its scopes and events, the /reasonix command and
// interactivity. With socket set it enables Socket Mode; otherwise Slack
// reaches the app at requestURL (scheme and host, e.g.
// https://reasonix.example.com), on /slack/events, /slack/interactive and
// /slack/commands.
func Manifest(appName string, socket bool, requestURL string) string {
	if strings.TrimSpace(appName) == "" {
		appName = "Reasonix"
	}
	base := strings.TrimRight(requestURL, "/")
	if base == "" {
		base = RequestURLPlaceholder
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line("display_information:")
	line("  name: " + yamlString(truncateText(appName, 35)))
	line("  description: " + yamlString("A DeepSeek-native coding agent: mention it with a task, and each thread becomes one agent session."))
	line("features:")
	line("  app_home:")
	line("    messages_tab_enabled: true")
	line("    messages_tab_read_only_enabled: false")
	line("  bot_user:")
	line("    display_name: " + yamlString(botDisplayName(appName)))
	line("    always_online: true")
	line("  slash_commands:")
	line("    - command: /reasonix")
	line("      description: " + yamlString("Talk to the Reasonix coding agent"))
	line("      usage_hint: " + yamlString("help | status | repos"))
	line("      should_escape: false")
	if !socket {
		line("      url: " + yamlString(base+"/slack/commands"))
	}
	line("oauth_config:")
	line("  scopes:")
	line("    bot:")
	for _, s := range botScopes {
		line("      - " + s)
	}
	line("settings:")
	line("  event_subscriptions:")
	if !socket {
		line("    request_url: " + yamlString(base+"/slack/events"))
	}
	line("    bot_events:")
	for _, e := range botEvents {
		line("      - " + e)
	}
	line("  interactivity:")
	line("    is_enabled: true")
	if !socket {
		line("    request_url: " + yamlString(base+"/slack/interactive"))
	}
	line("  org_deploy_enabled: false")
	if socket {
		line("  socket_mode_enabled: true")
	} else {
		line("  socket_mode_enabled: false")
	}
	line("  token_rotation_enabled: false")
	return b.String()
}

// botDisplayName derives the bot user's name: lower case, no spaces, at
// most 80 characters, as Slack wants it.
func botDisplayName(appName string) string {
	name := strings.ToLower(strings.Join(strings.Fields(appName), "-"))
	return truncateText(name, 80)
}

// yamlString quotes s for YAML: a JSON string is a valid YAML
// double-quoted scalar.
func yamlString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
