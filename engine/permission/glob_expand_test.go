package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// A pattern operand is safe exactly when nothing it matches in the
// workspace could be read as an option.
func TestLeadingWildcardsAreCheckedAgainstTheWorkspace(t *testing.T) {
	t.Parallel()
	clean := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "notes.txt"} {
		os.WriteFile(filepath.Join(clean, f), nil, 0o644)
	}
	trap := t.TempDir()
	for _, f := range []string{"a.go", "--compress-program=sh", "--pre=sh.go"} {
		os.WriteFile(filepath.Join(trap, f), nil, 0o644)
	}
	tests := []struct {
		name     string
		root     string
		cmd      string
		want     Verdict
		readOnly bool
	}{
		{"rg over go files", clean, `rg foo *.go`, Allow, true},
		{"sort all files", clean, `sort *`, Allow, true},
		{"no match passes the pattern literally", clean, `wc -l *.rs`, Allow, true},
		{"sort with an option-named file", trap, `sort *`, Ask, false},
		{"rg with an option-named go file", trap, `rg foo *.go`, Ask, false},
		{"uniq with an option-named file", trap, `uniq *`, Ask, false},
		{"find value with an option-named file", trap, `find . -name *`, Ask, false},
		{"brace patterns are never expanded", clean, `sort {a,b}*`, Ask, false},
		{"after cd the directory is unknown", clean, `cd sub && sort *`, Ask, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := NewPolicy(Rules{}, PostureAsk, tt.root)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Check(bash(tt.cmd))
			if d.Verdict != tt.want || d.ReadOnly != tt.readOnly {
				t.Errorf("%q: got %v read-only=%v (%s), want %v read-only=%v", tt.cmd, d.Verdict, d.ReadOnly, d.Rule, tt.want, tt.readOnly)
			}
		})
	}
}
