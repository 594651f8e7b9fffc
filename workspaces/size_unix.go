//go:build unix

package workspaces

import (
	"io/fs"
	"syscall"
)

// diskUsage is the space fi takes on disk, as du counts it.
func diskUsage(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512
	}
	return fi.Size()
}
