//go:build !unix

package workspaces

import "io/fs"

// diskUsage is the space fi takes on disk; without block counts, its size.
func diskUsage(fi fs.FileInfo) int64 { return fi.Size() }
