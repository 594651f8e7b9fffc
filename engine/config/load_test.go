package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadResolutionOrder(t *testing.T) {
	const (
		explicitSrc = "[agent]\nmax_steps = 1\n"
		localSrc    = "[agent]\nmax_steps = 2\n"
		homeSrc     = "[agent]\nmax_steps = 3\n"
	)
	tests := []struct {
		name      string
		explicit  bool
		local     bool
		home      bool
		wantSteps int
		wantFrom  string // "explicit", "local", "home" or "" for defaults
	}{
		{"explicit beats the rest", true, true, true, 1, "explicit"},
		{"local beats home", false, true, true, 2, "local"},
		{"home when no local", false, false, true, 3, "home"},
		{"defaults when nothing", false, false, false, DefaultMaxSteps, ""},
		{"explicit alone", true, false, false, 1, "explicit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, work, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			t.Chdir(work)
			paths := map[string]string{
				"explicit": filepath.Join(elsewhere, "team.toml"),
				"local":    LocalFile,
				"home":     filepath.Join(home, ".reasonix", "config.toml"),
				"":         "",
			}
			if tt.local {
				writeFile(t, filepath.Join(work, LocalFile), localSrc)
			}
			if tt.home {
				writeFile(t, paths["home"], homeSrc)
			}
			explicit := ""
			if tt.explicit {
				explicit = paths["explicit"]
				writeFile(t, explicit, explicitSrc)
			}
			c, err := Load(explicit)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if c.Agent.MaxSteps != tt.wantSteps {
				t.Errorf("max_steps: got %d, want %d", c.Agent.MaxSteps, tt.wantSteps)
			}
			if want := paths[tt.wantFrom]; c.Source != want {
				t.Errorf("source: got %q, want %q", c.Source, want)
			}
		})
	}
}

func TestLoadExplicitMissing(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	writeFile(t, LocalFile, "") // must not be used instead
	missing := filepath.Join(t.TempDir(), "nope.toml")
	_, err := Load(missing)
	var cerr *Error
	if !errors.As(err, &cerr) {
		t.Fatalf("got %v (%T), want a *config.Error", err, err)
	}
	if cerr.File != missing || !strings.Contains(cerr.Msg, "not found") {
		t.Errorf("got %v, want a not-found error for %s", err, missing)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got errors.Is(err, fs.ErrNotExist) = false, want true")
	}
}

func TestLoadInvalidFileDoesNotFallBack(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Chdir(t.TempDir())
	writeFile(t, LocalFile, "[agent]\nbogus = true\n")
	writeFile(t, filepath.Join(home, ".reasonix", "config.toml"), "")
	_, err := Load("")
	want := "reasonix.toml:2: agent.bogus: unknown key; see reasonix.example.toml for the keys"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestLoadUnreadableLocalFile(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	if err := os.Mkdir(LocalFile, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load("")
	var cerr *Error
	if !errors.As(err, &cerr) || cerr.File != LocalFile || !strings.Contains(cerr.Msg, "cannot read") {
		t.Errorf("got %v, want a cannot-read *config.Error for %s", err, LocalFile)
	}
}

func TestSearchPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if got, want := SearchPaths(), []string{"reasonix.toml", filepath.Join(home, ".reasonix", "config.toml")}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	t.Setenv("HOME", "")
	if got, want := SearchPaths(), []string{"reasonix.toml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("without HOME: got %v, want %v", got, want)
	}
}
