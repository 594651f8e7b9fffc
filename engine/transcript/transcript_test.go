package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/teams/engine/provider"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	hdr := Header{Session: "abc", Root: "/w", Model: "m", System: "sys", Tools: []provider.ToolSpec{{Name: "t", Parameters: []byte(`{"type":"object"}`)}}}
	must(t, w.Write(Record{Type: TypeHeader, Header: &hdr}))
	must(t, w.Write(Record{Type: TypeMessage, Message: &provider.Message{Role: provider.RoleUser, Content: "hi"}}))
	must(t, w.Write(Record{Type: TypeUsage, Usage: &UsageRecord{Usage: provider.Usage{PromptTokens: 10, CacheHitTokens: 4, CacheMissTokens: 6}, Cost: 0.5}}))
	must(t, w.Write(Record{Type: TypeCompaction, Compaction: &Compaction{Rewrite: 1, Messages: []provider.Message{{Role: provider.RoleUser, Content: "digest"}}}}))
	must(t, w.Write(Record{Type: TypeMessage, Message: &provider.Message{Role: provider.RoleAssistant, Content: "ok"}}))
	must(t, w.Close())

	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.System != "sys" || string(s.Header.Tools[0].Parameters) != `{"type":"object"}` {
		t.Errorf("header = %+v", s.Header)
	}
	if got, want := len(s.Messages), 2; got != want {
		t.Fatalf("messages = %d, want %d", got, want)
	}
	if s.Messages[0].Content != "digest" || s.Rewrite != 1 {
		t.Errorf("projection not applied: %+v rewrite %d", s.Messages, s.Rewrite)
	}
	if s.Usage.PromptTokens != 10 || s.Cost != 0.5 || s.Requests != 1 {
		t.Errorf("usage = %+v cost %v", s.Usage, s.Cost)
	}
}

func TestTornLineIsSkippedAndAppendRepairs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.Write(Record{Type: TypeHeader, Header: &Header{Session: "x"}}))
	must(t, w.Close())
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","mess`) // a crash mid-write
	f.Close()

	w, err = Append(path)
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.Write(Record{Type: TypeMessage, Message: &provider.Message{Role: provider.RoleUser, Content: "after"}}))
	must(t, w.Close())

	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Skipped != 1 || len(s.Messages) != 1 || s.Messages[0].Content != "after" {
		t.Errorf("got skipped=%d messages=%+v, want 1 skipped and the later message kept", s.Skipped, s.Messages)
	}
}

func TestLoadRejectsNonTranscript(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, []byte(`{"type":"message"}`+"\n"), 0o600)
	if _, err := Load(path); !errors.Is(err, ErrNoHeader) {
		t.Errorf("got %v, want ErrNoHeader", err)
	}
	if _, err := Create(path); err == nil {
		t.Error("Create over an existing file succeeded, want an error")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
