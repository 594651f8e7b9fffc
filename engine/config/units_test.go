package config

import (
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestDurationThroughTOML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src     string
		want    time.Duration
		wantErr bool
	}{
		{`d = "90s"`, 90 * time.Second, false},
		{`d = "2h45m"`, 2*time.Hour + 45*time.Minute, false},
		{`d = " 5m "`, 5 * time.Minute, false},
		{`d = "0s"`, 0, false},
		{`d = "soon"`, 0, true},
		{`d = "-1s"`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			var v struct {
				D Duration `toml:"d"`
			}
			_, err := toml.Decode(tt.src, &v)
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			if err == nil && v.D.Duration != tt.want {
				t.Errorf("got %v, want %v", v.D.Duration, tt.want)
			}
		})
	}
}

func TestByteSizeThroughTOML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src     string
		want    ByteSize
		wantErr bool
	}{
		{`s = 0`, 0, false},
		{`s = 4096`, 4096, false},
		{`s = "512MB"`, 512_000_000, false},
		{`s = "20GiB"`, 20 << 30, false},
		{`s = "1.5G"`, 1_500_000_000, false},
		{`s = "10 kib"`, 10 << 10, false},
		{`s = "7b"`, 7, false},
		{`s = "2T"`, 2_000_000_000_000, false},
		{`s = "huge"`, 0, true},
		{`s = "-1GB"`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			var v struct {
				S ByteSize `toml:"s"`
			}
			_, err := toml.Decode(tt.src, &v)
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			if err == nil && v.S != tt.want {
				t.Errorf("got %d, want %d", v.S, tt.want)
			}
		})
	}
}

func TestUnitsThroughParse(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	c, err := Parse([]byte("[workspaces]\nttl = \"36h\"\nmax_disk = \"20GiB\"\nfetch_interval = \"90s\"\n[agent]\nbash_timeout = \"10m\"\n"), "reasonix.toml")
	if err != nil {
		t.Fatalf("got error %v, want none", err)
	}
	if c.Workspaces.TTL.Duration != 36*time.Hour || c.Workspaces.MaxDisk != 20<<30 ||
		c.Workspaces.FetchInterval.Duration != 90*time.Second || c.Agent.BashTimeout.Duration != 10*time.Minute {
		t.Errorf("got workspaces %+v agent %+v, want ttl 36h, max_disk 20GiB, fetch_interval 90s, bash_timeout 10m", c.Workspaces, c.Agent)
	}
}
