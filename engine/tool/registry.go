package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/reasonix/teams/engine/provider"
)

// Registry is the set of tools of one session. Its Specs are computed once,
// with canonicalized schemas and a stable order, so the tool block of every
// request of the session is byte-identical.
type Registry struct {
	tools map[string]Tool
	specs []provider.ToolSpec
}

// NewRegistry builds a registry. Duplicate names and schemas that are not
// valid JSON objects are errors.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{tools: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		if _, dup := r.tools[t.Name()]; dup {
			return nil, fmt.Errorf("tool %q registered twice", t.Name())
		}
		schema, err := Canonical(t.Schema())
		if err != nil {
			return nil, fmt.Errorf("tool %q: schema: %w", t.Name(), err)
		}
		r.tools[t.Name()] = t
		r.specs = append(r.specs, provider.ToolSpec{Name: t.Name(), Description: t.Description(), Parameters: schema})
	}
	sort.Slice(r.specs, func(i, j int) bool { return r.specs[i].Name < r.specs[j].Name })
	return r, nil
}

// Lookup returns the named tool.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Specs returns the tool block for requests. Callers must not modify it.
func (r *Registry) Specs() []provider.ToolSpec { return r.specs }

// Names lists tool names in spec order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.specs))
	for i, s := range r.specs {
		names[i] = s.Name
	}
	return names
}

// Canonical re-encodes a JSON document with sorted object keys and no
// insignificant whitespace, so equal schemas have equal bytes.
func Canonical(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("schema must be a JSON object")
	}
	// encoding/json sorts map keys, which is what makes this canonical.
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
