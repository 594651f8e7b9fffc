package permission

import (
	"reflect"
	"testing"
)

func TestArithmeticIndirect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line     string
		indirect []string
	}{
		{line: "echo $((1 + (2 * 3)))"},
		{line: "echo $((0x1f + 16#ff + 2#101))"},
		{line: "echo $(($# - 1)) $(($?))"},
		{line: "echo $[1+2]"},
		{line: "(( 1 + 2 ))"},
		{line: "echo $((x))", indirect: []string{arithmeticReason}},
		{line: "echo $(($x + 1))", indirect: []string{arithmeticReason}},
		{line: "echo $(( 'a' ))", indirect: []string{arithmeticReason}},
		{line: `echo "$((x))"`, indirect: []string{arithmeticReason}},
		{line: "echo $[x]", indirect: []string{arithmeticReason}},
		{line: "echo $[a[$(id)]]", indirect: []string{"command substitution", arithmeticReason}},
		{line: "(( x++ ))", indirect: []string{arithmeticReason}},
		{line: "cat <<EOF\n$((x))\nEOF", indirect: []string{arithmeticReason}},
		{line: "echo ${a[x]}", indirect: []string{"array subscript"}},
		{line: "echo ${a[1]} ${a[-1]} ${a[@]} ${#a[*]} ${!a[@]} ${!pre*}"},
		{line: "echo ${x:1:2} ${x: -3} ${x:-d} ${x:=d} ${x#p} ${x//a/b} ${#x} ${@:2}"},
		{line: "echo ${x:n}", indirect: []string{"substring offset"}},
		{line: "echo ${!x}", indirect: []string{"indirect parameter expansion"}},
		{line: "echo ${x@P}", indirect: []string{"prompt expansion"}},
		{line: "echo ${x@Q}"},
		{line: "a=([k]=v)", indirect: []string{"array subscript"}},
		{line: "a=(1 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			t.Parallel()
			s, err := splitCommand(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.indirect, tt.indirect) {
				t.Errorf("indirect: got %q, want %q", s.indirect, tt.indirect)
			}
		})
	}
}

func TestArithmeticCommandFallsBackToSubshells(t *testing.T) {
	t.Parallel()
	s, err := splitCommand("((ls); (curl x))")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(s), []string{"ls", "curl|x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
