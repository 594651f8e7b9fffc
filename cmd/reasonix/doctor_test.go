package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseGitVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want [2]int
		ok   bool
	}{
		{"git version 2.39.5", [2]int{2, 39}, true},
		{"git version 2.30.0.windows.1", [2]int{2, 30}, true},
		{"git version 1.8", [2]int{1, 8}, true},
		{"no version here", [2]int{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, ok := parseGitVersion(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %v %v, want %v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestDoctorExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("default_model = \"nope\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		out  string // substring of stdout
	}{
		{name: "bad flag", args: []string{"--bogus"}, code: exitUsage},
		{name: "stray argument", args: []string{"extra"}, code: exitUsage},
		{name: "invalid config", args: []string{"--config", bad}, code: exitFailed, out: "FAIL  config   invalid: "},
		{name: "missing config", args: []string{"--config", filepath.Join(dir, "none.toml")}, code: exitFailed, out: "FAIL  config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := runDoctor(context.Background(), tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.out) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.out)
			}
		})
	}
}
