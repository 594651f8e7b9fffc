package slack

import (
	"testing"

	"github.com/reasonix/teams/bots/slack/fakeslack"
)

func TestPlainText(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"bot mention removed", "<@UBOT> fix it", "fix it"},
		{"bot mention mid-text", "please <@UBOT> fix it", "please fix it"},
		{"people by name", "ask <@U1> and <@U2|bob>", "ask @Alice and @Bob"},
		{"unknown person by id", "ask <@U999>", "ask @U999"},
		{"channel", "see <#C123|general>", "see #general"},
		{"special", "<!here> look", "@here look"},
		{"link with label", "read <https://x.io/a|the spec>", "read the spec (https://x.io/a)"},
		{"bare link", "<https://x.io/a>", "https://x.io/a"},
		{"entities", "a &lt; b &amp;&amp; c &gt; d", "a < b && c > d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := a.users.plainText(testCtx(t), tt.in, "UBOT"); got != tt.want {
				t.Errorf("plainText(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestUserNamesAreCached(t *testing.T) {
	t.Parallel()
	fake := newFake(t, fakeslack.Options{})
	a := newAdapter(t, fake, ModeSocket)
	for range 3 {
		if got := a.users.name(testCtx(t), "U1"); got != "Alice" {
			t.Fatalf("name: got %q, want Alice", got)
		}
	}
	if n := fake.Calls("users.info"); n != 1 {
		t.Errorf("users.info calls: got %d, want 1", n)
	}
}
