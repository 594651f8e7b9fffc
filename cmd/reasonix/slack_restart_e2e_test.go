package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/teams/bots/slack/fakeslack"
	"github.com/reasonix/teams/engine/provider/providertest"
)

// TestSlackBotSurvivesAKill crashes a `reasonix bot` process with SIGKILL
// while a turn runs a long command, starts a new process on the same
// config, store and HOME, and checks what DESIGN.md promises: the thread is
// told, its card and reaction show the cut turn, the session continues from
// its transcript, and nothing runs twice.
func TestSlackBotSurvivesAKill(t *testing.T) {
	e := newBotE2E(t, botSetup{mode: "socket"})
	e.start()
	e.wait(t, "the first socket mode connection", func() bool { return e.fake.OpenConnections() == 1 })

	const (
		task       = "wait for the build to settle"
		followUp   = "are you back?"
		answer     = "Back, and I remember the build."
		noticeText = "I was restarted while working here"
	)
	var (
		ts        string            // the thread, started by the mention
		card      fakeslack.Message // the killed turn's status card
		cardEdits int               // its edits when the process was killed
		sleeps    []procInfo        // the killed turn's `sleep 30`, if found
		followTS  string            // the follow-up message
	)
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"the first turn is running sleep 30", func(t *testing.T) {
			e.model.Enqueue(providertest.Turn{ToolCalls: []providertest.ToolCall{call("s1", "bash", `{"command":"sleep 30"}`)}})
			ts, _ = e.fake.Mention(botChannel, userAda, task)
			e.wait(t, "the 👀 reaction", e.hasReaction(ts, "eyes"))
			e.wait(t, "the sleep step on the card", func() bool {
				c := e.cards(ts, task)
				return len(c) > 0 && strings.Contains(c[0].Text, "sleep 30")
			})
			card = e.cards(ts, task)[0]
			cardEdits = card.Edits
			if !strings.Contains(card.Text, "*running* · "+task) {
				t.Errorf("card before the kill: got %q, want it running", card.Text)
			}
			if n := len(e.model.Requests()); n != 1 {
				t.Errorf("model requests before the kill: got %d, want 1", n)
			}
			if runtime.GOOS != "linux" {
				return // finding the command reads /proc
			}
			// The card may show the step a moment before the command starts.
			var err error
			e.poll(t, "the `sleep 30` process under the bot", func() bool {
				sleeps, err = sleepsUnder(e.cmd.Process.Pid)
				return err != nil || len(sleeps) > 0
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range sleeps {
				// Whatever the bot leaves behind goes when the test ends;
				// the group is the bash tool's, so only its command is in it.
				e.t.Cleanup(func() {
					if p.alive() {
						_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
					}
				})
			}
		}},
		{"SIGKILL ends the first process", func(t *testing.T) {
			e.crash(t)
		}},
		{"the killed turn's command does not outlive the bot", func(t *testing.T) {
			if runtime.GOOS != "linux" {
				t.Skip("reads /proc")
			}
			// The kernel delivers the parent-death signal as the bot dies;
			// give it a moment to land before calling the process orphaned.
			var alive []int
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				alive = alive[:0]
				for _, p := range sleeps {
					if p.alive() {
						alive = append(alive, p.pid)
					}
				}
				if len(alive) == 0 || time.Now().After(deadline) {
					break
				}
			}
			if len(alive) > 0 {
				t.Errorf("`sleep 30` (pid %v) is still running after the bot was killed, orphaned in the thread's workspace", alive)
			}
		}},
		{"a new process tells the thread and marks the cut turn", func(t *testing.T) {
			fmt.Fprintf(e.stderr, "\n----- reasonix bot restarted after SIGKILL -----\n")
			e.start()
			e.wait(t, "a second socket mode connection", func() bool {
				return e.fake.Connections() == 2 && e.fake.OpenConnections() == 1
			})
			e.wait(t, "the restart notice", e.says(ts, noticeText))
			e.wait(t, "the interrupted card", func() bool {
				m, ok := e.fake.Message(botChannel, card.TS)
				return ok && strings.Contains(m.Text, "*interrupted*")
			})
			m, _ := e.fake.Message(botChannel, card.TS)
			if m.Edits <= cardEdits || !strings.Contains(m.Text, "the bot restarted during this turn") {
				t.Errorf("card after the restart (%d edits, %d before): got %q, want it edited to say the bot restarted",
					m.Edits, cardEdits, m.Text)
			}
			e.wait(t, "the ❌ reaction", e.hasReaction(ts, "x"))
			if e.hasReaction(ts, "eyes")() {
				t.Error("👀 is still on the interrupted request")
			}
		}},
		{"a follow-up without a mention resumes the session", func(t *testing.T) {
			e.model.Enqueue(answerTurn(answer))
			followTS, _ = e.fake.ThreadReply(botChannel, ts, userAda, followUp)
			e.wait(t, "the follow-up answer", e.says(ts, answer))
			e.wait(t, "the ✅ reaction on the follow-up", e.hasReaction(followTS, "white_check_mark"))
			e.wait(t, "the follow-up's final card", func() bool { return len(e.withText(ts, "*done* · "+followUp)) == 1 })
			reqs := e.modelRequests(t, 2)
			last := reqs[len(reqs)-1]
			if !mentionsIn(last, "user", task) || !mentionsIn(last, "user", followUp) {
				t.Errorf("follow-up request: got %+v, want the interrupted task before the follow-up", last.Messages)
			}
			if !slices.ContainsFunc(last.Messages, func(m providertest.Message) bool {
				return m.Role == "assistant" && slices.ContainsFunc(m.ToolCalls, func(c providertest.MessageToolCall) bool { return c.ID == "s1" })
			}) {
				t.Errorf("follow-up request: got %+v, want the interrupted sleep call in the history", last.Messages)
			}
			if len(last.Messages) == 0 || last.Messages[0].Role != "system" || last.Messages[0].Content != reqs[0].Messages[0].Content {
				t.Error("the follow-up sent a different system prompt: not the same session")
			}
		}},
		{"the resumed history answers every tool call", func(t *testing.T) {
			last := e.model.Requests()[len(e.model.Requests())-1]
			if missing := unansweredCalls(last.Messages); len(missing) > 0 {
				// The real API refuses such a request with a 400, so on
				// DeepSeek every later message in the thread would fail.
				t.Errorf("the follow-up request leaves tool calls %v without results; the real API rejects that", missing)
			}
		}},
		{"SIGTERM stops the new process with exit 0", func(t *testing.T) {
			e.stop(t)
		}},
		{"nothing was processed twice", func(t *testing.T) {
			if n := len(e.model.Requests()); n != 2 {
				t.Errorf("model requests: got %d, want 2 (the killed turn and the follow-up)", n)
			}
			counts := []struct {
				what string
				got  int
				want int
			}{
				{"restart notices", len(e.withText(ts, noticeText)), 1},
				{"interrupted cards", len(e.withText(ts, "*interrupted*")), 1},
				{"follow-up cards", len(e.cards(ts, followUp)), 1},
				{"answers", len(e.withText(ts, answer)), 1},
				{"bot messages in the thread", len(e.inThread(ts)), 4},
				{"👀 added to the mention", e.reactionsAdded(ts, "eyes"), 1},
				{"❌ added to the mention", e.reactionsAdded(ts, "x"), 1},
				{"👀 added to the follow-up", e.reactionsAdded(followTS, "eyes"), 1},
			}
			for _, c := range counts {
				if c.got != c.want {
					t.Errorf("%s: got %d, want %d", c.what, c.got, c.want)
				}
			}
			if t.Failed() {
				t.Log(e.dump())
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			return
		}
	}
}

// crash kills the bot with SIGKILL and waits for it to be gone. The
// process's cleanup from start would wait for it a second time, on the
// next process's channel, so it is marked stopped once the processes
// started later have been cleaned up.
func (e *botE2E) crash(t *testing.T) {
	t.Helper()
	if err := e.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	timer := time.NewTimer(waitBound)
	defer timer.Stop()
	select {
	case err := <-e.exited:
		var status syscall.WaitStatus
		if ws, ok := e.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			status = ws
		}
		if !status.Signaled() || status.Signal() != syscall.SIGKILL {
			t.Errorf("reasonix bot after SIGKILL: got %v, want killed by SIGKILL", err)
		}
	case <-timer.C:
		t.Fatalf("reasonix bot still running %v after SIGKILL", waitBound)
	}
	e.cancel()
	e.t.Cleanup(func() { e.stopped = true })
}

