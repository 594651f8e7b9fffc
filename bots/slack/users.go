package slack

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// userCacheTTL is how long a display name is trusted before users.info is
// asked again; people rename themselves rarely.
const userCacheTTL = 10 * time.Minute

// userCache remembers display names from users.info.
type userCache struct {
	api *slack.Client
	ttl time.Duration

	mu sync.Mutex // guards names
	// names maps a user id to its display name and when it goes stale.
	names map[string]cachedName
}

type cachedName struct {
	name    string
	expires time.Time
}

func newUserCache(api *slack.Client, ttl time.Duration) *userCache {
	return &userCache{api: api, ttl: ttl, names: map[string]cachedName{}}
}

// name returns the user's display name: the profile's display name, else
// the real name, else the handle. When users.info fails the id stands in,
// uncached, so the event still goes through.
func (c *userCache) name(ctx context.Context, id string) string {
	if id == "" {
		return ""
	}
	now := time.Now()
	c.mu.Lock()
	got, ok := c.names[id]
	c.mu.Unlock()
	if ok && now.Before(got.expires) {
		return got.name
	}
	u, err := c.api.GetUserInfoContext(ctx, id)
	if err != nil {
		return id
	}
	name := firstNonEmpty(u.Profile.DisplayName, u.Profile.RealName, u.RealName, u.Name, id)
	c.mu.Lock()
	c.names[id] = cachedName{name: name, expires: now.Add(c.ttl)}
	c.mu.Unlock()
	return name
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

var (
	userRefRE    = regexp.MustCompile(`<@([UW][A-Z0-9]+)(?:\|[^>]*)?>`)
	channelRefRE = regexp.MustCompile(`<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>`)
	specialRefRE = regexp.MustCompile(`<!([a-z]+)(?:\^[^|>]*)?(?:\|([^>]*))?>`)
	linkRefRE    = regexp.MustCompile(`<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>`)
)

// plainText turns Slack's wire text into what the agent should read: the
// bot's own mention removed, other mentions as @Name, channels as #name,
// links as "label (url)", entities decoded.
func (c *userCache) plainText(ctx context.Context, text, botUserID string) string {
	if botUserID != "" {
		// The mention and one space after it go, so "<@B> fix it" reads "fix it".
		text = regexp.MustCompile(`<@`+regexp.QuoteMeta(botUserID)+`(?:\|[^>]*)?>[ \t]?`).ReplaceAllString(text, "")
	}
	text = userRefRE.ReplaceAllStringFunc(text, func(m string) string {
		return "@" + c.name(ctx, userRefRE.FindStringSubmatch(m)[1])
	})
	text = channelRefRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := channelRefRE.FindStringSubmatch(m)
		return "#" + firstNonEmpty(sub[2], sub[1])
	})
	text = specialRefRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := specialRefRE.FindStringSubmatch(m)
		return "@" + firstNonEmpty(strings.TrimPrefix(sub[2], "@"), sub[1])
	})
	text = linkRefRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := linkRefRE.FindStringSubmatch(m)
		if sub[2] == "" || sub[2] == sub[1] {
			return sub[1]
		}
		return sub[2] + " (" + sub[1] + ")"
	})
	text = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(text)
	return strings.TrimSpace(text)
}
