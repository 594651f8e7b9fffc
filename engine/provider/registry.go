package provider

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Config is everything a provider kind needs to build one model endpoint.
// cmd/ fills it from the TOML configuration.
type Config struct {
	Name            string // the [[providers]] name, used in errors
	Kind            string
	BaseURL         string
	Model           string
	APIKey          string
	MaxOutputTokens int
	Prices          Prices
	// IdleTimeout bounds silence on an open stream (default 300 s).
	IdleTimeout time.Duration
	// MaxAttempts bounds tries per request, retries and replays included
	// (default 5).
	MaxAttempts int
	// HTTPClient is optional; nil means a default client without a timeout
	// (streams are bounded by IdleTimeout and the context instead).
	HTTPClient *http.Client
}

// Factory builds a Provider from its Config.
type Factory func(Config) (Provider, error)

var (
	registryMu sync.RWMutex // guards registry
	registry   = map[string]Factory{}
)

// Register makes a provider kind available. Kinds call it from init().
func Register(kind string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[kind]; dup {
		panic("provider: kind registered twice: " + kind)
	}
	registry[kind] = f
}

// Kinds lists the registered kinds in sorted order.
func Kinds() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	kinds := make([]string, 0, len(registry))
	for k := range registry {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// New builds a provider of cfg.Kind.
func New(cfg Config) (Provider, error) {
	registryMu.RLock()
	f, ok := registry[cfg.Kind]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("provider %q: unknown kind %q (known: %v)", cfg.Name, cfg.Kind, Kinds())
	}
	return f(cfg)
}
