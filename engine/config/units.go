package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration written in TOML as a Go duration string
// ("90s", "30m", "2h45m").
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("%q is not a duration; write it like \"90s\", \"30m\" or \"2h\"", string(b))
	}
	if v < 0 {
		return fmt.Errorf("%q: a duration cannot be negative", string(b))
	}
	d.Duration = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// ByteSize is a size in bytes written in TOML as a number with an optional
// unit: "512MB", "20GiB", "1.5G" (K/M/G/T are powers of 1000 with a B or
// alone; KiB/MiB/GiB/TiB are powers of 1024).
type ByteSize int64

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12},
	{"b", 1},
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *ByteSize) UnmarshalText(b []byte) error {
	text := strings.ToLower(strings.TrimSpace(string(b)))
	mult := 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(text, u.suffix) {
			text, mult = strings.TrimSpace(strings.TrimSuffix(text, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a size; write it like \"500MB\" or \"20GiB\"", string(b))
	}
	*s = ByteSize(n * mult)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (s ByteSize) MarshalText() ([]byte, error) { return []byte(strconv.FormatInt(int64(s), 10)), nil }
