package fakeslack

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// apiResult is a Web API answer: the fields beside "ok", or a Slack error
// code.
type apiResult struct {
	fields map[string]any
	err    string
}

func fail(code string) apiResult { return apiResult{err: code} }

func okWith(fields map[string]any) apiResult { return apiResult{fields: fields} }

// serveAPI answers /api/{method}: it counts the call, applies injected
// 429s, checks the token and dispatches.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	_ = r.ParseForm()
	s.mu.Lock()
	s.calls[method]++
	s.notifyLocked()
	if l := s.limits[method]; l != nil && l.remaining > 0 {
		l.remaining--
		s.mu.Unlock()
		w.Header().Set("Retry-After", strconv.Itoa(l.retryAfter))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": "ratelimited"})
		return
	}
	s.mu.Unlock()

	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if token == "" {
		token = r.Form.Get("token")
	}
	want := s.opts.BotToken
	if method == "apps.connections.open" {
		want = s.opts.AppToken
	}
	var res apiResult
	switch {
	case token == "":
		res = fail("not_authed")
	case token != want:
		res = fail("invalid_auth")
	default:
		res = s.dispatch(r, method)
	}
	if res.err != "" {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": res.err})
		return
	}
	body := map[string]any{"ok": true}
	for k, v := range res.fields {
		body[k] = v
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) dispatch(r *http.Request, method string) apiResult {
	f := r.Form
	switch method {
	case "auth.test":
		return okWith(map[string]any{
			"url": "https://fake.slack.com/", "team": "Fake Workspace", "user": s.opts.BotName,
			"team_id": s.opts.TeamID, "user_id": s.opts.BotUserID, "bot_id": s.opts.BotID,
		})
	case "apps.connections.open":
		return okWith(map[string]any{"url": "ws" + strings.TrimPrefix(s.URL, "http") + "/socket"})
	case "chat.postMessage":
		return s.postMessage(f.Get("channel"), f.Get("thread_ts"), f.Get("text"), f.Get("blocks"), f)
	case "chat.update":
		return s.updateMessage(f.Get("channel"), f.Get("ts"), f.Get("text"), f)
	case "chat.postEphemeral":
		return s.postEphemeral(f.Get("channel"), f.Get("user"), f.Get("thread_ts"), f.Get("text"), f.Get("blocks"))
	case "reactions.add", "reactions.remove":
		return s.react(f.Get("channel"), f.Get("timestamp"), f.Get("name"), method == "reactions.remove")
	case "conversations.replies":
		return s.replies(f.Get("channel"), f.Get("ts"))
	case "users.info":
		return s.userInfo(f.Get("user"))
	case "files.getUploadURLExternal":
		return s.uploadURL(f.Get("filename"), f.Get("length"))
	case "files.completeUploadExternal":
		return s.completeUpload(f.Get("files"), f.Get("channel_id"), f.Get("thread_ts"), f.Get("initial_comment"))
	}
	return fail("unknown_method")
}

