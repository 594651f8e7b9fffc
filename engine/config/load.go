package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// LocalFile is the config file looked up in the working directory.
const LocalFile = "reasonix.toml"

// SearchPaths lists, in order, the files Load tries when no --config path
// is given: ./reasonix.toml, then ~/.reasonix/config.toml (left out when
// $HOME is not set).
func SearchPaths() []string {
	paths := []string{LocalFile}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		paths = append(paths, filepath.Join(home, ".reasonix", "config.toml"))
	}
	return paths
}

// Load reads the configuration. An explicit path (from --config) must
// exist; otherwise the first of SearchPaths that exists is used, and when
// none does, the built-in defaults (Source ""). Every error is an *Error.
func Load(explicit string) (*Config, error) {
	if explicit != "" {
		data, err := os.ReadFile(explicit)
		if err != nil {
			msg := "cannot read the config file: " + err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				msg = "config file not found; check the path given to --config"
			}
			return nil, &Error{File: explicit, Msg: msg, Err: err}
		}
		return Parse(data, explicit)
	}
	for _, path := range SearchPaths() {
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &Error{File: path, Msg: "cannot read the config file: " + err.Error(), Err: err}
		}
		return Parse(data, path)
	}
	return Parse(nil, "")
}
