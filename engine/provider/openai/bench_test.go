package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/reasonix/teams/engine/provider"
	"github.com/reasonix/teams/engine/provider/providertest"
)

// BenchmarkStreamParse streams a long answer (reasoning, text and a large
// tool call in thousands of chunks) from the fake and reports throughput
// over the SSE bytes on the wire.
func BenchmarkStreamParse(b *testing.B) {
	turn := providertest.Turn{ToolCalls: []providertest.ToolCall{
		{ID: "w", Name: "write_file", Arguments: `{"path":"x.go","content":"` + strings.Repeat("package x // filler ", 2000) + `"}`},
	}}
	for i := 0; i < 1000; i++ {
		turn.Reasoning = append(turn.Reasoning, "considering option number ")
		turn.Text = append(turn.Text, "here is a fairly typical token run ")
	}
	fake := providertest.New(providertest.WithoutPrefixCache(),
		providertest.WithResponder(func(providertest.RecordedRequest) providertest.Turn { return turn }))
	b.Cleanup(fake.Close)
	req := userRequest("write it")

	body, err := encodeRequest("deepseek-chat", req, 0)
	if err != nil {
		b.Fatal(err)
	}
	resp, err := http.Post(fake.URL()+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	wire, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}

	c, _ := newTestClient(b, fake.URL(), nil)
	ctx := context.Background()
	b.SetBytes(wire)
	b.ReportAllocs()
	for b.Loop() {
		got, err := c.Stream(ctx, req, func(provider.Delta) {})
		if err != nil {
			b.Fatal(err)
		}
		if len(got.Message.ToolCalls) != 1 {
			b.Fatalf("got %d tool calls, want 1", len(got.Message.ToolCalls))
		}
	}
}
