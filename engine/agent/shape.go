package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/reasonix/teams/engine/provider"
)

// prefixShape fingerprints what a request's cacheable prefix is made of, so
// a drop in cache hits can be explained.
type prefixShape struct {
	System  string // hash of the system prompt
	Tools   string // hash of the tool block
	Prefix  string // hash of system + tools together
	Rewrite int    // compaction count; bumps are deliberate cache resets
}

func shapeOf(system string, tools []provider.ToolSpec, rewrite int) prefixShape {
	tb, _ := json.Marshal(tools)
	sh := sha256.Sum256([]byte(system))
	th := sha256.Sum256(tb)
	ph := sha256.New()
	ph.Write(sh[:])
	ph.Write(th[:])
	return prefixShape{
		System:  hex.EncodeToString(sh[:8]),
		Tools:   hex.EncodeToString(th[:8]),
		Prefix:  hex.EncodeToString(ph.Sum(nil)[:8]),
		Rewrite: rewrite,
	}
}

// missCause names why the cache hit ratio dropped between two requests:
// "system", "tools", "rewrite", or "unexplained" (the provider evicted the
// prefix, or something outside the prefix shape changed).
func missCause(prev, cur prefixShape) string {
	switch {
	case prev.System != cur.System:
		return "system"
	case prev.Tools != cur.Tools:
		return "tools"
	case prev.Rewrite != cur.Rewrite:
		return "rewrite"
	}
	return "unexplained"
}

// hitDropped reports a cache-hit drop worth explaining: the previous request
// had a warm cache and this one lost a substantial part of it.
func hitDropped(prevHit int, cur provider.Usage) bool {
	const minWarm = 1024 // tokens; below this a miss is normal warm-up
	if prevHit < minWarm {
		return false
	}
	return cur.CacheHitTokens < prevHit/2
}
