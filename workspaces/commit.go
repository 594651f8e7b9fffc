package workspaces

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Author is the person a commit is made for: the chat user who asked.
type Author struct {
	Name  string
	Email string
}

// FileStat is one file's share of a commit.
type FileStat struct {
	Path       string
	Insertions int
	Deletions  int
}

// CommitResult describes what Commit recorded. Committed is false, and the
// rest empty, when there was nothing to commit.
type CommitResult struct {
	Committed    bool
	Hash         string
	FilesChanged int
	Insertions   int
	Deletions    int
	Files        []FileStat
}

// defaultCommitMessage is used when Commit is given an empty message.
const defaultCommitMessage = "Changes made by Reasonix"

// Commit stages every change in ws (new, modified and deleted files, except
// what .gitignore excludes) and commits it on the thread branch as the bot
// identity, crediting author with a Co-authored-by trailer when both their
// name and email are known. Nothing to commit is not an error: the result
// has Committed false.
func (m *Manager) Commit(ctx context.Context, ws *Workspace, message string, author Author) (CommitResult, error) {
	unlock, err := m.threadLocks.lock(ctx, ws.ID)
	if err != nil {
		return CommitResult{}, err
	}
	defer unlock()
	cur, err := m.current(ws)
	if err != nil {
		return CommitResult{}, err
	}
	res, err := m.commitLocked(cur, message, author)
	if err != nil {
		return CommitResult{}, fmt.Errorf("commit in workspace of thread %s: %w", cur.ThreadID, err)
	}
	if err := m.touch(cur); err != nil {
		return res, err
	}
	if res.Committed {
		m.log.Info("workspaces: committed", "repo", cur.Repo, "thread", cur.ThreadID, "branch", cur.Branch,
			"commit", res.Hash, "files", res.FilesChanged)
	}
	return res, nil
}

func (m *Manager) commitLocked(ws *Workspace, message string, author Author) (CommitResult, error) {
	repo, err := openWorktree(ws.Path)
	if err != nil {
		return CommitResult{}, err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return CommitResult{}, err
	}
	st, err := wt.Status()
	if err != nil {
		return CommitResult{}, fmt.Errorf("status: %w", err)
	}
	if st.IsClean() {
		return CommitResult{}, nil
	}
	// AddOptions.All stages through Status, which leaves out untracked files
	// matched by .gitignore, and records deletions too.
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return CommitResult{}, fmt.Errorf("stage changes: %w", err)
	}
	bot := &object.Signature{Name: m.opts.CommitName, Email: m.opts.CommitEmail, When: time.Now()}
	hash, err := wt.Commit(commitMessage(message, author), &git.CommitOptions{Author: bot, Committer: bot})
	if errors.Is(err, git.ErrEmptyCommit) {
		return CommitResult{}, nil
	}
	if err != nil {
		return CommitResult{}, err
	}
	c, err := repo.CommitObject(hash)
	if err != nil {
		return CommitResult{}, err
	}
	stats, err := c.Stats()
	if err != nil {
		return CommitResult{}, fmt.Errorf("diff stat of %s: %w", hash, err)
	}
	res := CommitResult{Committed: true, Hash: hash.String(), FilesChanged: len(stats)}
	for _, s := range stats {
		res.Files = append(res.Files, FileStat{Path: s.Name, Insertions: s.Addition, Deletions: s.Deletion})
		res.Insertions += s.Addition
		res.Deletions += s.Deletion
	}
	return res, nil
}

// openWorktree opens a linked worktree in process. EnableDotGitCommonDir
// makes go-git follow the worktree's "commondir" to the mirror's objects
// and refs while keeping HEAD and the index per worktree.
func openWorktree(path string) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(path, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("open worktree %s: %w", path, err)
	}
	return repo, nil
}

// commitMessage is message with a Co-authored-by trailer for author.
func commitMessage(message string, author Author) string {
	message = strings.TrimSpace(message)
	if message == "" {
		message = defaultCommitMessage
	}
	name := strings.TrimSpace(author.Name)
	email := strings.TrimSpace(author.Email)
	if name == "" || email == "" || strings.ContainsAny(name+email, "<>\n") {
		return message + "\n"
	}
	return fmt.Sprintf("%s\n\nCo-authored-by: %s <%s>\n", message, name, email)
}
