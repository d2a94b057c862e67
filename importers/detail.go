package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ltscamp/ltscamp/rules"
)

// MaxDetailFile is the largest detailed ship record or templates file read
// (1 MiB): a ship with the most turrets and rows interceptor allows is a
// fraction of it.
const MaxDetailFile = 1 << 20

// DetailFormat picks the format of a detailed ship record or a templates
// file: flag when not empty ("yaml", "yml", "json", in any case), else the
// file name's extension. Standard input ("-") has no extension, so it needs
// the flag. Unlike a roster, these files have no CSV form.
func DetailFormat(name, flag string) (Format, error) {
	return pickFormat(name, flag, FormatYAML, FormatJSON)
}

// FileError is the first problem found in a detailed ship record or a
// templates file, at its place. Err is a *rules.Error with
// rules.CodeInvalid, so rules.CodeOf reads its code through the FileError.
type FileError struct {
	// File is the file's name as the user gave it.
	File string
	// Line counts from 1; it is 0 when the problem is the whole file or
	// the YAML parser did not say where.
	Line int
	Err  error
}

// Error implements error: "file:line: problem", or "file: problem" when
// there is no line.
func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the problem.
func (e *FileError) Unwrap() error { return e.Err }

// treeReader reads a YAML or JSON file through YAML's node tree, whose
// nodes carry their lines, and stops at the first problem.
type treeReader struct {
	file string
	// what the file is, with its article: "a ship record".
	what string
	// shape says in a few words what the file must hold, for an empty or
	// shapeless file.
	shape string
}

// errorf is a problem at a line (0 for the whole file).
func (r treeReader) errorf(line int, format string, a ...any) error {
	return &FileError{File: r.file, Line: line, Err: rules.Errorf(rules.CodeInvalid, format, a...)}
}

// at places an error the rules returned (already coded) at a line.
func (r treeReader) at(line int, err error) error {
	if rules.CodeOf(err) == rules.CodeInternal {
		err = rules.Wrap(rules.CodeInvalid, err)
	}
	return &FileError{File: r.file, Line: line, Err: err}
}

// root decodes data and returns its top mapping, as a YAML node tree
// whose nodes carry their lines.
func (r treeReader) root(data []byte, f Format) (*yaml.Node, error) {
	if f != FormatYAML && f != FormatJSON {
		return nil, fmt.Errorf("importers: %s is YAML or JSON, not %q", r.what, f)
	}
	if len(data) > MaxDetailFile {
		return nil, r.errorf(0, "the file is larger than %d MiB: too large for %s", MaxDetailFile>>20, r.what)
	}
	var root *yaml.Node
	var err error
	if f == FormatJSON {
		root, err = r.jsonRoot(data)
	} else {
		root, err = r.yamlRoot(data)
	}
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, r.errorf(root.Line, "not %s: %s", r.what, r.shape)
	}
	return root, nil
}

// yamlRoot decodes a YAML file: one document, without anchors or aliases.
func (r treeReader) yamlRoot(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, r.errorf(0, "the file is empty: %s", r.shape)
		}
		return nil, r.yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, r.yamlError(err)
		}
		return nil, r.errorf(extra.Line, "a second document: %s is one document", r.what)
	}
	if bad := findAlias(&doc); bad != nil {
		// Aliases let a small file stand for a huge one.
		return nil, r.errorf(bad.Line, "YAML anchors and aliases are not accepted in %s: write each value out", r.what)
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) != 1 {
			return nil, r.errorf(0, "the file is empty: %s", r.shape)
		}
		return doc.Content[0], nil
	}
	return &doc, nil
}

// yamlError is the YAML parser's error at its line, the line said once.
func (r treeReader) yamlError(err error) error {
	line := yamlErrorLine(err)
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if line > 0 {
		msg = strings.TrimPrefix(msg, fmt.Sprintf("line %d: ", line))
	}
	return r.errorf(line, "not YAML: %s", msg)
}

// jsonRoot decodes a JSON file into the node tree YAML would give, with
// the line of every value and key. JSON is not handed to the YAML parser:
// it reads some valid JSON otherwise (the escapes \/ and surrogate pairs
// are errors to it, a raw U+0085 in a string is a line break, tabs are
// refused in places).
func (r treeReader) jsonRoot(data []byte) (*yaml.Node, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a byte order mark, which some editors write
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, r.errorf(0, "the file is empty: %s", r.shape)
	}
	// Unmarshal first: it names the offset of a syntax error, and bounds
	// the nesting that the walk below recurses through.
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = lineAt(se.Offset)
		}
		return nil, r.errorf(line, "not JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// next returns the next token and the line it ends on: InputOffset is
	// just past it, and no JSON token but white space spans lines.
	lines, last := 1, int64(0)
	next := func() (json.Token, int, error) {
		tok, err := dec.Token()
		off := dec.InputOffset()
		lines += bytes.Count(data[last:off], []byte("\n"))
		last = off
		return tok, lines, err
	}
	var value func(tok json.Token, line int) (*yaml.Node, error)
	value = func(tok json.Token, line int) (*yaml.Node, error) {
		switch t := tok.(type) {
		case json.Delim:
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line}
			if t == '{' {
				n.Kind, n.Tag = yaml.MappingNode, "!!map"
			}
			for dec.More() {
				if n.Kind == yaml.MappingNode {
					k, kline, err := next()
					if err != nil {
						return nil, err
					}
					key, _ := k.(string)
					n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: kline})
				}
				tok, vline, err := next()
				if err != nil {
					return nil, err
				}
				c, err := value(tok, vline)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, c)
			}
			if _, _, err := next(); err != nil { // the closing } or ]
				return nil, err
			}
			return n, nil
		case string:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t, Line: line}, nil
		case json.Number:
			tag := "!!int"
			if strings.ContainsAny(string(t), ".eE") {
				tag = "!!float"
			}
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(t), Line: line}, nil
		case bool:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t), Line: line}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}, nil
	}
	tok, line, err := next()
	if err == nil {
		var root *yaml.Node
		if root, err = value(tok, line); err == nil {
			return root, nil
		}
	}
	// Unmarshal took the file, so the decoder cannot fail on it.
	return nil, r.errorf(0, "not JSON: %v", err)
}

