package workspaces

import (
	"context"
	"sort"
	"time"
)

// List returns every workspace with metadata, with its size on disk and how
// long it has been idle, ordered by thread id. Unreadable metadata is
// skipped (GC removes it).
func (m *Manager) List(ctx context.Context) ([]Workspace, error) {
	entries, err := m.scanThreads()
	if err != nil {
		return nil, err
	}
	out := make([]Workspace, 0, len(entries.metas))
	for _, id := range entries.metas {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ws, err := m.loadMeta(id)
		if err != nil {
			m.log.Warn("workspaces: unreadable metadata", "id", id, "err", err)
			continue
		}
		ws.Size = dirSize(ws.Path)
		ws.Idle = time.Since(ws.LastUsed)
		out = append(out, *ws)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ThreadID < out[j].ThreadID })
	return out, nil
}