// procInfo names one process found under the bot.
type procInfo struct {
	pid, pgid int
}

// alive reports whether the process still runs `sleep 30` (not a zombie,
// and its pid not reused by something else).
func (p procInfo) alive() bool {
	st, err := readProcStat(p.pid)
	if err != nil || st.state == "Z" {
		return false
	}
	return isSleep30(p.pid)
}

// sleepsUnder finds the `sleep 30` processes descending from pid.
func sleepsUnder(pid int) ([]procInfo, error) {
	if runtime.GOOS != "linux" {
		return nil, nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	parent := map[int]int{}
	for _, ent := range entries {
		p, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if st, err := readProcStat(p); err == nil {
			parent[p] = st.ppid
		}
	}
	under := func(p int) bool {
		for seen := 0; p > 1 && seen < len(parent); seen++ {
			if p = parent[p]; p == pid {
				return true
			}
		}
		return false
	}
	var found []procInfo
	for p := range parent {
		if !under(p) || !isSleep30(p) {
			continue
		}
		st, err := readProcStat(p)
		if err != nil {
			continue
		}
		found = append(found, procInfo{pid: p, pgid: st.pgid})
	}
	return found, nil
}

// procStat is the part of /proc/PID/stat the test reads.
type procStat struct {
	state      string
	ppid, pgid int
}

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	// The command name is in parentheses and may hold anything, so the
	// fields are counted from the last closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: got %d fields, want at least 3", pid, len(f))
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return procStat{}, fmt.Errorf("/proc/%d/stat: unreadable ppid or pgid in %q", pid, s)
	}
	return procStat{state: f[0], ppid: ppid, pgid: pgid}, nil
}

// isSleep30 reports whether pid's command line is `sleep 30`.
func isSleep30(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return false
	}
	args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	return len(args) == 2 && filepath.Base(args[0]) == "sleep" && args[1] == "30"
}

// unansweredCalls lists the tool call ids of assistant messages that no
// later tool message answers, which chat completion APIs refuse.
func unansweredCalls(msgs []providertest.Message) []string {
	answered := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	var missing []string
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if m.Role == "assistant" && !answered[c.ID] {
				missing = append(missing, c.ID)
			}
		}
	}
	return missing
}
