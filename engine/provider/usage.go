package provider

// Usage is the token accounting of one request, as the provider reported it.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CacheHitTokens   int `json:"cache_hit_tokens"`
	CacheMissTokens  int `json:"cache_miss_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CacheHitTokens:   u.CacheHitTokens + o.CacheHitTokens,
		CacheMissTokens:  u.CacheMissTokens + o.CacheMissTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		ReasoningTokens:  u.ReasoningTokens + o.ReasoningTokens,
	}
}

// HitRatio is the share of prompt tokens served from the prefix cache, in [0,1].
func (u Usage) HitRatio() float64 {
	total := u.CacheHitTokens + u.CacheMissTokens
	if total == 0 {
		return 0
	}
	return float64(u.CacheHitTokens) / float64(total)
}

// Prices are USD per one million tokens.
type Prices struct {
	CacheHit  float64 `toml:"cache_hit" json:"cache_hit"`
	CacheMiss float64 `toml:"cache_miss" json:"cache_miss"`
	Output    float64 `toml:"output" json:"output"`
}

// Cost is what u costs at p, in USD. Prompt tokens the provider did not split
// into hit and miss are billed as misses.
func (p Prices) Cost(u Usage) float64 {
	miss := u.CacheMissTokens
	if unsplit := u.PromptTokens - u.CacheHitTokens - u.CacheMissTokens; unsplit > 0 {
		miss += unsplit
	}
	return (float64(u.CacheHitTokens)*p.CacheHit +
		float64(miss)*p.CacheMiss +
		float64(u.CompletionTokens)*p.Output) / 1e6
}
