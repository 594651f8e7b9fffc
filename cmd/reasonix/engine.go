package main

import (
	"fmt"
	"path/filepath"

	"github.com/reasonix/teams/engine/agent"
	"github.com/reasonix/teams/engine/config"
	"github.com/reasonix/teams/engine/permission"
	"github.com/reasonix/teams/engine/provider"
	_ "github.com/reasonix/teams/engine/provider/openai" // registers kind "openai"
	"github.com/reasonix/teams/engine/sandbox"
	"github.com/reasonix/teams/engine/tool"
	"github.com/reasonix/teams/engine/tool/builtin"
	"github.com/reasonix/teams/engine/transcript"
)

// engineSpec says which session to open and how.
type engineSpec struct {
	dir     string
	model   string
	posture string // ask | auto | yolo
	resume  string // session id to continue, or ""
}

// engine is one wired session and what must be closed with it.
type engine struct {
	session        *agent.Session
	transcriptPath string
	writer         *transcript.Writer
	sandbox        *sandbox.Sandbox
}

// openEngine wires config into a ready session: provider, sandbox, tools,
// permission policy and transcript.
func openEngine(cfg *config.Config, spec engineSpec) (*engine, error) {
	root, err := resolveDir(spec.dir)
	if err != nil {
		return nil, err
	}
	model, err := cfg.ResolveModel(spec.model)
	if err != nil {
		return nil, err
	}
	prov, err := provider.New(model.Provider)
	if err != nil {
		return nil, err
	}
	sb := sandbox.New(sandbox.Options{
		Mode: cfg.Sandbox.Bash, Network: cfg.Sandbox.Network,
		AllowWrite: cfg.Sandbox.AllowWrite, ForbidRead: cfg.Sandbox.ForbidRead, Root: root,
	})
	eng := &engine{sandbox: sb}
	fail := func(err error) (*engine, error) {
		eng.Close()
		return nil, err
	}
	tools, err := builtin.New(builtin.Options{Root: root, ForbidRead: cfg.Sandbox.ForbidRead, Shell: sb, BashTimeout: cfg.Agent.BashTimeout.Duration})
	if err != nil {
		return fail(err)
	}
	reg, err := tool.NewRegistry(tools...)
	if err != nil {
		return fail(err)
	}
	policy, err := permission.NewPolicy(permission.Rules{
		Mode: cfg.Permissions.Mode, Allow: cfg.Permissions.Allow, Ask: cfg.Permissions.Ask, Deny: cfg.Permissions.Deny,
	}, permission.Posture(spec.posture), root)
	if err != nil {
		return fail(fmt.Errorf("[permissions]: %w", err))
	}
	opts := agent.Options{
		Provider: prov, Model: model.Provider.Model, Prices: model.Provider.Prices, Tools: reg, Gate: policy,
		Root: root, MaxSteps: cfg.Agent.MaxSteps, ParallelReads: cfg.Agent.ParallelReads,
		ContextWindow: model.ContextWindow, CompactRatio: cfg.Agent.CompactRatio,
	}
	if spec.resume != "" {
		saved, path, err := loadTranscript(cfg.Agent.TranscriptDir, spec.resume)
		if err != nil {
			return fail(err)
		}
		if eng.writer, err = transcript.Append(path); err != nil {
			return fail(err)
		}
		eng.transcriptPath, opts.Transcript = path, eng.writer
		if saved.Header.Root != root {
			return fail(fmt.Errorf("--resume %s: that session worked in %s, not %s; pass --dir %s", spec.resume, saved.Header.Root, root, saved.Header.Root))
		}
		if eng.session, err = agent.OpenSession(opts, saved); err != nil {
			return fail(err)
		}
		return eng, nil
	}
	opts.ID = agent.NewID()
	eng.transcriptPath = filepath.Join(cfg.Agent.TranscriptDir, opts.ID+".jsonl")
	if eng.writer, err = transcript.Create(eng.transcriptPath); err != nil {
		return fail(err)
	}
	opts.Transcript = eng.writer
	if eng.session, err = agent.NewSession(opts); err != nil {
		return fail(err)
	}
	return eng, nil
}

// Close releases the transcript and the sandbox.
func (e *engine) Close() {
	if e.writer != nil {
		e.writer.Close()
	}
	if e.sandbox != nil {
		e.sandbox.Close()
	}
}
