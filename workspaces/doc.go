// Package workspaces gives every chat thread a private working copy of a
// team repository: one bare mirror per repository, one git worktree per
// thread on its own branch (reasonix/<short id>), and the way out for the
// thread's work — commits, a pushed branch and a pull or merge request.
//
// The git CLI does the heavy, mirror-wide work (clone --mirror, fetch,
// worktree add/remove/prune); go-git works in process on a single worktree
// (status, commit, push over https). Metadata for each workspace is kept as a
// JSON file next to its worktree so List and GC work after a restart.
//
// The package imports neither engine/ nor bots/; cmd/ maps the configuration
// into Options and Repo, and bots/ drives a Manager.
package workspaces
