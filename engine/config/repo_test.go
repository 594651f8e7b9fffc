package config

import (
	"testing"
)

func TestForgeFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, want string
	}{
		{"https://github.com/org/repo.git", "github"},
		{"https://www.github.com/org/repo", "github"},
		{"https://GitHub.com/org/repo", "github"},
		{"git@github.com:org/repo.git", "github"},
		{"ssh://git@github.com/org/repo.git", "github"},
		{"https://gitlab.com/group/sub/repo.git", "gitlab"},
		{"git@gitlab.com:group/repo.git", "gitlab"},
		{"https://git.example.com/org/repo.git", "none"},
		{"https://github.example.com/org/repo.git", "none"},
		{"file:///srv/git/repo.git", "none"},
		{"/srv/git/repo.git", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			if got := forgeFor(tt.url); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckRepoURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url string
		ok  bool
	}{
		{"https://github.com/org/repo.git", true},
		{"http://git.internal/org/repo.git", true},
		{"ssh://git@host:2222/org/repo.git", true},
		{"git@host:org/repo.git", true},
		{"deploy@host.example:repo", true},
		{"file:///srv/git/repo.git", true},
		{"/srv/git/repo.git", true},
		{"", false},
		{"repo.git", false},
		{"./repo.git", false},
		{"https:///nohost", false},
		{"file://", false},
		{"svn://host/repo", false},
		{"git@host", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			msg := checkRepoURL(tt.url)
			if (msg == "") != tt.ok {
				t.Errorf("got %q, want ok=%v", msg, tt.ok)
			}
		})
	}
}

func TestRepoDefaultsAndLookup(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	src := `
[[repos]]
name = "web"
url = "git@github.com:org/web.git"

[[repos]]
name = "infra"
url = "https://gitlab.com/org/infra.git"
default_branch = "trunk"

[[repos]]
name = "local"
url = "file:///srv/git/local.git"

[[repos]]
name = "mirror"
url = "https://github.com/org/mirror.git"
forge = "none"
token_env = "MIRROR_TOKEN"
setup = "make deps"
`
	c, err := Parse([]byte(src), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	tests := []struct {
		name       string
		wantBranch string
		wantForge  string
	}{
		{"web", "main", "github"},
		{"infra", "trunk", "gitlab"},
		{"local", "main", "none"},
		{"mirror", "main", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := c.Repo(tt.name)
			if !ok {
				t.Fatalf("got no repo %q, want one", tt.name)
			}
			if r.Name != tt.name || r.DefaultBranch != tt.wantBranch || r.Forge != tt.wantForge {
				t.Errorf("got %+v, want name %s branch %s forge %s", r, tt.name, tt.wantBranch, tt.wantForge)
			}
		})
	}
	if r, ok := c.Repo("mirror"); !ok || r.TokenEnv != "MIRROR_TOKEN" || r.Setup != "make deps" {
		t.Errorf("got %+v, want token_env MIRROR_TOKEN and setup kept", r)
	}
	if _, ok := c.Repo("missing"); ok {
		t.Errorf("got a repo for %q, want none", "missing")
	}
}
