package config

import (
	"encoding"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"
)

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// checkSchema walks the generic TOML tree against the Go type it will be
// decoded into and reports unknown keys and values of the wrong type, each
// with the indexed path that toml.MetaData cannot give.
func checkSchema(v any, t reflect.Type, p keyPath, out *[]problem) {
	bad := func(msg string, args ...any) { *out = append(*out, problem{p, fmt.Sprintf(msg, args...)}) }
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		text, ok := scalarText(v)
		if _, isString := v.(string); t == reflect.TypeFor[Duration]() && !isString {
			ok = false // "300" would read as a duration without a unit
		}
		if !ok {
			bad("must be %s, not %s", describeType(t, p), describeValue(v))
			return
		}
		if err := reflect.New(t).Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(text)); err != nil {
			bad("%v", err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			bad("must be %s, not %s", describeType(t, p), describeValue(v))
			return
		}
		fields := tomlFields(t)
		for _, k := range sortedKeys(m) {
			f, known := fields[k]
			if !known {
				*out = append(*out, problem{p.key(k), "unknown key; see reasonix.example.toml for the keys"})
				continue
			}
			checkSchema(m[k], f.Type, p.key(k), out)
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			bad("must be %s, not %s", describeType(t, p), describeValue(v))
			return
		}
		for _, k := range sortedKeys(m) {
			checkSchema(m[k], t.Elem(), p.key(k), out)
		}
	case reflect.Slice:
		switch list := v.(type) {
		case []any:
			for i, el := range list {
				checkSchema(el, t.Elem(), p.index(i), out)
			}
		case []map[string]any:
			for i, el := range list {
				checkSchema(el, t.Elem(), p.index(i), out)
			}
		default:
			bad("must be %s, not %s", describeType(t, p), describeValue(v))
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			bad("must be a string, not %s", describeValue(v))
		}
	case reflect.Int, reflect.Int64:
		if _, ok := v.(int64); !ok {
			bad("must be an integer, not %s", describeValue(v))
		}
	case reflect.Float64:
		switch v.(type) {
		case float64, int64:
		default:
			bad("must be a number, not %s", describeValue(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			bad("must be true or false, not %s", describeValue(v))
		}
	default:
		// Only reachable if a field of a type this walk does not know is
		// added to Config; the example-file test exercises every field.
		bad("has Go type %s, which the config loader cannot check", t)
	}
}

// tomlFields maps the toml tags of a struct to its fields.
func tomlFields(t reflect.Type) map[string]reflect.StructField {
	fields := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("toml")
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		fields[tag] = f
	}
	return fields
}

// scalarText turns a scalar TOML value into the text an UnmarshalText
// method receives, the way the toml decoder does.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return fmt.Sprintf("%d", x), true
	case float64:
		return fmt.Sprintf("%f", x), true
	case bool:
		return fmt.Sprintf("%v", x), true
	}
	return "", false
}

// describeType says in an operator's words what a key of type t holds.
func describeType(t reflect.Type, p keyPath) string {
	switch t {
	case reflect.TypeFor[Duration]():
		return `a duration string like "90s" or "30m"`
	case reflect.TypeFor[ByteSize]():
		return `a size like "500MB" or "20GiB", or a number of bytes`
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a table"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return fmt.Sprintf("an array of tables ([[%s]])", p)
		}
		return "a list like [\"a\", \"b\"]"
	}
	return t.Kind().String()
}

// describeValue names the TOML type of a decoded value.
func describeValue(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a %T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
