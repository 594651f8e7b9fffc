package bots

import "slices"

// Access decides who may use the bot and who may approve. Entries are
// "platform:id".
type Access struct {
	// Users may talk to the bot; empty means anyone in an allowed channel.
	Users []string
	// Channels the bot answers in ("platform:channel"); empty means any.
	Channels []string
	// Approvers may approve in any thread; Admins may too.
	Approvers []string
	Admins    []string
	// RequesterCanApprove lets the person who started a thread approve
	// its actions.
	RequesterCanApprove bool
}

func qualified(platform, id string) string { return platform + ":" + id }

// MayUse reports whether user may start or continue work in ref's channel.
func (a Access) MayUse(ref ThreadRef, user User) bool {
	if len(a.Channels) > 0 && !slices.Contains(a.Channels, ref.ChannelKey()) {
		return false
	}
	if len(a.Users) == 0 {
		return true
	}
	q := qualified(ref.Platform, user.ID)
	return slices.Contains(a.Users, q) || slices.Contains(a.Admins, q) || slices.Contains(a.Approvers, q)
}

// MayApprove reports whether presser may decide an approval in a thread
// started by requester.
func (a Access) MayApprove(platform string, presser, requester User) bool {
	q := qualified(platform, presser.ID)
	if slices.Contains(a.Approvers, q) || slices.Contains(a.Admins, q) {
		return true
	}
	return a.RequesterCanApprove && presser.ID != "" && presser.ID == requester.ID
}

// approverHint says who can approve, for the notice a refused presser gets.
func (a Access) approverHint(requester User) string {
	switch {
	case a.RequesterCanApprove && len(a.Approvers) > 0:
		return "the thread's requester (" + nonEmpty(requester.Name, requester.ID) + ") or a configured approver"
	case a.RequesterCanApprove:
		return "the thread's requester (" + nonEmpty(requester.Name, requester.ID) + ")"
	case len(a.Approvers) > 0:
		return "a configured approver"
	}
	return "an admin"
}

func nonEmpty(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
