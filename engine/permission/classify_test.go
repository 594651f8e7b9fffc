package permission

import "testing"

func TestReadOnlyClassifier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		want bool
	}{
		{"ls -la src", true},
		{"cat a b", true},
		{"head -n 5 f", true},
		{"tail -20 f", true},
		{"wc -l f", true},
		{"grep -rn foo .", true},
		{"rg foo", true},
		{"rg --pre cat foo", false},
		{"egrep x f", true},
		{"find . -name '*.go'", true},
		{"find . -name x -delete", false},
		{"find . -fprint out", false},
		{"find . -exec ls {} ;", false},
		{"tree -L 2", true},
		{"tree -o out", false},
		{"pwd", true},
		{"echo hi", true},
		{"printf '%s\\n' x", true},
		{"which go", true},
		{"file a", true},
		{"stat a", true},
		{"du -sh .", true},
		{"df -h", true},
		{"diff a b", true},
		{"sort -u f", true},
		{"sort -o f f", false},
		{"sort --output=f f", false},
		{"uniq -c f", true},
		{"uniq in out", false},
		{"cut -d: -f1 f", true},
		{"tr a-z A-Z", true},
		{"jq .x f.json", true},
		{"sed -n '1,5p' f", true},
		{"sed 's/a/b/g' f", true},
		{"sed -e 's#a#b#' -e '/x/d' f", true},
		{"sed -i 's/a/b/' f", false},
		{"sed -i.bak 's/a/b/' f", false},
		{"sed --in-place 's/a/b/' f", false},
		{"sed 's/a/b/w out' f", false},
		{"sed '/x/w out' f", false},
		{"sed -f script.sed f", false},
		{"awk '{print $1}' f", true},
		{"awk -F: '{print $1}' f", true},
		{"awk '{print > \"out\"}' f", false},
		{"awk '$1 > 3' f", false},
		{"awk '{print | \"sh\"}' f", false},
		{"git status", true},
		{"git diff --stat", true},
		{"git diff --output=x", false},
		{"git log --oneline -5", true},
		{"git show HEAD", true},
		{"git branch", true},
		{"git branch -a -v", true},
		{"git branch --list 'feat/*'", true},
		{"git branch newbranch", false},
		{"git branch -d old", false},
		{"git branch -D old", false},
		{"git branch -m a b", false},
		{"git rev-parse HEAD", true},
		{"git ls-files", true},
		{"git blame f", true},
		{"git grep foo", true},
		{"git grep -O foo", false},
		{"git -C sub status", false}, // another repository's config could run a program
		{"git --no-pager log", true},
		{"git commit -m x", false},
		{"git push", false},
		{"git checkout x", false},
		{"go vet ./...", true},
		{"go list ./...", true},
		{"go version", true},
		{"go env GOPATH", true},
		{"go env -w GOFLAGS=x", false},
		{"go build ./...", false},
		{"go test ./...", false},
		{"gofmt -l .", true},
		{"gofmt -d x.go", true},
		{"gofmt -w x.go", false},
		{"gofmt -l -w x.go", false},
		{"date", true},
		{"date -s 2020", false},
		{"set -euo pipefail", true},
		{"cd sub", true},
		{"true", true},
		{"test -f x", true},
		{"[ -f x ]", true},
		{"./ls", false},
		{"make", false},
		{"rm x", false},
		{"touch x", false},
		{"tee x", false},
		{"X=1", true},
		{"PATH=/x", false},
		{"> x", false},
		{"echo hi >/dev/null", true},
		{"ls 2>&1", true},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			s, err := splitCommand(tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			an := &analyzer{root: testRoot}
			cmds := an.commands(s)
			if len(cmds) != 1 {
				t.Fatalf("got %d commands, want 1", len(cmds))
			}
			if got := cmds[0].readOnly; got != tt.want {
				t.Errorf("got read-only %v, want %v (indirect %q)", got, tt.want, cmds[0].indirect)
			}
		})
	}
}

func TestSedAnalyze(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script               string
		writes, executes, ok bool
	}{
		{"p", false, false, true},
		{"1,5p", false, false, true},
		{"/a/,/b/d", false, false, true},
		{"$!N;P;D", false, false, true},
		{"s/a/b/g", false, false, true},
		{`s/a\/b/c/`, false, false, true},
		{"s|a|b|w out", true, false, true},
		{"s/a/b/e", false, true, true},
		{"e ls", false, true, true},
		{"w out", true, false, true},
		{"/x/{p;d}", false, false, true},
		{"y/abc/xyz/", false, false, true},
		{"a hello", false, false, true},
		{"1~2p", false, false, true},
		{"s/a/b", false, false, false},
		{"k", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			t.Parallel()
			w, e, ok := sedAnalyze(tt.script)
			if w != tt.writes || e != tt.executes || ok != tt.ok {
				t.Errorf("got writes=%v executes=%v ok=%v, want %v %v %v", w, e, ok, tt.writes, tt.executes, tt.ok)
			}
		})
	}
}
