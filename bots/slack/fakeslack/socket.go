package fakeslack

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// envelope is one Socket Mode request (or, in HTTP mode, one POST).
type envelope struct {
	id           string
	kind         string // events_api, interactive, slash_commands
	payload      json.RawMessage
	acked        bool
	deliveries   int
	retryAttempt int
}

// wsConn is one Socket Mode connection. gorilla/websocket allows one
// writer at a time: writeMu serialises the envelope writes (pings use
// WriteControl, which may run concurrently).
type wsConn struct {
	conn    *websocket.Conn
	writeMu sync.Mutex
	stop    chan struct{}
	once    sync.Once
}

func (c *wsConn) close() {
	c.once.Do(func() {
		close(c.stop)
		_ = c.conn.Close()
	})
}

func (c *wsConn) write(v any) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.writeLocked(v)
}

func (c *wsConn) writeLocked(v any) error {
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteJSON(v)
}

// serveSocket is the Socket Mode websocket: hello, then the pending
// envelopes, then live ones; it reads acks and pings periodically.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &wsConn{conn: conn, stop: make(chan struct{})}
	defer c.close()

	// Hold the write lock until hello and the backlog are out, so that a
	// live envelope cannot overtake them.
	c.writeMu.Lock()
	hello := map[string]any{
		"type": "hello", "num_connections": 1,
		"connection_info": map[string]any{"app_id": "AFAKE"},
		"debug_info":      map[string]any{"host": "fakeslack", "approximate_connection_time": 3600},
	}
	if err := c.writeLocked(hello); err != nil {
		c.writeMu.Unlock()
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.writeMu.Unlock()
		return
	}
	s.conns = append(s.conns, c)
	s.connects++
	backlog := s.pending
	s.pending = nil
	if s.opts.RedeliverOnReconnect {
		for _, id := range s.envOrder {
			if e := s.envelopes[id]; !e.acked && e.deliveries > 0 && !containsID(backlog, id) {
				e.retryAttempt++
				backlog = append(backlog, id)
			}
		}
	}
	frames := s.framesLocked(backlog)
	s.notifyLocked()
	s.mu.Unlock()
	for i, f := range frames {
		if err := c.writeLocked(f); err != nil {
			s.requeue(c, backlog[i:])
			c.writeMu.Unlock()
			return
		}
	}
	c.writeMu.Unlock()

	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.ping(c)
	}()
	s.readAcks(c)
	s.forget(c)
}

// ping sends a websocket PING every PingInterval until the connection ends.
func (s *Server) ping(c *wsConn) {
	t := time.NewTicker(s.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			if err := c.conn.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(5*time.Second)); err != nil {
				return
			}
		}
	}
}

// readAcks records {"envelope_id": ...} acknowledgements until the
// connection fails.
func (s *Server) readAcks(c *wsConn) {
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		var ack struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if json.Unmarshal(data, &ack) != nil || ack.EnvelopeID == "" {
			continue
		}
		s.mu.Lock()
		if e, ok := s.envelopes[ack.EnvelopeID]; ok {
			e.acked = true
		}
		s.acks = append(s.acks, ack.EnvelopeID)
		s.notifyLocked()
		s.mu.Unlock()
	}
}

// forget removes a connection that ended.
func (s *Server) forget(c *wsConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.conns {
		if x == c {
			s.conns = append(s.conns[:i:i], s.conns[i+1:]...)
			s.notifyLocked()
			return
		}
	}
}

// requeue puts envelopes back in front of the backlog after a failed write
// and retires the connection.
func (s *Server) requeue(c *wsConn, ids []string) {
	c.close()
	s.forget(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if e := s.envelopes[id]; e != nil {
			e.deliveries--
		}
	}
	s.pending = append(append([]string(nil), ids...), s.pending...)
}

// framesLocked builds the wire frames for envelopes and counts them as
// delivered; s.mu must be held.
func (s *Server) framesLocked(ids []string) []map[string]any {
	frames := make([]map[string]any, 0, len(ids))
	for _, id := range ids {
		e := s.envelopes[id]
		e.deliveries++
		frames = append(frames, map[string]any{
			"envelope_id": e.id, "type": e.kind, "payload": e.payload,
			"accepts_response_payload": e.kind != "events_api",
			"retry_attempt":            e.retryAttempt, "retry_reason": retryReason(e.retryAttempt),
		})
	}
	return frames
}

func retryReason(attempt int) string {
	if attempt == 0 {
		return ""
	}
	return "timeout"
}

// sendSocket delivers one envelope over the newest open connection, or
// queues it until a client connects.
func (s *Server) sendSocket(id string) {
	for {
		s.mu.Lock()
		if len(s.conns) == 0 {
			s.pending = append(s.pending, id)
			s.mu.Unlock()
			return
		}
		c := s.conns[len(s.conns)-1]
		frames := s.framesLocked([]string{id})
		s.mu.Unlock()
		if err := c.write(frames[0]); err == nil {
			return
		}
		s.mu.Lock()
		s.envelopes[id].deliveries--
		s.mu.Unlock()
		c.close()
		s.forget(c)
	}
}

// DropConnections cuts every open Socket Mode connection without a close
// handshake, as a network failure would; slack-go then reconnects.
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := s.conns
	s.conns = nil
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

// RequestDisconnect asks every open connection to reconnect, as Slack does
// before it rotates a server ("type": "disconnect").
func (s *Server) RequestDisconnect() {
	s.mu.Lock()
	conns := append([]*wsConn(nil), s.conns...)
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.write(map[string]any{"type": "disconnect", "reason": "refresh_requested", "debug_info": map[string]any{"host": "fakeslack"}})
	}
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
