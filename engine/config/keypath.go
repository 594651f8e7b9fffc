package config

import (
	"strconv"
	"strings"
)

// keyPath names one value of the file as a list of elements: table keys and
// array indexes. It renders as providers[0].prices."deepseek-v4.1".output,
// the spelling used in every Error.
type keyPath []string

// key returns p extended by a table key.
func (p keyPath) key(k string) keyPath {
	return append(p[:len(p):len(p)], quoteKey(k))
}

// index returns p extended by an array index.
func (p keyPath) index(i int) keyPath {
	return append(p[:len(p):len(p)], "["+strconv.Itoa(i)+"]")
}

// parent returns p without its last element.
func (p keyPath) parent() keyPath { return p[:len(p)-1] }

func (p keyPath) String() string {
	var b strings.Builder
	for i, el := range p {
		if i > 0 && !strings.HasPrefix(el, "[") {
			b.WriteByte('.')
		}
		b.WriteString(el)
	}
	return b.String()
}

// quoteKey spells a key as TOML would need it: bare when it only has
// letters, digits, '-' and '_', quoted otherwise.
func quoteKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !isBareKeyRune(r) {
			return strconv.Quote(k)
		}
	}
	return k
}

func isBareKeyRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}
