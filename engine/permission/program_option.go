package permission

import "strings"

// programFlag is an option whose value is a program the command runs.
type programFlag struct {
	long  string // the option in full
	min   int    // the shortest abbreviation the program accepts for it
	short byte   // its short form, 0 if none
}

// programOptions lists, per program, the options that run another program.
// Such a call is indirect, and the program named is split so deny rules see
// it (sort --compress-program=curl meets a rule for curl). GNU getopt takes
// any unambiguous abbreviation of a long option, hence min.
var programOptions = map[string][]programFlag{
	"sort": {{long: "--compress-program", min: len("--co")}},
	"rg":   {{long: "--pre", min: len("--pre")}, {long: "--hostname-bin", min: len("--hostname-bin")}},
	"go": {{long: "-toolexec", min: len("-toolexec")}, {long: "--toolexec", min: len("--toolexec")},
		{long: "-vettool", min: len("-vettool")}, {long: "--vettool", min: len("--vettool")},
		{long: "-exec", min: len("-exec")}, {long: "--exec", min: len("--exec")}},
}

// programOption reports the first option in args that runs a program,
// labelled for the reason, and hands the program to deny matching. An
// expansion among the arguments could be such an option, so it counts too.
func (a *analyzer) programOption(c *command, label string, args []word, flags []programFlag) string {
	for i, w := range args {
		t := w.text
		if w.dynamic {
			// "$opt" may be --compress-program=curl, out of deny rules' sight.
			return label + " option from an expansion"
		}
		for _, f := range flags {
			name, val, hasVal := strings.Cut(t, "=")
			switch {
			case len(name) >= f.min && strings.HasPrefix(f.long, name):
				if !hasVal && i+1 < len(args) {
					val = args[i+1].text
				}
			case f.short != 0 && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t[1:], f.short) >= 0:
				val = t[1+strings.IndexByte(t[1:], f.short)+1:]
			default:
				continue
			}
			if val != "" {
				a.inlineCode(c, val)
			}
			return label + " " + f.long
		}
	}
	return ""
}
