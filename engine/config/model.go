package config

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/reasonix/teams/engine/provider"
)

// Model is a resolved model reference: everything needed to build the
// provider and to size the conversation for it.
type Model struct {
	Provider provider.Config
	// ContextWindow is the model's context size in tokens, 0 when the
	// provider entry does not declare it.
	ContextWindow int
}

// ModelList returns the provider's models: Models, or Model alone.
func (p *Provider) ModelList() []string {
	if p.Model != "" {
		return []string{p.Model}
	}
	return p.Models
}

// ResolveModel turns a model reference into a provider configuration. ref
// may be "" (DefaultModel), a provider name (that provider's default
// model), a model name offered by exactly one provider, or "provider/model".
//
// It reads the provider's API key from the environment variable named by
// api_key_env, so only commands that talk to a model should call it. Every
// error is an *Error.
func (c *Config) ResolveModel(ref string) (Model, error) {
	key, file := "", ""
	if ref == "" {
		ref, key, file = c.DefaultModel, "default_model", c.Source
	}
	i, model, err := c.lookupModel(ref)
	if err != nil {
		return Model{}, &Error{File: file, Key: key, Msg: err.Error()}
	}
	p := &c.Providers[i]
	var apiKey string
	if p.APIKeyEnv != "" {
		apiKey = os.Getenv(p.APIKeyEnv)
		if apiKey == "" {
			return Model{}, &Error{
				File: c.Source,
				Key:  keyPath{"providers"}.index(i).key("api_key_env").String(),
				Msg:  fmt.Sprintf("environment variable %s is not set; export it with your API key", p.APIKeyEnv),
			}
		}
	}
	return Model{
		Provider: provider.Config{
			Name:            p.Name,
			Kind:            p.Kind,
			BaseURL:         p.BaseURL,
			Model:           model,
			APIKey:          apiKey,
			MaxOutputTokens: p.MaxOutputTokens,
			Prices:          p.Prices[model],
			IdleTimeout:     p.IdleTimeout.Duration,
			MaxAttempts:     p.MaxAttempts,
		},
		ContextWindow: p.ContextWindow,
	}, nil
}

// lookupModel finds the provider index and model name a reference means,
// without touching the environment.
func (c *Config) lookupModel(ref string) (int, string, error) {
	switch {
	case len(c.Providers) == 0:
		return 0, "", fmt.Errorf("no provider is configured; add a [[providers]] entry")
	case ref == "":
		return 0, "", fmt.Errorf("no model given; use %s", oneOf(c.modelRefs()))
	}
	for i := range c.Providers {
		if c.Providers[i].Name == ref {
			return i, c.Providers[i].Default, nil
		}
	}
	if name, model, ok := strings.Cut(ref, "/"); ok {
		for i := range c.Providers {
			p := &c.Providers[i]
			if p.Name != name {
				continue
			}
			if !slices.Contains(p.ModelList(), model) {
				return 0, "", fmt.Errorf("provider %q has no model %q; use %s", name, model, oneOf(p.ModelList()))
			}
			return i, model, nil
		}
	}
	var found []int
	for i := range c.Providers {
		if slices.Contains(c.Providers[i].ModelList(), ref) {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return 0, "", fmt.Errorf("unknown model %q; use %s", ref, oneOf(c.modelRefs()))
	case 1:
		return found[0], ref, nil
	}
	spellings := make([]string, len(found))
	for j, i := range found {
		spellings[j] = c.Providers[i].Name + "/" + ref
	}
	return 0, "", fmt.Errorf("model %q is offered by several providers; use %s", ref, oneOf(spellings))
}

// modelRefs lists every reference ResolveModel accepts, in a stable order:
// each provider's name, then its "provider/model" spellings.
func (c *Config) modelRefs() []string {
	var refs []string
	for i := range c.Providers {
		p := &c.Providers[i]
		refs = append(refs, p.Name)
		for _, m := range p.ModelList() {
			refs = append(refs, p.Name+"/"+m)
		}
	}
	return refs
}
