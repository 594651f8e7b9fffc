package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Writer appends records to one transcript file. It is safe for concurrent
// use; each record is one write of one line, so a crash can tear at most the
// last line, which Load ignores.
type Writer struct {
	mu   sync.Mutex // guards f
	f    *os.File
	path string
}

// Create starts a new transcript at path, failing if it already exists.
func Create(path string) (*Writer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return &Writer{f: f, path: path}, nil
}

// Append opens an existing transcript for appending. If a crash left the
// last line without its newline, one is added first so the torn line stays
// a line of its own (Load skips it) instead of corrupting the next record.
func Append(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if err := terminateLastLine(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return &Writer{f: f, path: path}, nil
}

func terminateLastLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	_, err = f.Write([]byte{'\n'})
	return err
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Write appends one record, stamping its time when unset.
func (w *Writer) Write(r Record) error {
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("transcript: encode %s record: %w", r.Type, err)
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("transcript: %s is closed", w.path)
	}
	if _, err := w.f.Write(line); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	return nil
}

// Sync flushes the file to stable storage.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	return w.f.Sync()
}

// Close syncs and closes the file. Further writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Sync()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.f = nil
	return err
}
