package tool

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

type fakeTool struct {
	name   string
	schema string
}

func (f fakeTool) Name() string            { return f.name }
func (f fakeTool) Description() string     { return "d" }
func (f fakeTool) Schema() json.RawMessage { return json.RawMessage(f.schema) }
func (f fakeTool) ReadOnly() bool          { return true }
func (f fakeTool) Execute(context.Context, json.RawMessage) (Result, error) {
	return Result{}, nil
}

func TestRegistrySpecsAreCanonicalAndSorted(t *testing.T) {
	t.Parallel()
	a, err := NewRegistry(fakeTool{"zeta", `{ "type":"object", "properties": {"b":{"type":"string"},"a":{"type":"integer"}} }`}, fakeTool{"alpha", `{"type":"object"}`})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewRegistry(fakeTool{"alpha", `{"type": "object"}`}, fakeTool{"zeta", `{"properties":{"a":{"type":"integer"},"b":{"type":"string"}},"type":"object"}`})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a.Specs())
	jb, _ := json.Marshal(b.Specs())
	if string(ja) != string(jb) {
		t.Errorf("equal tool sets gave different bytes:\n%s\n%s", ja, jb)
	}
	if got := a.Names(); got[0] != "alpha" || got[1] != "zeta" {
		t.Errorf("names = %v, want sorted", got)
	}
}

func TestRegistryRejectsBadTools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tools []Tool
	}{
		{"duplicate", []Tool{fakeTool{"a", `{}`}, fakeTool{"a", `{}`}}},
		{"invalid schema", []Tool{fakeTool{"a", `{`}}},
		{"schema not an object", []Tool{fakeTool{"a", `[]`}}},
	}
	for _, tt := range tests {
		if _, err := NewRegistry(tt.tools...); err == nil {
			t.Errorf("%s: got nil error", tt.name)
		}
	}
}

func TestDecodeArgsIsStrict(t *testing.T) {
	t.Parallel()
	var v struct {
		Path string `json:"path"`
	}
	err := DecodeArgs("read_file", json.RawMessage(`{"path":"a","extra":1}`), &v)
	var ae *ArgsError
	if !errors.As(err, &ae) || ae.Tool != "read_file" {
		t.Errorf("got %v, want an ArgsError for read_file", err)
	}
}
