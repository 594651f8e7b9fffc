package bots

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reasonix/teams/engine/controller"
	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/workspaces"
)

// helpText answers `help` in a thread.
const helpText = "**Reasonix** works on this thread's own branch of the repository.\n" +
	"• Mention me with a task to start: `@reasonix fix the flaky TestLogin` (add `repo=NAME` or `branch=BASE` to pick them).\n" +
	"• Reply in the thread to continue; a reply while I'm working steers the current run.\n" +
	"• Commands in the thread: `stop` (cancel the run), `status` (repo, branch, tokens, cache, cost), `diff` (the changes so far), `pr` (commit, push and open or update the pull request), `new` (fresh session and workspace), `help`.\n" +
	"• Risky actions wait for Approve / Deny from the requester or an approver."

// plainError says what went wrong in words a chat user can act on, never
// leaking a secret.
func plainError(err error) string {
	var (
		auth    *provider.AuthError
		quota   *provider.QuotaError
		rate    *provider.RateLimitError
		long    *provider.ContextTooLongError
		trans   *provider.TransportError
		reqErr  *provider.RequestError
		choice  *repoChoiceError
		wsErr   *workspaceError
		prepErr *workspaces.PrepareError
	)
	switch {
	case errors.As(err, &choice):
		return choice.Error()
	case errors.As(err, &auth):
		return "❌ The model provider rejected our API key. An operator needs to fix it (`reasonix doctor` checks it)."
	case errors.As(err, &quota):
		return "❌ The model provider says our quota is exhausted. An operator needs to top up the account; nothing was lost, reply here to continue afterwards."
	case errors.As(err, &rate):
		return "❌ The model provider is rate-limiting us and retries ran out. Reply here in a minute to continue."
	case errors.As(err, &long):
		return "❌ This conversation no longer fits the model's context window. Say `new` to start a fresh session in this thread."
	case errors.As(err, &trans):
		return "❌ The model provider is unreachable or failing right now (" + trans.Error() + "). Reply here to try again."
	case errors.As(err, &reqErr):
		return "❌ The model provider rejected the request: " + reqErr.Message
	case errors.As(err, &prepErr):
		return "❌ I could not prepare a working copy of `" + prepErr.Repo + "`: " + prepareKind(prepErr.Kind) + "."
	case errors.As(err, &wsErr):
		return "❌ " + wsErr.Error()
	case errors.Is(err, controller.ErrBusy):
		return "A turn is already running in this thread."
	}
	return "❌ " + err.Error()
}

func prepareKind(k workspaces.Kind) string {
	switch k {
	case workspaces.KindAuth:
		return "the git server refused our credentials (check the repo's token_env)"
	case workspaces.KindUnknownBranch:
		return "that branch does not exist"
	case workspaces.KindNetwork:
		return "the git server is unreachable"
	case workspaces.KindDisk:
		return "the server's disk is full"
	}
	return "git failed (see the bot's log)"
}

// maxRateWaits bounds how often one post or update waits out a 429.
const maxRateWaits = 3

// postWithRetry posts, waiting out platform rate limits.
func postWithRetry(ctx context.Context, a Adapter, ref ThreadRef, m Message) (string, error) {
	for i := 0; ; i++ {
		id, err := a.Post(ctx, ref, m)
		if err == nil || !waitRateLimit(ctx, err, i) {
			return id, err
		}
	}
}

// updateWithRetry edits, waiting out platform rate limits.
func updateWithRetry(ctx context.Context, a Adapter, ref ThreadRef, id string, m Message) error {
	for i := 0; ; i++ {
		err := a.Update(ctx, ref, id, m)
		if err == nil || !waitRateLimit(ctx, err, i) {
			return err
		}
	}
}

// waitRateLimit sleeps for a rate-limit error's Retry-After and reports
// whether to try again.
func waitRateLimit(ctx context.Context, err error, attempt int) bool {
	var rl *RateLimitError
	if !errors.As(err, &rl) || attempt >= maxRateWaits {
		return false
	}
	wait := max(rl.RetryAfter, 100*time.Millisecond)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// diffStatLine summarizes a commit for the thread.
func diffStatLine(c workspaces.CommitResult) string {
	return fmt.Sprintf("%d file(s) changed, +%d −%d", c.FilesChanged, c.Insertions, c.Deletions)
}