func (s *Server) postMessage(channel, threadTS, text, blocksRaw string, f map[string][]string) apiResult {
	if channel == "" {
		return fail("channel_not_found")
	}
	blocks, err := decodeBlocks(blocksRaw)
	if err != nil {
		return fail(err.Error())
	}
	if text == "" && len(blocks) == 0 {
		return fail("no_text")
	}
	if utf16Len(text) > maxMessageText {
		return fail("msg_too_long")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := &Message{
		Channel: channel, TS: s.nextTSLocked(), ThreadTS: threadTS, User: s.opts.BotUserID, BotID: s.opts.BotID,
		Text: text, Blocks: blocks, BlocksJSON: blocksRaw,
		UnfurlLinks: first(f["unfurl_links"]), UnfurlMedia: first(f["unfurl_media"]),
	}
	s.addMessageLocked(m)
	return okWith(map[string]any{"channel": channel, "ts": m.TS, "message": wireMessage(m)})
}

func (s *Server) updateMessage(channel, ts, text string, f map[string][]string) apiResult {
	blocksRaw, hasBlocks := f["blocks"]
	var blocks []Block
	if hasBlocks {
		var err error
		if blocks, err = decodeBlocks(first(blocksRaw)); err != nil {
			return fail(err.Error())
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.byKey[channel+"/"+ts]
	switch {
	case !ok:
		return fail("message_not_found")
	case m.BotID == "":
		return fail("cant_update_message")
	}
	m.Text = text
	if hasBlocks {
		m.Blocks, m.BlocksJSON = blocks, first(blocksRaw)
	}
	m.Edits++
	s.updates = append(s.updates, copyMessage(m))
	s.notifyLocked()
	return okWith(map[string]any{"channel": channel, "ts": ts, "text": text})
}

func (s *Server) postEphemeral(channel, user, threadTS, text, blocksRaw string) apiResult {
	if channel == "" {
		return fail("channel_not_found")
	}
	if user == "" {
		return fail("user_not_in_channel")
	}
	blocks, err := decodeBlocks(blocksRaw)
	if err != nil {
		return fail(err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ephemerals = append(s.ephemerals, Ephemeral{Channel: channel, User: user, ThreadTS: threadTS, Text: text, Blocks: blocks})
	s.notifyLocked()
	return okWith(map[string]any{"message_ts": s.nextTSLocked()})
}

func (s *Server) react(channel, ts, name string, remove bool) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.byKey[channel+"/"+ts]
	if !ok {
		return fail("message_not_found")
	}
	has := slices.Contains(m.Reactions, name)
	switch {
	case !remove && has:
		return fail("already_reacted")
	case remove && !has:
		return fail("no_reaction")
	case remove:
		m.Reactions = slices.DeleteFunc(m.Reactions, func(r string) bool { return r == name })
	default:
		m.Reactions = append(m.Reactions, name)
	}
	s.reactLog = append(s.reactLog, Reaction{Channel: channel, TS: ts, Name: name, Removed: remove})
	s.notifyLocked()
	return okWith(nil)
}

func (s *Server) replies(channel, ts string) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byKey[channel+"/"+ts]; !ok {
		return fail("thread_not_found")
	}
	var msgs []map[string]any
	for _, m := range s.messages {
		if m.Channel == channel && (m.TS == ts || m.ThreadTS == ts) {
			msgs = append(msgs, wireMessage(m))
		}
	}
	return okWith(map[string]any{"messages": msgs, "has_more": false})
}

func (s *Server) userInfo(id string) apiResult {
	s.mu.Lock()
	u, ok := s.users[id]
	s.mu.Unlock()
	if !ok {
		return fail("user_not_found")
	}
	return okWith(map[string]any{"user": map[string]any{
		"id": u.ID, "team_id": s.opts.TeamID, "name": u.Name, "real_name": u.RealName, "is_bot": u.Bot,
		"profile": map[string]any{"display_name": u.DisplayName, "real_name": u.RealName},
	}})
}

func (s *Server) uploadURL(filename, length string) apiResult {
	n, err := strconv.Atoi(length)
	if filename == "" || err != nil || n <= 0 {
		return fail("invalid_arguments")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextIDLocked("F")
	s.uploads[id] = &Upload{FileID: id, Filename: filename, Length: n}
	s.uploadSeq = append(s.uploadSeq, id)
	// The upload URL must share the API's origin: slack-go sends the token
	// only there or to https Slack hosts.
	return okWith(map[string]any{"upload_url": s.URL + "/upload/" + id, "file_id": id})
}

func (s *Server) completeUpload(filesJSON, channel, threadTS, comment string) apiResult {
	var files []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(filesJSON), &files); err != nil || len(files) == 0 {
		return fail("invalid_arguments")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]map[string]any, 0, len(files))
	for _, f := range files {
		u, ok := s.uploads[f.ID]
		if !ok || u.Content == nil {
			return fail("file_not_found")
		}
		u.Title, u.Channel, u.ThreadTS, u.InitialComment, u.Completed = f.Title, channel, threadTS, comment, true
		out = append(out, map[string]any{"id": u.FileID, "title": u.Title})
	}
	s.notifyLocked()
	return okWith(map[string]any{"files": out})
}

// serveUpload receives the file bytes of the upload flow (multipart, field
// "file"), as files.slack.com does.
func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("file")
	file, _, err := r.FormFile("file")
	if err != nil {
		http.Error(w, "no file part", http.StatusBadRequest)
		return
	}
	defer file.Close()
	content, err := io.ReadAll(file)
	if err != nil {
		http.Error(w, "read failed", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.uploads[id]
	if !ok {
		http.Error(w, "unknown upload", http.StatusNotFound)
		return
	}
	u.Content = content
	s.notifyLocked()
	_, _ = io.WriteString(w, "OK - "+strconv.Itoa(len(content)))
}

// serveResponseURL receives a slash command's response_url POST.
func (s *Server) serveResponseURL(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Text         string          `json:"text"`
		ResponseType string          `json:"response_type"`
		Blocks       json.RawMessage `json:"blocks"`
	}
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	var blocks []Block
	if len(msg.Blocks) > 0 && string(msg.Blocks) != "null" {
		var err error
		if blocks, err = decodeBlocks(string(msg.Blocks)); err != nil {
			http.Error(w, errInvalidBlocks, http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	s.responses = append(s.responses, CommandResponse{URL: s.URL + r.URL.Path, ResponseType: msg.ResponseType, Text: msg.Text, Blocks: blocks})
	s.notifyLocked()
	s.mu.Unlock()
	_, _ = io.WriteString(w, "ok")
}

// addMessageLocked stores a new message; s.mu must be held.
func (s *Server) addMessageLocked(m *Message) {
	s.messages = append(s.messages, m)
	s.byKey[m.Channel+"/"+m.TS] = m
	s.notifyLocked()
}

// wireMessage is a message as the Web API returns it.
func wireMessage(m *Message) map[string]any {
	w := map[string]any{"type": "message", "user": m.User, "text": m.Text, "ts": m.TS}
	if m.ThreadTS != "" {
		w["thread_ts"] = m.ThreadTS
	}
	if m.BotID != "" {
		w["bot_id"] = m.BotID
	}
	if m.BlocksJSON != "" {
		w["blocks"] = json.RawMessage(m.BlocksJSON)
	}
	return w
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
