// Package yamlfile decodes YAML files into structs strictly: a key the
// struct does not name, a key given twice or a value of the wrong shape is an
// error that names the file, the line and the key, so a user can jump to it:
// "suites/heysphere.yaml:14: rate: "10k" is not a number (use 10000 or 0.75x)".
//
// yaml's own KnownFields names neither the key's context nor the known keys,
// and stops at no particular error; DecodeFields walks a mapping key by key
// and lets yaml decode each value, so an error always knows its key.
package yamlfile

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is a problem at one line of a file: "FILE:LINE: FIELD: MSG".
type Error struct {
	File  string // set by Read; "" while decoding
	Line  int
	Field string // the key the value belongs to; DecodeFields fills it in when ""
	Msg   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, strings.ReplaceAll(e.Msg, parentKey, "this mapping"))
}

// parentKey stands for the key of the enclosing mapping in the messages of
// a mapping decoded with field "" (a type used under several keys, such as
// a block of settings): DecodeFields puts the key in when the error passes
// through it, so the error reads "unknown field in defaults".
const parentKey = "\x00"

// Errorf returns an *Error at n's line (0 when n is nil).
func Errorf(n *yaml.Node, field, format string, args ...any) *Error {
	e := &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line = n.Line
	}
	return e
}

// InFile sets the file of every *Error in err's chain that has none.
func InFile(err error, file string) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		e.File = file
	}
	return err
}

// notText returns the line of the first byte that YAML text cannot hold
// (a control character other than tab, CR and LF, or invalid UTF-8): yaml's
// own message for one names no line.
func notText(data []byte) (int, bool) {
	line := 1
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return line, true
		}
		if r == '\n' {
			line++
		}
		data = data[n:]
	}
	return 0, false
}

// ErrEmpty is Read's error for a file with no YAML in it.
var ErrEmpty = errors.New("the file is empty")

// Read decodes the YAML file at path into out (usually a type with an
// UnmarshalYAML that calls DecodeFields). Errors name the file.
func Read(path string, out any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if line, ok := notText(data); ok {
		return &Error{File: path, Line: line, Field: "file", Msg: "not a text file (a control character or a byte that is not UTF-8 here; YAML is text)"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml's own messages carry "line N"; put the file in front.
		return fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return InFile(doc.Content[0].Decode(out), path)
}

// Pair is one key: value of a mapping, with the key's node for its line.
type Pair struct {
	Key   string
	KeyN  *yaml.Node
	Value *yaml.Node
}

// Pairs returns the entries of a mapping in file order, refusing keys that
// are not plain names and keys given twice. field names the mapping in errors.
func Pairs(n *yaml.Node, field string) ([]Pair, error) {
	in := field
	if in == "" {
		in = parentKey
	}
	if n.Kind != yaml.MappingNode {
		return nil, Errorf(n, field, "must be a mapping (key: value lines), not %s", KindName(n))
	}
	var out []Pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, Errorf(k, field, "keys must be plain names")
		}
		if seen[k.Value] {
			return nil, Errorf(k, k.Value, "given twice in %s", in)
		}
		seen[k.Value] = true
		out = append(out, Pair{Key: k.Value, KeyN: k, Value: v})
	}
	return out, nil
}

// Value returns the value of key in mapping n, or nil.
func Value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Once refuses a name given twice in the list under key of mapping n:
// "FILE:LINE: KEY: NAME is listed twice", at the second one's line. list is
// that list as decoded, in file order, and name gives an entry's name.
func Once[T any](n *yaml.Node, key string, list []T, name func(T) string) error {
	seen := map[string]bool{}
	items := Value(n, key)
	for i, e := range list {
		if seen[name(e)] {
			return Errorf(items.Content[i], key, "%s is listed twice", name(e))
		}
		seen[name(e)] = true
	}
	return nil
}

// DecodeFields decodes mapping n into the struct out points to, one key at
// a time in file order: a key must be the yaml name of a field of out
// (fields of ",inline" structs included), and is decoded by yaml into that
// field. field names the mapping in errors ("unknown field in experiment").
func DecodeFields(n *yaml.Node, field string, out any) error {
	pairs, err := Pairs(n, field)
	if err != nil {
		return err
	}
	in := field
	if in == "" {
		in = parentKey
	}
	fields := Fields(out)
	for _, kv := range pairs {
		f, ok := fields[kv.Key]
		if !ok {
			return Errorf(kv.KeyN, kv.Key, "unknown field in %s (known: %s)", in, strings.Join(Known(out), ", "))
		}
		if kv.Value.ShortTag() == "!!null" {
			return Errorf(kv.KeyN, kv.Key, "is empty (give a value or leave the key out)")
		}
		if err := kv.Value.Decode(f.Addr().Interface()); err != nil {
			return withField(err, kv.Key, kv.Value, f.Type())
		}
	}
	return nil
}

