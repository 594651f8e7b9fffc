package config

import "testing"

func TestKeyPathString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path keyPath
		want string
	}{
		{"empty", nil, ""},
		{"top level", keyPath{}.key("default_model"), "default_model"},
		{"indexed", keyPath{}.key("providers").index(0).key("kind"), "providers[0].kind"},
		{"quoted segment", keyPath{}.key("providers").index(2).key("prices").key("m-1.5").key("output"), `providers[2].prices."m-1.5".output`},
		{"empty segment", keyPath{}.key(""), `""`},
		{"list element", keyPath{}.key("sandbox").key("allow_write").index(3), "sandbox.allow_write[3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.path.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKeyPathDoesNotAlias(t *testing.T) {
	t.Parallel()
	base := make(keyPath, 1, 8)
	base[0] = "repos"
	a, b := base.index(0), base.index(1)
	if a.String() != "repos[0]" || b.String() != "repos[1]" {
		t.Errorf("got %q and %q, want repos[0] and repos[1]", a, b)
	}
}
