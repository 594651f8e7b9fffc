package slack

import "testing"

func TestToMrkdwn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "hello world", "hello world"},
		{"bold", "a **bold** move", "a *bold* move"},
		{"bold underscores", "a __bold__ move", "a *bold* move"},
		{"italic star", "an *italic* word", "an _italic_ word"},
		{"italic underscore kept", "an _italic_ word", "an _italic_ word"},
		{"bold and italic", "**bold** and *it*", "*bold* and _it_"},
		{"italic inside bold", "**bold *it* x**", "*bold _it_ x*"},
		{"bold code", "**`x`**", "*`x`*"},
		{"strike", "~~gone~~", "~gone~"},
		{"link", "see [the docs](https://example.com/a?b=1&c=2)", "see <https://example.com/a?b=1&amp;c=2|the docs>"},
		{"relative link stays text", "[main.go](src/main.go)", "main.go (src/main.go)"},
		{"autolink", "<https://example.com>", "<https://example.com>"},
		{"heading", "# Plan", "*Plan*"},
		{"heading with bold", "## **Done** ##", "*Done*"},
		{"heading ending in a hash", "# Learn C#", "*Learn C#*"},
		{"hashtag is no heading", "#general", "#general"},
		{"bullets", "- one\n* two\n  + nested", "• one\n• two\n  • nested"},
		{"numbered list kept", "1. first\n2. second", "1. first\n2. second"},
		{"escape", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"},
		{"quote marker kept", "> quoted <x>", "> quoted &lt;x&gt;"},
		{"rule", "---", "──────────"},
		{"inline code verbatim", "run `**not bold** <x>`", "run `**not bold** &lt;x&gt;`"},
		{"fence verbatim", "```go\nfunc a() { *p = **q }\n```", "```\nfunc a() { *p = **q }\n```"},
		{"fence escapes", "```\nif a<b && c {}\n```", "```\nif a&lt;b &amp;&amp; c {}\n```"},
		{"unterminated fence closed", "```\nx := 1", "```\nx := 1\n```"},
		{"markdown after fence converts", "```\n*a*\n```\n*b*", "```\n*a*\n```\n_b_"},
		{"snake case untouched", "call my_func_name now", "call my_func_name now"},
		{"multiplication untouched", "2 * 3 * 4", "2 * 3 * 4"},
		{"crlf", "**a**\r\nb", "*a*\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ToMrkdwn(tt.in); got != tt.want {
				t.Errorf("ToMrkdwn(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestToMrkdwnNeutralisesPings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"at here", "ping @here now", "ping @\u200bhere now"},
		{"at channel", "@channel look", "@\u200bchannel look"},
		{"at everyone, any case", "@Everyone", "@\u200bEveryone"},
		{"special here", "<!here>", "&lt;!here&gt;"},
		{"special channel", "<!channel> hi", "&lt;!channel&gt; hi"},
		{"special everyone", "<!everyone>", "&lt;!everyone&gt;"},
		{"user mention", "<@U123>", "&lt;@U123&gt;"},
		{"in code", "`@here`", "`@\u200bhere`"},
		{"in fence", "```\n@channel\n```", "```\n@\u200bchannel\n```"},
		{"in link text", "[@here](https://x.y)", "<https://x.y|@\u200bhere>"},
		{"not a ping", "@hereford and email@channels.io", "@hereford and email@channels.io"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ToMrkdwn(tt.in); got != tt.want {
				t.Errorf("ToMrkdwn(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
