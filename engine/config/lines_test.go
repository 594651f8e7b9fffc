package config

import "testing"

const linesSource = `# comment
default_model = "deepseek"

[[providers]]
name = "a"
models = [
  "m1",
  "m2", # name = "x"
]
setup = """
name = "inside a string"
"""
[providers.prices.m1]
output = 1
[providers.prices."m-1.5"]
output = 2

[[providers]]
"name" = 'b'
prices.m3 = { output = 3 }

[agent]
max_steps = 5
sandbox.bash = "off"
`

func TestIndexLines(t *testing.T) {
	t.Parallel()
	ix := indexLines(linesSource)
	tests := []struct {
		name string
		path keyPath
		want int
	}{
		{"top-level key", keyPath{}.key("default_model"), 2},
		{"array of tables header", keyPath{}.key("providers").index(0), 4},
		{"key in first element", keyPath{}.key("providers").index(0).key("name"), 5},
		{"multi-line array", keyPath{}.key("providers").index(0).key("models"), 6},
		{"array element falls back to its key", keyPath{}.key("providers").index(0).key("models").index(1), 6},
		{"multi-line string", keyPath{}.key("providers").index(0).key("setup"), 10},
		{"sub-table of first element", keyPath{}.key("providers").index(0).key("prices").key("m1").key("output"), 14},
		{"quoted header", keyPath{}.key("providers").index(0).key("prices").key("m-1.5").key("output"), 16},
		{"second element", keyPath{}.key("providers").index(1), 18},
		{"quoted key", keyPath{}.key("providers").index(1).key("name"), 19},
		{"dotted key", keyPath{}.key("providers").index(1).key("prices").key("m3"), 20},
		{"inside inline table falls back", keyPath{}.key("providers").index(1).key("prices").key("m3").key("output"), 20},
		{"table key", keyPath{}.key("agent").key("max_steps"), 23},
		{"dotted key in table", keyPath{}.key("agent").key("sandbox").key("bash"), 24},
		{"missing key falls back to table", keyPath{}.key("agent").key("compact_ratio"), 22},
		{"unknown everywhere", keyPath{}.key("workspaces").key("dir"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ix.lineOf(tt.path); got != tt.want {
				t.Errorf("lineOf(%s): got %d, want %d", tt.path, got, tt.want)
			}
		})
	}
}

func TestIndexLinesSkipsStringContents(t *testing.T) {
	t.Parallel()
	ix := indexLines("setup = '''\nbogus = 1\n'''\nreal = 2\n")
	if got := ix.lineOf(keyPath{}.key("bogus")); got != 0 {
		t.Errorf("bogus: got line %d, want 0", got)
	}
	if got := ix.lineOf(keyPath{}.key("real")); got != 4 {
		t.Errorf("real: got line %d, want 4", got)
	}
}
