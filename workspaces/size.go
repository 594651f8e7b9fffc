package workspaces

import (
	"io/fs"
	"path/filepath"
)

// dirSize is the disk usage of everything under path, like du -s. Files
// that vanish while it walks are skipped.
func dirSize(path string) int64 {
	var total int64
	filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			total += diskUsage(fi)
		}
		return nil
	})
	return total
}