// Fields maps the yaml keys of the struct out points to to its fields.
func Fields(out any) map[string]reflect.Value {
	fields := map[string]reflect.Value{}
	structFields(reflect.ValueOf(out).Elem(), fields)
	return fields
}

// Known lists the yaml keys of the struct out points to, sorted.
func Known(out any) []string {
	fields := Fields(out)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// structFields maps yaml keys to the fields of struct v, as yaml names them:
// the tag's name, else the lower-cased field name; "-" and unexported
// fields are left out, ",inline" structs are walked.
func structFields(v reflect.Value, into map[string]reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case strings.Contains(opts, "inline"):
			structFields(v.Field(i), into)
			continue
		case tag == "-" || !sf.IsExported():
			continue
		case name == "":
			name = strings.ToLower(sf.Name)
		}
		into[name] = v.Field(i)
	}
}

// withField puts the key into an error from decoding its value. yaml's own
// type errors ("cannot unmarshal !!seq into float64") become a sentence.
func withField(err error, key string, n *yaml.Node, t reflect.Type) error {
	var e *Error
	if errors.As(err, &e) {
		if e.Field == "" {
			e.Field = key
		}
		e.Msg = strings.ReplaceAll(e.Msg, parentKey, key)
		return err
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		want := map[reflect.Kind]string{
			reflect.String: "a single value", reflect.Bool: "true or false",
			reflect.Float64: "a number", reflect.Float32: "a number", reflect.Int: "a whole number", reflect.Int64: "a whole number",
			reflect.Slice: "a list", reflect.Map: "a mapping",
		}[t.Kind()]
		if want == "" {
			want = "a " + t.String()
		}
		return Errorf(n, key, "%s is not %s", KindName(n), want)
	}
	return Errorf(n, key, "%v", err)
}

// KindName describes a node for an error: a mapping, a list, "text".
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "empty"
}

// Scalar returns the text of a scalar node; field names it in errors.
func Scalar(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", Errorf(n, field, "must be a single value, not %s", KindName(n))
	}
	return n.Value, nil
}

// List decodes a sequence into a slice, item by item; a lone scalar or
// mapping is refused with hint ("must be a list (- text: ...)").
func List[T any](n *yaml.Node, field, hint string) ([]T, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, Errorf(n, field, "must be a list %s", hint)
	}
	out := make([]T, len(n.Content))
	for i, item := range n.Content {
		// yaml decodes an empty item ("-" alone) to the zero value
		// without calling its UnmarshalYAML, so none of its checks run.
		if item.Kind == yaml.ScalarNode && item.Tag == "!!null" {
			return nil, Errorf(item, field, "item %d of the list is empty: give it %s, or delete the line", i+1, strings.TrimPrefix(hint, "of "))
		}
		if err := item.Decode(&out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// At remembers the node a value was decoded from: its line for errors
// found after decoding, its text for labels.
type At struct{ Node *yaml.Node }

// Line is the value's line, 0 when it was not read from a file.
func (a At) Line() int {
	if a.Node == nil {
		return 0
	}
	return a.Node.Line
}

// Text is the scalar as written ("" for a list or mapping).
func (a At) Text() string {
	if a.Node == nil || a.Node.Kind != yaml.ScalarNode {
		return ""
	}
	return a.Node.Value
}

// Text is a single value that may be empty.
type Text struct {
	At
	V string
}

func (t *Text) UnmarshalYAML(n *yaml.Node) (err error) {
	t.Node = n
	t.V, err = Scalar(n, "")
	return err
}

// Name is a single value that must not be empty.
type Name struct {
	At
	V string
}

func (t *Name) UnmarshalYAML(n *yaml.Node) (err error) {
	t.Node = n
	if t.V, err = Scalar(n, ""); err == nil && strings.TrimSpace(t.V) == "" {
		err = Errorf(n, "", "is empty")
	}
	return err
}

// The checks below return errors without a field: DecodeFields names the key.

// Int reads a whole number in [lo, hi]; "_" may group digits (1_000_000).
func Int(n *yaml.Node, lo, hi int) (int, error) {
	v, err := Scalar(n, "")
	if err != nil {
		return 0, err
	}
	i, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil {
		return 0, Errorf(n, "", "%q is not a whole number", v)
	}
	if i < lo || i > hi {
		return 0, Errorf(n, "", "%d is out of range (use %d to %d)", i, lo, hi)
	}
	return i, nil
}

// Float reads a number.
func Float(n *yaml.Node) (float64, error) {
	v, err := Scalar(n, "")
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, Errorf(n, "", "%q is not a number", v)
	}
	return f, nil
}

// OneOf reads a value that must be one of allowed.
func OneOf(n *yaml.Node, allowed ...string) (string, error) {
	v, err := Scalar(n, "")
	if err != nil {
		return "", err
	}
	if !slices.Contains(allowed, v) {
		return "", Errorf(n, "", "%q is not one of %s", v, strings.Join(allowed, ", "))
	}
	return v, nil
}
