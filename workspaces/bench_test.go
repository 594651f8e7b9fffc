package workspaces

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkWorkspacePrepare compares a new thread's ready workspace (a
// worktree of a warm mirror) with a plain git clone of the same remote, on a
// generated repository of 10,000 files (~40 MB) with some history.
func BenchmarkWorkspacePrepare(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 40 MB repository")
	}
	ctx := context.Background()
	root := b.TempDir()
	bare := generateBenchRepo(b, root)
	m := newTestManager(b, Options{Dir: filepath.Join(root, "ws"), FetchInterval: time.Hour}, fileRepo("big", bare))
	prepare(b, m, "big", "warm-up") // clones the mirror

	const rounds = 3
	var prepareMS, cloneMS, diskRatio []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for round := range rounds {
			start := time.Now()
			ws, err := m.Prepare(ctx, "big", fmt.Sprintf("bench-%d-%d", i, round), "")
			if err != nil {
				b.Fatal(err)
			}
			prepareMS = append(prepareMS, ms(time.Since(start)))

			clone := filepath.Join(root, fmt.Sprintf("clone-%d-%d", i, round))
			start = time.Now()
			if out, err := exec.Command("git", "clone", "--quiet", "file://"+bare, clone).CombinedOutput(); err != nil {
				b.Fatalf("git clone: %v: %s", err, out)
			}
			cloneMS = append(cloneMS, ms(time.Since(start)))

			extra := dirSize(ws.Path) + dirSize(filepath.Join(m.mirrorPath("big"), "worktrees", ws.ID))
			checkout := dirSize(clone) - dirSize(filepath.Join(clone, ".git"))
			diskRatio = append(diskRatio, float64(extra)/float64(checkout))

			b.StopTimer()
			if err := m.Release(ctx, ws); err != nil {
				b.Fatal(err)
			}
			os.RemoveAll(clone)
			b.StartTimer()
		}
	}
	b.StopTimer()
	p, c := median(prepareMS), median(cloneMS)
	b.ReportMetric(p, "prepare_ms")
	b.ReportMetric(c, "clone_ms")
	b.ReportMetric(c/p, "speedup")
	b.ReportMetric(median(diskRatio), "extra_disk_ratio")
}

// generateBenchRepo writes 10,000 files of about 4 KB of pseudo-random
// text in four commits, and returns a packed bare copy.
func generateBenchRepo(b *testing.B, root string) string {
	b.Helper()
	start := time.Now()
	src := filepath.Join(root, "src")
	runGit(b, root, "init", "--quiet", "-b", "main", src)
	rng := rand.New(rand.NewSource(1))
	const files, commits = 10000, 4
	line := make([]byte, 0, 80)
	for c := range commits {
		for i := c; i < files; i += commits {
			var sb strings.Builder
			for sb.Len() < 4000 {
				line = line[:0]
				for range 9 {
					line = fmt.Appendf(line, "%08x ", rng.Uint32())
				}
				sb.Write(line)
				sb.WriteByte('\n')
			}
			name := filepath.Join(src, fmt.Sprintf("pkg%02d", i%100), fmt.Sprintf("file%05d.txt", i))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		runGit(b, src, "add", "-A")
		runGit(b, src, "commit", "--quiet", "-m", fmt.Sprintf("commit %d", c+1))
	}
	bare := filepath.Join(root, "remote.git")
	runGit(b, root, "clone", "--quiet", "--bare", src, bare)
	runGit(b, bare, "repack", "-a", "-d", "-q")
	os.RemoveAll(src)
	b.Logf("generated %d files in %d commits in %v", files, commits, time.Since(start).Round(time.Millisecond))
	return bare
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
