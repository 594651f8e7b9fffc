package jetstream

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// embeddedReadyTimeout bounds how long the embedded server may take to
// recover its files and accept the in-process connection.
const embeddedReadyTimeout = 30 * time.Second

// startEmbedded runs a JetStream-enabled NATS server that listens on no
// port: the store reaches it through an in-process connection only.
func startEmbedded(dir string, log *slog.Logger) (*server.Server, error) {
	srv, err := server.NewServer(&server.Options{
		ServerName: "reasonix",
		DontListen: true,
		JetStream:  true,
		StoreDir:   dir,
		NoSigs:     true, // the process owns its signals, not the library
	})
	if err != nil {
		return nil, fmt.Errorf("jetstream: embedded server in %s: %w", dir, err)
	}
	srv.SetLoggerV2(serverLogger{log: log.With("component", "nats-server")}, false, false, false)
	srv.Start()
	if !srv.ReadyForConnections(embeddedReadyTimeout) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("jetstream: embedded server in %s: not ready after %s", dir, embeddedReadyTimeout)
	}
	if !srv.JetStreamEnabled() {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, errors.New("jetstream: embedded server started without JetStream (is the store directory writable?)")
	}
	return srv, nil
}

// serverLogger forwards the embedded server's log lines to slog. Notices
// are startup chatter (banner, limits), so they go out at debug level.
type serverLogger struct{ log *slog.Logger }

func (l serverLogger) Noticef(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l serverLogger) Warnf(format string, v ...any)   { l.log.Warn(fmt.Sprintf(format, v...)) }
func (l serverLogger) Fatalf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l serverLogger) Errorf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l serverLogger) Debugf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l serverLogger) Tracef(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }

// redactURL hides passwords and tokens in a NATS server list before it
// goes into an error message.
func redactURL(servers string) string {
	if servers == "" {
		return "embedded server"
	}
	parts := strings.Split(servers, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			parts[i] = "(unparsable url)"
			continue
		}
		if u.User != nil {
			if _, hasPassword := u.User.Password(); !hasPassword {
				// A lone user part is a token.
				u.User = url.User("redacted")
			}
		}
		parts[i] = u.Redacted()
	}
	return strings.Join(parts, ",")
}
