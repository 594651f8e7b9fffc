package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/tool"
)

func TestNewTools(t *testing.T) {
	t.Parallel()
	tools, _ := newTestTools(t, Options{})
	want := map[string]bool{ // name -> read-only
		"read_file": true, "write_file": false, "edit_file": false, "move_file": false,
		"bash": false, "ls": true, "glob": true, "grep": true,
	}
	if len(tools) != len(want) {
		t.Fatalf("got %d tools, want %d", len(tools), len(want))
	}
	for name, readOnly := range want {
		t.Run(name, func(t *testing.T) {
			tl, ok := tools[name]
			if !ok {
				t.Fatalf("got no %s tool, want one", name)
			}
			if got := tl.ReadOnly(); got != readOnly {
				t.Errorf("got ReadOnly %v, want %v", got, readOnly)
			}
			if tl.Description() == "" {
				t.Error("got an empty description")
			}
			checkSchema(t, tl)
		})
	}
}

// checkSchema checks the shape every built-in schema must have.
func checkSchema(t *testing.T, tl tool.Tool) {
	t.Helper()
	var s struct {
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
	}
	dec := json.NewDecoder(bytes.NewReader(tl.Schema()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Errorf("got type %q additionalProperties %v, want object and false", s.Type, s.AdditionalProperties)
	}
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok {
			t.Errorf("required %q is not a property", r)
		}
	}
	for name, raw := range s.Properties {
		var p struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal(raw, &p); err != nil || p.Type == "" || p.Description == "" {
			t.Errorf("property %q: got %s, want a type and a description", name, raw)
		}
	}
	// With nothing given, a tool with required fields must say which.
	if len(s.Required) > 0 {
		_, err := call(t, tl, `{}`)
		var ae *tool.ArgsError
		if !errors.As(err, &ae) {
			t.Errorf("got %v for {}, want a *tool.ArgsError", err)
		}
	}
}

func TestSpecsAreStable(t *testing.T) {
	t.Parallel()
	specs := func(opts Options) []byte {
		t.Helper()
		tools, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := tool.NewRegistry(tools...)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(reg.Specs())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := specs(Options{Root: t.TempDir()})
	tests := []struct {
		name string
		opts Options
	}{
		{"same options", Options{Root: t.TempDir()}},
		{"other root and forbid_read", Options{Root: t.TempDir(), ForbidRead: []string{"x"}, Shell: HostShell{}}},
		{"explicit defaults", Options{Root: t.TempDir(), BashTimeout: DefaultBashTimeout, MaxBashTimeout: DefaultMaxBashTimeout}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := specs(tt.opts); !bytes.Equal(got, first) {
				t.Errorf("got\n%s\nwant\n%s", got, first)
			}
		})
	}
	t.Run("bash limits show in the schema", func(t *testing.T) {
		got := specs(Options{Root: t.TempDir(), BashTimeout: time.Minute})
		if bytes.Equal(got, first) {
			t.Error("got the same specs for a different default timeout, want the bash schema to say it")
		}
	})
	t.Run("order", func(t *testing.T) {
		tools, err := New(Options{Root: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name())
		}
		want := []string{"read_file", "write_file", "edit_file", "move_file", "bash", "ls", "glob", "grep"}
		if !slices.Equal(names, want) {
			t.Errorf("got %v, want %v", names, want)
		}
	})
}
