package permission

import (
	"reflect"
	"testing"
)

func TestOptionSpecParse(t *testing.T) {
	t.Parallel()
	spec := optionSpec{short: "nr", shortArg: "k", shortOpt: "I", long: []string{"--reverse"},
		longArg: []string{"--key"}, longOpt: []string{"--check"}, number: true}
	tests := []struct {
		name     string
		line     string
		ok       bool
		operands []string
	}{
		{name: "cluster", line: "-nr f", ok: true, operands: []string{"f"}},
		{name: "attached value", line: "-k2 f", ok: true, operands: []string{"f"}},
		{name: "separate value", line: "-k 2 f", ok: true, operands: []string{"f"}},
		{name: "value after cluster", line: "-nk 2", ok: true},
		{name: "optional attached", line: "-Iseconds", ok: true},
		{name: "number", line: "-5", ok: true},
		{name: "long", line: "--reverse --key=1 --key 2 --check --check=quiet", ok: true},
		{name: "end of options", line: "-- -o x", ok: true, operands: []string{"-o", "x"}},
		{name: "stdin operand", line: "-", ok: true, operands: []string{"-"}},
		{name: "unknown short", line: "-o x"},
		{name: "unknown in cluster", line: "-no x"},
		{name: "abbreviation", line: "--rev"},
		{name: "standalone long with value", line: "--reverse=1"},
		{name: "missing value", line: "-k"},
		{name: "value looks like an option", line: "-k --output=x"},
		{name: "expansion", line: "$opt f"},
		{name: "quoted expansion", line: `"$f"`},
		{name: "attached expansion", line: "-k$k"},
		{name: "leading wildcard", line: "*"},
		{name: "brace expansion", line: "{--output=x,f}"},
		{name: "expansion after end of options", line: "-- $f"},
		{name: "pattern after end of options", line: "-- *", ok: true, operands: []string{"*"}},
		{name: "quoted expansion value", line: `-k "$k" f`, ok: true, operands: []string{"f"}},
		{name: "split expansion value", line: "-k $k f"},
		{name: "quoted array value", line: `-k "${a[@]}" f`},
		{name: "quoted positional value", line: `-k "$@" f`},
		{name: "path pattern", line: "src/*.go", ok: true, operands: []string{"src/*.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := splitCommand("x " + tt.line)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := spec.parse(s.segments[0].words[1:])
			if ok != tt.ok {
				t.Fatalf("ok: got %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			var got []string
			for _, w := range p.operands {
				got = append(got, w.text)
			}
			if !reflect.DeepEqual(got, tt.operands) {
				t.Errorf("operands: got %q, want %q", got, tt.operands)
			}
		})
	}
}
