package openai

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/teams/engine/provider"
)

func TestServerMessage(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{name: "openai shape", body: `{"error":{"message":"bad thing","type":"x"}}`, want: "bad thing"},
		{name: "string error", body: `{"error":"plain"}`, want: "plain"},
		{name: "top-level message", body: `{"message":"top"}`, want: "top"},
		{name: "text", body: "  upstream exploded \n", want: "upstream exploded"},
		{name: "long text cut", body: strings.Repeat("é", 400), want: strings.Repeat("é", 250) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := serverMessage([]byte(tt.body)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClassifyStatus(t *testing.T) {
	c, _ := newTestClient(t, "http://127.0.0.1:1", nil)
	var (
		auth     = isA[*provider.AuthError]
		quota    = isA[*provider.QuotaError]
		tooLong  = isA[*provider.ContextTooLongError]
		rejected = isA[*provider.RequestError]
	)
	tests := []struct {
		name      string
		status    int
		body      string
		wantAs    func(error) (bool, string)
		retryable bool
	}{
		{name: "401", status: 401, body: `{"error":{"message":"Authentication Fails"}}`, wantAs: auth},
		{name: "403", status: 403, wantAs: auth},
		{name: "402", status: 402, body: `{"error":{"message":"Insufficient Balance"}}`, wantAs: quota},
		{name: "429 quota", status: 429, body: `{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}`, wantAs: quota},
		{name: "429 rate", status: 429, body: `{"error":{"message":"Rate limit reached"}}`, retryable: true},
		{name: "400 context", status: 400, body: `{"error":{"message":"This model's maximum context length is 131072 tokens"}}`, wantAs: tooLong},
		{name: "400 other", status: 400, body: `{"error":{"message":"bad role"}}`, wantAs: rejected},
		{name: "404", status: 404, wantAs: rejected},
		{name: "408", status: 408, retryable: true},
		{name: "503", status: 503, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := c.classifyStatus(tt.status, http.Header{}, []byte(tt.body), time.Now())
			if tt.retryable {
				if f.fatal != nil {
					t.Fatalf("got fatal %v, want retryable", f.fatal)
				}
				return
			}
			if ok, want := tt.wantAs(f.fatal); !ok {
				t.Fatalf("got %v (%T), want %s", f.fatal, f.fatal, want)
			}
			if !strings.Contains(f.fatal.Error(), "deepseek") {
				t.Errorf("got %q, want the provider name in it", f.fatal)
			}
		})
	}
}

func TestRedactsAPIKey(t *testing.T) {
	c, _ := newTestClient(t, "http://127.0.0.1:1", nil)
	f := c.classifyStatus(401, http.Header{}, []byte(`{"error":{"message":"key `+testKey+` is invalid"}}`), time.Now())
	if strings.Contains(f.fatal.Error(), testKey) {
		t.Errorf("got %q, want the key redacted", f.fatal)
	}
}
