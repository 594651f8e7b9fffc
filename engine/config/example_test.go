package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// examplePath is the documented example at the repository root.
const examplePath = "../../reasonix.example.toml"

func readExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatalf("reading the example: %v", err)
	}
	return string(data)
}

func TestExampleParses(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	c, err := Parse([]byte(readExample(t)), examplePath)
	if err != nil {
		t.Fatalf("got error %v, want the example to parse", err)
	}
	if _, ok := c.Repo("backend"); !ok {
		t.Errorf("got no example repo, want %q", "backend")
	}

	// The example claims to show the defaults: keep that true.
	d := wantDefaults(home)
	got := []struct {
		name      string
		got, want any
	}{
		{"default_model", c.DefaultModel, d.DefaultModel},
		{"providers", c.Providers, d.Providers},
		{"agent", c.Agent, d.Agent},
		{"permissions", normalizedPermissions(c.Permissions), d.Permissions},
		{"sandbox", normalizedSandbox(c.Sandbox), d.Sandbox},
		{"workspaces", c.Workspaces, d.Workspaces},
	}
	for _, tt := range got {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %+v, want the default %+v", tt.name, tt.got, tt.want)
		}
	}
}

func normalizedPermissions(p Permissions) Permissions {
	p.Allow, p.Ask, p.Deny = nilIfEmpty(p.Allow), nilIfEmpty(p.Ask), nilIfEmpty(p.Deny)
	return p
}

func normalizedSandbox(s Sandbox) Sandbox {
	s.AllowWrite, s.ForbidRead = nilIfEmpty(s.AllowWrite), nilIfEmpty(s.ForbidRead)
	return s
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestExampleSecondVendorParses uncomments the example's second vendor and
// checks that it works as documented.
func TestExampleSecondVendorParses(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("OTHER_LLM_API_KEY", "k")
	var out []string
	inBlock, found := false, false
	for _, line := range strings.Split(readExample(t), "\n") {
		if line == "# [[providers]]" {
			inBlock, found = true, true
		}
		if inBlock && !strings.HasPrefix(line, "#") {
			inBlock = false
		}
		if inBlock {
			line = strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
		}
		out = append(out, line)
	}
	if !found {
		t.Fatalf("got no commented [[providers]] block, want the example second vendor")
	}
	c, err := Parse([]byte(strings.Join(out, "\n")), examplePath)
	if err != nil {
		t.Fatalf("got error %v, want the uncommented vendor to parse", err)
	}
	for _, ref := range []string{"other", "other/other-coder-large", "other-coder-large"} {
		m, err := c.ResolveModel(ref)
		if err != nil {
			t.Fatalf("ResolveModel(%q): got error %v, want none", ref, err)
		}
		if m.Provider.Name != "other" || m.Provider.Model != "other-coder-large" || m.Provider.APIKey != "k" {
			t.Errorf("ResolveModel(%q): got %+v, want provider other, model other-coder-large", ref, m.Provider)
		}
	}
}

// TestExampleDocumentsEveryKey walks the Config structs and checks that each
// toml key appears in the example, set or commented out.
func TestExampleDocumentsEveryKey(t *testing.T) {
	t.Parallel()
	example := readExample(t)
	tags := map[string]bool{}
	collectTags(reflect.TypeFor[Config](), tags)
	for _, want := range []string{"default_model", "providers", "cache_hit", "forge_api_url", "fetch_interval"} {
		if !tags[want] {
			t.Fatalf("got keys %v, want them to include %q", tags, want)
		}
	}
	for tag := range tags {
		// A key assignment ("tag =", possibly dotted or commented out) or a
		// table header naming it ("[tag]", "[[tag]]", "[a.tag.b]").
		re := regexp.MustCompile(`(?m)^[#\s]*(?:` + regexp.QuoteMeta(tag) + `\s*=|\[\[?([\w."-]+\.)?` + regexp.QuoteMeta(tag) + `[.\]])`)
		if !re.MatchString(example) {
			t.Errorf("key %q: not found in %s, want every key documented", tag, examplePath)
		}
	}
}

func collectTags(t reflect.Type, tags map[string]bool) {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		collectTags(t.Elem(), tags)
	case reflect.Struct:
		if t == reflect.TypeFor[Duration]() {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if tag := f.Tag.Get("toml"); tag != "" && tag != "-" {
				tags[tag] = true
				collectTags(f.Type, tags)
			}
		}
	}
}

// TestDocsExamplesParse parses every TOML block of docs/configuration.md so
// the reference cannot show a configuration that Reasonix rejects.
func TestDocsExamplesParse(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	data, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatalf("reading the reference: %v", err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) == 0 {
		t.Fatalf("got no toml blocks in docs/configuration.md, want some")
	}
	for i, b := range blocks {
		if _, err := Parse([]byte(b[1]), "configuration.md"); err != nil {
			t.Errorf("block %d: got error %v, want none", i+1, err)
		}
	}
}
