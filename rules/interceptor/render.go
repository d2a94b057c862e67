package interceptor

import (
	"fmt"
	"strings"
)

// The marks RenderArmour, RenderInternal and RenderTurret use.
const (
	MarkIntact    = "o" // an intact armour box
	MarkDestroyed = "x" // a destroyed box
	MarkWidowed   = "~" // a widowed armour box, or an external lost with it
	MarkExternal  = "E" // an intact external system
	MarkDisabled  = "*" // follows the code of an intact box of a disabled component
)

// Legend returns the lines explaining the marks; like the grids, they fit
// 80 columns (78 characters).
func Legend() []string {
	return []string{
		"o intact armour, x destroyed, ~ widowed, E external system, CODE* box of a",
		"disabled component",
	}
}

// RenderArmour renders facing f's armour block as text lines: a title, a
// column header, a row "ext" for external systems if the facing has any,
// then one line per armour row, outermost first. Lines fit 80 columns.
func (s Ship) RenderArmour(f Facing) []string {
	if !f.Valid() {
		return nil
	}
	a := s.armour[f.index()]
	var ext []string
	for _, e := range s.externals {
		if e.Facing == f {
			if ext == nil {
				ext = make([]string, Columns)
				for i := range ext {
					ext[i] = "."
				}
			}
			ext[e.Column-1] = map[BoxState]string{Intact: MarkExternal, Destroyed: MarkDestroyed, Widowed: MarkWidowed}[e.State]
		}
	}
	return renderArmour(fmt.Sprintf("%s armour (%d boxes)", f, a.rows*Columns), a, ext)
}

func renderArmour(title string, a armourBlock, ext []string) []string {
	const w = 3
	lines := []string{title, header(w)}
	if ext != nil {
		lines = append(lines, row("ext", ext, w))
	}
	for r := range a.rows {
		cells := make([]string, Columns)
		for c := range Columns {
			cells[c] = map[BoxState]string{Intact: MarkIntact, Destroyed: MarkDestroyed, Widowed: MarkWidowed}[a.boxes[r*Columns+c]]
		}
		lines = append(lines, row(fmt.Sprint(r+1), cells, w))
	}
	if a.rows == 0 {
		lines = append(lines, "  (no armour)")
	}
	return lines
}

// RenderInternal renders the hull's Internal Component Block: one line per
// row, outermost first; each cell shows its component code, the code and *
// if the component is disabled, or x if the box is destroyed.
func (s Ship) RenderInternal() []string {
	return renderBody("internal components", s.hull)
}

// RenderTurret renders turret k (1-based): its armour block, then its
// Internal Component Block.
func (s Ship) RenderTurret(k int) []string {
	if k < 1 || k > len(s.turrets) {
		return nil
	}
	t := s.turrets[k-1]
	lines := renderArmour(fmt.Sprintf("turret %d %s armour (%d boxes)", k, t.name, t.armour.rows*Columns), t.armour, nil)
	return append(lines, renderBody(fmt.Sprintf("turret %d %s internal components", k, t.name), t.body)...)
}

func renderBody(title string, b body) []string {
	w := 3
	for _, c := range b.components {
		w = max(w, len(c.Code)+2) // room for the disabled mark and a space
	}
	gone := b.destroyedCounts()
	lines := []string{title, header(w)}
	for r := range b.rows {
		cells := make([]string, Columns)
		for c := range Columns {
			i := r*Columns + c
			comp := b.components[b.cells[i]]
			switch {
			case b.boxes[i] != Intact:
				cells[c] = MarkDestroyed
			case comp.Type != Free && IsDisabled(comp.Boxes, gone[b.cells[i]]):
				cells[c] = comp.Code + MarkDisabled
			default:
				cells[c] = comp.Code
			}
		}
		lines = append(lines, row(fmt.Sprint(r+1), cells, w))
	}
	return lines
}

func header(w int) string {
	var b strings.Builder
	b.WriteString("    ")
	for c := 1; c <= Columns; c++ {
		fmt.Fprintf(&b, "%-*d", w, c)
	}
	return strings.TrimRight(b.String(), " ")
}

func row(label string, cells []string, w int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%3s ", label)
	for _, c := range cells {
		fmt.Fprintf(&b, "%-*s", w, c)
	}
	return strings.TrimRight(b.String(), " ")
}
