package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/engine/controller"
	"github.com/reasonix/teams/engine/event"
	"github.com/reasonix/teams/engine/transcript"
)

func init() {
	register(command{name: "run", summary: "run one task headless in a directory and print the answer", run: runRun})
}

// runFlags are the flags of `reasonix run`.
type runFlags struct {
	config   string
	dir      string
	model    string
	auto     bool
	yolo     bool
	maxSteps int
	json     bool
	resume   string
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	fs.StringVar(&f.config, "config", "", "config file (default ./reasonix.toml, then ~/.reasonix/config.toml)")
	fs.StringVar(&f.dir, "dir", ".", "workspace directory the agent works in")
	fs.StringVar(&f.model, "model", "", "model: a provider name, a model name, or provider/model (default: default_model)")
	fs.BoolVar(&f.auto, "auto", false, "allow file edits and commands the policy would ask about (deny rules still apply)")
	fs.BoolVar(&f.auto, "y", false, "shorthand for --auto")
	fs.BoolVar(&f.yolo, "yolo", false, "skip every approval prompt (deny rules still apply)")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "bound on model rounds for this task (default: [agent] max_steps)")
	fs.BoolVar(&f.json, "json", false, "print one JSON summary object at the end instead of streaming")
	fs.StringVar(&f.resume, "resume", "", "continue the session with this id (from an earlier --json summary)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reasonix run [flags] PROMPT")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if prompt == "" {
		fmt.Fprintln(stderr, "reasonix run: missing PROMPT; say what the agent should do, e.g. reasonix run \"fix the failing test\"")
		return exitUsage
	}

	cfg, err := config.Load(f.config)
	if err != nil {
		fmt.Fprintln(stderr, "reasonix run:", err)
		return exitUsage
	}
	if f.maxSteps > 0 {
		cfg.Agent.MaxSteps = f.maxSteps
	}
	posture := "ask"
	switch {
	case f.yolo:
		posture = "yolo"
	case f.auto:
		posture = "auto"
	}
	eng, err := openEngine(cfg, engineSpec{dir: f.dir, model: f.model, posture: posture, resume: f.resume})
	if err != nil {
		fmt.Fprintln(stderr, "reasonix run:", err)
		return exitUsage
	}
	defer eng.Close()

	ctrl := controller.New(eng.session, controller.Options{})
	sub := ctrl.Subscribe()
	rendered := make(chan struct{})
	r := &terminalRenderer{out: stdout, log: stderr, quiet: f.json}
	go func() {
		defer close(rendered)
		for ev := range sub.Events() {
			r.render(ev)
		}
	}()
	speaker := os.Getenv("USER")
	res, runErr := ctrl.Run(ctx, agent.Turn{Text: prompt, Speaker: speaker})
	ctrl.Close()
	<-rendered

	totals := eng.session.Totals()
	if f.json {
		writeSummary(stdout, eng, res, totals, runErr)
	} else {
		if !r.endedWithNewline {
			fmt.Fprintln(stdout)
		}
		u := totals.Usage
		fmt.Fprintf(stderr, "— %d steps · %d prompt tokens (%.0f%% cache hit) · %d completion · $%.4f · session %s\n",
			res.Steps, u.PromptTokens, 100*u.HitRatio(), u.CompletionTokens, totals.Cost, eng.session.ID())
	}
	switch {
	case runErr == nil:
		return exitOK
	case errors.Is(runErr, context.Canceled):
		fmt.Fprintln(stderr, "reasonix run: interrupted; resume with --resume", eng.session.ID())
		return exitInterrupted
	default:
		fmt.Fprintln(stderr, "reasonix run:", runErr)
		return exitFailed
	}
}

// summary is the --json output.
type summary struct {
	SessionID  string             `json:"session_id"`
	Transcript string             `json:"transcript,omitempty"`
	Text       string             `json:"text"`
	Steps      int                `json:"steps"`
	ToolCalls  []agent.CallRecord `json:"tool_calls"`
	Usage      summaryUsage       `json:"usage"`
	CostUSD    float64            `json:"cost_usd"`
	Error      string             `json:"error,omitempty"`
}

type summaryUsage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CacheHitTokens   int     `json:"cache_hit_tokens"`
	CacheMissTokens  int     `json:"cache_miss_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	HitRatio         float64 `json:"cache_hit_ratio"`
}

func writeSummary(w io.Writer, eng *engine, res agent.Result, totals agent.Totals, runErr error) {
	s := summary{
		SessionID: eng.session.ID(), Transcript: eng.transcriptPath, Text: res.Text, Steps: res.Steps,
		ToolCalls: res.Calls, CostUSD: res.Cost,
		Usage: summaryUsage{
			PromptTokens: res.Usage.PromptTokens, CacheHitTokens: res.Usage.CacheHitTokens,
			CacheMissTokens: res.Usage.CacheMissTokens, CompletionTokens: res.Usage.CompletionTokens,
			HitRatio: res.Usage.HitRatio(),
		},
	}
	if s.ToolCalls == nil {
		s.ToolCalls = []agent.CallRecord{}
	}
	if runErr != nil {
		s.Error = runErr.Error()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(s)
}

// terminalRenderer prints a run's events: the answer streamed to out, one
// line per tool call and notices to log.
type terminalRenderer struct {
	out, log         io.Writer
	quiet            bool // --json: nothing on out
	endedWithNewline bool
	wroteText        bool
}

func (r *terminalRenderer) render(ev event.Event) {
	switch e := ev.(type) {
	case event.TextDelta:
		if r.quiet || e.Text == "" {
			return
		}
		io.WriteString(r.out, e.Text)
		r.wroteText = true
		r.endedWithNewline = strings.HasSuffix(e.Text, "\n")
	case event.StreamReset:
		if !r.quiet && r.wroteText {
			fmt.Fprintln(r.out, "\n[stream interrupted; retrying]")
			r.endedWithNewline = true
		}
	case event.ToolResult:
		mark := "✓"
		if !e.OK {
			mark = "✗"
		}
		line := fmt.Sprintf("  %s %s %s (%s)", mark, e.Tool, e.Subject, e.Duration.Round(time.Millisecond))
		if e.Blocked != "" {
			line += " — " + e.Blocked
		}
		r.breakLine()
		fmt.Fprintln(r.log, line)
	case event.Notice:
		r.breakLine()
		fmt.Fprintf(r.log, "  [%s] %s\n", e.Level, e.Text)
	}
}

// breakLine ends a half-written answer line before a log line interleaves.
func (r *terminalRenderer) breakLine() {
	if !r.quiet && r.wroteText && !r.endedWithNewline && r.out == r.log {
		fmt.Fprintln(r.out)
		r.endedWithNewline = true
	}
}

// resolveDir makes the workspace directory absolute and checks it exists.
func resolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("--dir %s: %w", dir, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("--dir %s: not a directory", dir)
	}
	return filepath.EvalSymlinks(abs)
}

// loadTranscript finds a saved session by id.
func loadTranscript(dir, id string) (*transcript.Session, string, error) {
	if strings.ContainsAny(id, `/\.`) || id == "" {
		return nil, "", fmt.Errorf("--resume %q: not a session id", id)
	}
	path := filepath.Join(dir, id+".jsonl")
	s, err := transcript.Load(path)
	if err != nil {
		return nil, "", fmt.Errorf("--resume %s: %w", id, err)
	}
	return s, path, nil
}
