package importers

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// templatesShape tells what a templates file holds, for an empty or
// shapeless file.
const templatesShape = `a templates file is a mapping with a templates: list, such as templates: [{name: Block 6, rows: ["XXX", "XXX"]}]`

// ParseTemplates parses a damage templates file (docs/interceptor.md, "The
// template file"): a templates: list of entries with a name and rows. name
// is the file's name as the user gave it, used in errors. Each entry goes
// through interceptor.NewTemplate, so rows of one odd width, of X and .,
// with an X in the top row; two templates may not share a name (in any
// case). At least one template is needed.
//
// Any problem is a *FileError, the first one found, carrying
// rules.CodeInvalid; no templates are returned then.
func ParseTemplates(name string, data []byte, f Format) ([]interceptor.Template, error) {
	r := treeReader{file: name, what: "a templates file", shape: templatesShape}
	root, err := r.root(data, f)
	if err != nil {
		return nil, err
	}
	fs, err := r.fields(root, "the templates file", []string{"templates"}, []string{"templates"})
	if err != nil {
		return nil, err
	}
	items, err := r.list(fs["templates"].val, "templates", `[{name: Block 6, rows: ["XXX", "XXX"]}]`)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, r.errorf(fs["templates"].val.Line, "templates is empty: %s", templatesShape)
	}
	var out []interceptor.Template
	names := map[string]int{}
	for i, item := range items {
		what := label(item, "template", i+1)
		tf, err := r.fields(item, what, []string{"name", "rows"}, []string{"name", "rows"})
		if err != nil {
			return nil, err
		}
		tname, err := r.name(tf["name"].val, what+"'s name")
		if err != nil {
			return nil, err
		}
		key := strings.ToLower(tname)
		if line, dup := names[key]; dup {
			return nil, r.errorf(tf["name"].val.Line, "template %q: the template at line %d has that name too", tname, line)
		}
		names[key] = item.Line
		rv := tf["rows"].val
		cells, err := r.list(rv, fmt.Sprintf("the rows of template %q", tname), `["XXX", ".X."]`)
		if err != nil {
			return nil, err
		}
		rows := make([]string, len(cells))
		for j, c := range cells {
			s, ok := scalar(c)
			if !ok || c.Tag != "!!str" { // a number or true would be counted as cells
				return nil, r.errorf(c.Line, "row %d of template %q must be text such as \"XXX\", not %s", j+1, tname, shown(c))
			}
			rows[j] = strings.TrimSpace(s)
		}
		t, err := interceptor.NewTemplate(tname, rows)
		if err != nil {
			return nil, r.at(tf["rows"].key.Line, err)
		}
		out = append(out, t)
	}
	return out, nil
}