// field is a key of a mapping and its value.
type field struct {
	key, val *yaml.Node
}

// normKey is a key as it is compared: lower case, spaces and hyphens as
// underscores, and "armour" spelt "armor" (the spelling; both are
// accepted, as in rosters).
func normKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer(" ", "_", "-", "_").Replace(s)
	if s == "armour" {
		return "armor"
	}
	return s
}

// fields reads mapping m, which is what ("the ship record", "turret
// \"Dorsal\""), whose keys must be among known and include required. It
// refuses an unknown key, naming the nearest known one, and a key given
// twice.
func (r treeReader) fields(m *yaml.Node, what string, known, required []string) (map[string]field, error) {
	if m.Kind != yaml.MappingNode {
		return nil, r.errorf(m.Line, "%s must be a mapping with the keys %s", what, strings.Join(known, ", "))
	}
	out := map[string]field{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		raw, ok := scalar(k)
		key := normKey(raw)
		if !ok || !slices.Contains(known, key) {
			hint := ""
			if s, ok := rules.Suggest(key, known); ok {
				hint = fmt.Sprintf(": did you mean %q?", s)
			} else if s, ok := rules.SuggestPrefix(key, known); ok {
				hint = fmt.Sprintf(": did you mean %q?", s)
			}
			return nil, r.errorf(k.Line, "unknown key %q in %s%s (the keys are %s)", k.Value, what, hint, strings.Join(known, ", "))
		}
		if first, dup := out[key]; dup {
			also := ""
			if key == "armor" {
				also = "; armor and armour are the same key"
			}
			return nil, r.errorf(k.Line, "%q is given twice in %s (also at line %d)%s", k.Value, what, first.key.Line, also)
		}
		out[key] = field{key: k, val: v}
	}
	for _, req := range required {
		if f, ok := out[req]; !ok || isNull(f.val) {
			return nil, r.errorf(m.Line, "%s has no %s: it needs %s", what, req, strings.Join(required, ", "))
		}
	}
	return out, nil
}

// label names an entry of a list for messages: kind and the entry's name
// when it has one ("turret \"Dorsal\""), else kind and its number
// ("turret 2").
func label(m *yaml.Node, kind string, n int) string {
	if m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if normKey(m.Content[i].Value) != "name" {
				continue
			}
			if s, ok := scalar(m.Content[i+1]); ok && strings.TrimSpace(s) != "" && rules.CheckName("", s) == nil {
				return fmt.Sprintf("%s %q", kind, strings.TrimSpace(s))
			}
		}
	}
	return fmt.Sprintf("%s %d", kind, n)
}

// isNull reports whether v is YAML's null (a key with nothing after it).
func isNull(v *yaml.Node) bool { return v.Kind == yaml.ScalarNode && v.Tag == "!!null" }

// text reads a plain value as trimmed text, refusing an empty one.
func (r treeReader) text(v *yaml.Node, what string) (string, error) {
	s, ok := scalar(v)
	s = strings.TrimSpace(s)
	switch {
	case !ok:
		return "", r.errorf(v.Line, "%s must be text", what)
	case s == "":
		return "", r.errorf(v.Line, "%s is empty", what)
	}
	return s, nil
}

// name reads a name: text of at most rules.MaxNameLength characters on one
// line.
func (r treeReader) name(v *yaml.Node, what string) (string, error) {
	s, err := r.text(v, what)
	if err != nil {
		return "", err
	}
	if err := rules.CheckName(what, s); err != nil {
		return "", r.at(v.Line, err)
	}
	return s, nil
}

// number reads a whole number from lo to hi.
func (r treeReader) number(v *yaml.Node, what string, lo, hi int) (int, error) {
	s, ok := scalar(v)
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if !ok || err != nil {
		return 0, r.errorf(v.Line, "%s must be a whole number, not %s", what, shown(v))
	}
	if n < lo || n > hi {
		return 0, r.errorf(v.Line, "%s is %d: it must be %d to %d", what, n, lo, hi)
	}
	return n, nil
}

// list returns the items of a sequence, refusing anything else.
func (r treeReader) list(v *yaml.Node, what, example string) ([]*yaml.Node, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, r.errorf(v.Line, "%s must be a list, such as %s", what, example)
	}
	return v.Content, nil
}

// shown is a value as a message quotes it.
func shown(v *yaml.Node) string {
	switch {
	case v.Kind == yaml.MappingNode:
		return "a mapping"
	case v.Kind == yaml.SequenceNode:
		return "a list"
	case isNull(v):
		return "nothing"
	}
	return strconv.Quote(v.Value)
}
