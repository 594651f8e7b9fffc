package slack

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"

	"github.com/slack-go/slack"

	"github.com/reasonix/teams/bots"
)

// maxRequestBody bounds what Slack may POST; real payloads are a few KiB.
const maxRequestBody = 1 << 20

// HTTPHandler serves the Events API (HTTP mode) for h:
//
//	/slack/events       Events API deliveries and the url_verification challenge
//	/slack/interactive  button presses (the "payload" form field)
//	/slack/commands     the /reasonix slash command
//
// Every request's signature is verified first (HMAC v0 with the signing
// secret, timestamp within five minutes); a request that fails gets 401
// and nothing else happens. An event answers 200 only once h has recorded
// it, and 500 otherwise so that Slack retries. Retries (X-Slack-Retry-Num)
// carry the same event id and are passed on: the gateway drops duplicates.
func (a *Adapter) HTTPHandler(h bots.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /slack/events", a.verified(func(w http.ResponseWriter, r *http.Request, body []byte) {
		var env callbackEnvelope
		if err := json.Unmarshal(body, &env); err != nil {
			http.Error(w, "unreadable event", http.StatusBadRequest)
			return
		}
		if env.Type == "url_verification" {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, env.Challenge)
			return
		}
		ev, ok, err := a.fromCallback(r.Context(), body)
		if err != nil {
			a.log.Warn("slack: event not accepted", "err", err)
			http.Error(w, "event not accepted", http.StatusInternalServerError)
			return
		}
		a.deliver(w, r, h, ev, ok)
	}))
	mux.HandleFunc("POST /slack/interactive", a.verified(func(w http.ResponseWriter, r *http.Request, body []byte) {
		form, err := url.ParseQuery(string(body))
		if err != nil || form.Get("payload") == "" {
			http.Error(w, "missing payload", http.StatusBadRequest)
			return
		}
		var cb slack.InteractionCallback
		if err := json.Unmarshal([]byte(form.Get("payload")), &cb); err != nil {
			http.Error(w, "unreadable payload", http.StatusBadRequest)
			return
		}
		ev, ok := a.fromInteraction(r.Context(), cb)
		a.deliver(w, r, h, ev, ok)
	}))
	mux.HandleFunc("POST /slack/commands", a.verified(func(w http.ResponseWriter, r *http.Request, body []byte) {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			http.Error(w, "unreadable command", http.StatusBadRequest)
			return
		}
		cmd := slack.SlashCommand{
			TeamID: form.Get("team_id"), ChannelID: form.Get("channel_id"), ChannelName: form.Get("channel_name"),
			UserID: form.Get("user_id"), UserName: form.Get("user_name"), Command: form.Get("command"),
			Text: form.Get("text"), ResponseURL: form.Get("response_url"), TriggerID: form.Get("trigger_id"),
			APIAppID: form.Get("api_app_id"),
		}
		a.deliver(w, r, h, a.fromCommand(r.Context(), cmd), true)
	}))
	return mux
}

// verified wraps a handler with the signing-secret check, reading the body
// once for both.
func (a *Adapter) verified(next func(http.ResponseWriter, *http.Request, []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := a.verify(r.Header, body); err != nil {
			a.log.Warn("slack: rejected a request with a bad signature", "path", r.URL.Path, "err", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		next(w, r, body)
	}
}

// ErrBadSignature is why an HTTP request was refused.
var ErrBadSignature = errors.New("slack: request signature does not verify")

// verify checks Slack's v0 signature and the timestamp's freshness.
func (a *Adapter) verify(header http.Header, body []byte) error {
	sv, err := slack.NewSecretsVerifier(header, a.opts.SigningSecret)
	if err != nil {
		return errors.Join(ErrBadSignature, err)
	}
	if _, err := sv.Write(body); err != nil {
		return errors.Join(ErrBadSignature, err)
	}
	if err := sv.Ensure(); err != nil {
		return errors.Join(ErrBadSignature, err)
	}
	return nil
}

// deliver hands an event to the gateway: 200 once recorded (or when there
// is nothing to record), 500 when the gateway refuses, so Slack retries.
func (a *Adapter) deliver(w http.ResponseWriter, r *http.Request, h bots.Handler, ev bots.Event, ok bool) {
	if ok {
		if err := h.Handle(r.Context(), ev); err != nil {
			a.log.Warn("slack: gateway did not record the event; Slack will retry", "event", ev.ID, "err", err)
			http.Error(w, "not recorded", http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}
