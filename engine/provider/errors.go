package provider

import (
	"fmt"
	"time"
)

// AuthError means the provider rejected the credentials (HTTP 401/403).
// Retrying cannot help; the operator must fix the key.
type AuthError struct {
	Provider string
	Status   int
	Message  string
}

func (e *AuthError) Error() string {
	return fmt.Sprintf("%s: authentication failed (HTTP %d): %s; check the api key env var of this provider", e.Provider, e.Status, e.Message)
}

// QuotaError means the account has no balance or quota left (HTTP 402, or a
// 429 whose body says the quota is exhausted). It is never retried.
type QuotaError struct {
	Provider string
	Message  string
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("%s: quota exhausted: %s; top up the account or switch provider", e.Provider, e.Message)
}

// ContextTooLongError means the request exceeded the model's context window.
type ContextTooLongError struct {
	Provider string
	Message  string
}

func (e *ContextTooLongError) Error() string {
	return fmt.Sprintf("%s: context too long: %s", e.Provider, e.Message)
}

// RateLimitError is a 429 that outlived the retry budget.
type RateLimitError struct {
	Provider   string
	RetryAfter time.Duration
	Message    string
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s: rate limited after retries (retry after %s): %s", e.Provider, e.RetryAfter, e.Message)
}

// TransportError is a connection failure, a 5xx, an idle stream or a broken
// stream that outlived the retry budget. Err is the last underlying cause.
type TransportError struct {
	Provider string
	Status   int // 0 when no HTTP status was received
	Err      error
}

func (e *TransportError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s: transport error (HTTP %d): %v", e.Provider, e.Status, e.Err)
	}
	return fmt.Sprintf("%s: transport error: %v", e.Provider, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// RequestError is any other 4xx: the request itself was rejected.
type RequestError struct {
	Provider string
	Status   int
	Message  string
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("%s: request rejected (HTTP %d): %s", e.Provider, e.Status, e.Message)
}
