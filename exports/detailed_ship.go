package exports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// DetailedShipDoc is a detailed (INTERCEPTOR) ship's record: its armour
// and Internal Component Blocks drawn as grids by the rules, and its
// components, externals, turrets and crew. `export ship NAME` makes one
// for a detailed ship, a ShipDoc for a section ship.
type DetailedShipDoc struct {
	Trace Trace
	// Ship is the ship as `ship show NAME --json` prints it.
	Ship projections.DetailedShipView
	// Armour holds each facing's armour block: forward, aft, left, right.
	Armour []Grid
	// Internal is the hull's Internal Component Block.
	Internal Grid
	// Turrets holds each turret's blocks, in the order of Ship.Turrets.
	Turrets []TurretGrids
	// Legend explains the marks of the grids, in lines of at most 78
	// characters.
	Legend []string
}

// Grid is one block of a detailed ship as the rules draw it in text
// (rules/interceptor's RenderArmour, RenderInternal and RenderTurret).
type Grid struct {
	// Title names the block, as "Forward armour (80 boxes)".
	Title string
	// Summary counts its boxes, as "68 intact, 12 destroyed, 0 widowed";
	// empty when the view does not count them (a turret's armour).
	Summary string
	// Lines are the grid: a header of column numbers, then one line per
	// row, outermost first, labelled with its number (and, above a
	// facing's armour, a line "ext" for its external systems). Every
	// cell is a mark of Legend or a component's code. Monospace, at most
	// 64 characters wide.
	Lines []string
}

// TurretGrids are a turret's armour block and its Internal Component
// Block.
type TurretGrids struct {
	Armour   Grid
	Internal Grid
}

// NewDetailedShipDoc returns the document of a detailed ship folded at the
// point t names: its view, and its blocks as the rules draw them.
func NewDetailedShipDoc(t Trace, sh projections.DetailedShip) DetailedShipDoc {
	s, v := sh.Ship(), sh.View()
	d := DetailedShipDoc{Trace: t, Ship: v, Turrets: []TurretGrids{},
		Legend: interceptor.Legend()}
	for _, f := range interceptor.Facings() {
		b := v.Armor[string(f)]
		g := newGrid(s.RenderArmour(f))
		g.Summary = fmt.Sprintf("%d intact, %d destroyed, %d widowed",
			b.Intact, b.Destroyed, b.Widowed)
		d.Armour = append(d.Armour, g)
	}
	d.Internal = newGrid(s.RenderInternal())
	d.Internal.Summary = fmt.Sprintf("%d of %d boxes destroyed",
		v.Internal.Destroyed, v.Internal.Boxes)
	for k, tv := range v.Turrets {
		lines := s.RenderTurret(k + 1)
		// RenderTurret draws the armour block (a title, a header, one
		// line per row or one saying there is no armour), then the
		// internal block.
		split := min(2+max(tv.ArmorBoxes/interceptor.Columns, 1), len(lines))
		tg := TurretGrids{Armour: newGrid(lines[:split]),
			Internal: newGrid(lines[split:])}
		lost, boxes := 0, 0
		for _, c := range tv.Components {
			lost += c.Lost
			boxes += c.Boxes
		}
		tg.Internal.Summary = fmt.Sprintf("%d of %d boxes destroyed",
			lost, boxes)
		d.Turrets = append(d.Turrets, tg)
	}
	return d
}

// newGrid makes a grid of the rules' lines: the first is the title.
func newGrid(lines []string) Grid {
	if len(lines) == 0 {
		return Grid{Lines: []string{}}
	}
	title := lines[0]
	if title != "" {
		title = strings.ToUpper(title[:1]) + title[1:]
	}
	return Grid{Title: title, Lines: append([]string{}, lines[1:]...)}
}

// ComponentState says what a component's damage leaves of it, as `ship
// show` does: "disabled" (the rules' verdict), "destroyed" (every box
// lost), "damaged" or "ok". A template calls it as {{$.ComponentState .}}.
func (DetailedShipDoc) ComponentState(c projections.DetailedComponent) string {
	switch {
	case c.Disabled:
		return "disabled"
	case c.Boxes > 0 && c.Lost >= c.Boxes:
		return "destroyed"
	case c.Lost > 0:
		return "damaged"
	}
	return "ok"
}

// CrewStatus is a crewman's status, and "wounded" when he is.
func (DetailedShipDoc) CrewStatus(c projections.DetailedCrewView) string {
	if c.Wounded {
		return c.Status + ", wounded"
	}
	return c.Status
}

// detailedShipPage lays out a detailed ship: its title, the four armour
// blocks two by two, the Internal Component Block and the legend, the
// components, externals, turrets and crew. The Space Gull of the book
// (four blocks of 8, 4, 4 and 4 rows, an internal block of 4) fits one
// page; a ship with turrets runs onto more.
func (p *pdf) detailedShipPage(d DetailedShipDoc) {
	f := p.f
	v := d.Ship
	f.AddPage()
	width := p.x1 - p.x0
	y := pdfMargin
	p.text(p.x0, y, width, "B", 22, v.Name, "L")
	y += lh(22)
	state := "Detailed record (INTERCEPTOR)"
	if fate := v.Fate(); fate != "" {
		f.SetTextColor(180, 0, 0)
		state = v.Heading() + ": " + fate
	}
	y = p.paragraph(y, "B", 11, state)
	f.SetTextColor(0, 0, 0)
	sub := projections.Count(v.Hits, "hit", "hits")
	if v.Repairs > 0 {
		sub += " and " + projections.Count(v.Repairs, "repair", "repairs")
	}
	sub += " in effect"
	if v.File != "" {
		sub += " · record " + v.File
	}
	p.text(p.x0, y, width, "", 9.5, sub, "L")
	y += lh(9.5) + 3

	y = p.heading(y, "Armour")
	for i := 0; i+1 < len(d.Armour); i += 2 {
		y = p.gridPair(y, d.Armour[i], d.Armour[i+1]) + 2
	}
	if len(d.Armour)%2 == 1 {
		y = p.gridPair(y, d.Armour[len(d.Armour)-1], Grid{}) + 2
	}
	y = p.need(y, p.gridHeight(d.Internal, 11)+lh(11)+3)
	y = p.heading(y+1, "Internal components")
	y = p.grid(p.x0, y, width, d.Internal, 11) + 1
	p.f.SetTextColor(90, 90, 90)
	y = p.paragraph(y, "I", 8, "Legend: "+strings.Join(d.Legend, " ")) + 3
	p.f.SetTextColor(0, 0, 0)

	y = p.need(y, lh(11)+3*lh(9))
	y = p.heading(y, "Components")
	y = p.detailedComponents(y, d, v.Components) + 2

	y = p.need(y, lh(11)+2*lh(9))
	y = p.heading(y, "External systems")
	if len(v.Externals) == 0 {
		p.text(p.x0, y, width, "I", 9, "none", "L")
		y += lh(9) + 2
	} else {
		rows := make([][]string, 0, len(v.Externals))
		for _, e := range v.Externals {
			rows = append(rows, []string{e.Name, e.Type, e.Facing,
				strconv.Itoa(e.Column), e.State})
		}
		y = p.table(y, []string{"Name", "Type", "Facing", "Column", "State"},
			p.widths(30, 34, 12, 10, 14),
			[]string{"L", "L", "L", "R", "L"}, rows, 9) + 2
	}

	for k, t := range v.Turrets {
		tg := TurretGrids{}
		if k < len(d.Turrets) {
			tg = d.Turrets[k]
		}
		y = p.need(y, lh(11)+max(p.gridHeight(tg.Armour, 10),
			p.gridHeight(tg.Internal, 10)))
		head := fmt.Sprintf("Turret %d: %s", k+1, t.Name)
		if t.State != "standing" {
			head += " (" + t.State + ")"
		}
		y = p.heading(y, head)
		y = p.gridPair(y, tg.Armour, tg.Internal) + 1
		y = p.detailedComponents(y, d, t.Components) + 2
	}

	y = p.need(y, lh(11)+2*lh(9))
	y = p.heading(y, "Crew")
	if len(v.Crew) == 0 {
		p.text(p.x0, y, width, "I", 9, "none", "L")
		return
	}
	rows := make([][]string, 0, len(v.Crew))
	for _, c := range v.Crew {
		rows = append(rows,
			[]string{c.Name, c.Race, c.Station, d.CrewStatus(c)})
	}
	p.table(y, []string{"Name", "Race", "Station", "Status"},
		p.widths(34, 22, 14, 30), []string{"L", "L", "L", "L"}, rows, 9)
}

// detailedComponents lays out a components table and returns the y below.
func (p *pdf) detailedComponents(y float64, d DetailedShipDoc,
	cs []projections.DetailedComponent) float64 {
	rows := make([][]string, 0, len(cs))
	for _, c := range cs {
		rows = append(rows, []string{c.Name, c.Type, strconv.Itoa(c.Boxes),
			strconv.Itoa(c.Lost), d.ComponentState(c)})
	}
	if len(rows) == 0 {
		rows = append(rows, []string{"", "none", "", "", ""})
	}
	return p.table(y, []string{"Code", "Type", "Boxes", "Lost", "State"},
		p.widths(10, 48, 12, 12, 18),
		[]string{"L", "L", "R", "R", "L"}, rows, 9)
}

// need starts a new page when less than h is left below y, and returns
// where to go on.
func (p *pdf) need(y, h float64) float64 {
	if y+h > p.bottom {
		p.f.AddPage()
		return pdfMargin
	}
	return y
}

// gridFont is the size of a grid's type: pt, or smaller so that its
// widest line fits width.
func (p *pdf) gridFont(g Grid, width, pt float64) float64 {
	p.f.SetFont(fontMono, "", pt)
	widest := 0.0
	for _, l := range g.Lines {
		widest = max(widest, p.f.GetStringWidth(l))
	}
	if widest > width {
		pt = max(4, pt*width/widest)
	}
	return pt
}

// gridHeight is the height grid takes at pt points: its title, its
// summary and its lines.
func (p *pdf) gridHeight(g Grid, pt float64) float64 {
	if g.Title == "" && len(g.Lines) == 0 {
		return 0
	}
	return lh(9) + float64(len(g.Lines))*lh(pt)
}

// gridPair lays two grids side by side, each in half the text block, on
// one page, and returns the y below the taller.
func (p *pdf) gridPair(y float64, a, b Grid) float64 {
	half := (p.x1 - p.x0 - 6) / 2
	pt := min(p.gridFont(a, half, 10), p.gridFont(b, half, 10))
	y = p.need(y, max(p.gridHeight(a, pt), p.gridHeight(b, pt)))
	ya := p.grid(p.x0, y, half, a, pt)
	yb := p.grid(p.x0+half+6, y, half, b, pt)
	return max(ya, yb)
}

// grid draws a block at (x, y) within width: the title in bold with the
// summary after it, then the lines in monospace at pt points (smaller if
// they do not fit). Destroyed boxes are red, widowed ones grey, a
// disabled component's boxes amber, row and column numbers grey. It
// returns the y below.
func (p *pdf) grid(x, y, width float64, g Grid, pt float64) float64 {
	if g.Title == "" && len(g.Lines) == 0 {
		return y
	}
	f := p.f
	// The title and the summary share a line, in smaller type if they
	// need it.
	summary := ""
	if g.Summary != "" {
		summary = ": " + g.Summary
	}
	tpt := 9.0
	for ; tpt > 6.5; tpt -= 0.5 {
		f.SetFont(fontSans, "B", tpt)
		tw := f.GetStringWidth(Printable(g.Title))
		f.SetFont(fontSans, "", tpt)
		if tw+f.GetStringWidth(Printable(summary)) <= width {
			break
		}
	}
	f.SetFont(fontSans, "B", tpt)
	title := p.fit(g.Title, width)
	tw := f.GetStringWidth(title)
	p.text(x, y, width, "B", tpt, title, "L")
	if summary != "" && tw+4 < width {
		p.text(x+tw, y, width-tw, "", tpt, summary, "L")
	}
	y += lh(9)
	pt = p.gridFont(g, width, pt)
	f.SetFont(fontMono, "", pt)
	charW := f.GetStringWidth("0")
	for i, line := range g.Lines {
		for _, run := range gridRuns(line, i == 0) {
			r, gr, b := run.color()
			f.SetTextColor(r, gr, b)
			f.SetXY(x+float64(run.at)*charW, y)
			w := float64(len([]rune(run.text))) * charW
			f.CellFormat(w, lh(pt), Printable(run.text), "", 0, "L",
				false, 0, "")
		}
		y += lh(pt)
	}
	f.SetTextColor(0, 0, 0)
	return y
}

// gridRun is a piece of a grid line drawn in one colour, from column at.
type gridRun struct {
	at   int
	text string
	kind byte // 'l' label, 'x' destroyed, '~' widowed, '*' disabled, 0 other
}

func (r gridRun) color() (int, int, int) {
	switch r.kind {
	case 'l':
		return 120, 120, 120
	case 'x':
		return 190, 0, 0
	case '~':
		return 150, 150, 150
	case '*':
		return 190, 110, 0
	}
	return 0, 0, 0
}

// gridRuns splits a grid line into its words, each with its column and
// what it shows: the first word (the row's label) and the whole header
// are labels.
func gridRuns(line string, header bool) []gridRun {
	var runs []gridRun
	// A note in parentheses, as "(no armour)", is not a row of boxes.
	note := strings.HasPrefix(strings.TrimSpace(line), "(")
	rs := []rune(line)
	for i := 0; i < len(rs); {
		if rs[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] != ' ' {
			j++
		}
		w := string(rs[i:j])
		run := gridRun{at: i, text: w}
		switch {
		case header || note || len(runs) == 0:
			run.kind = 'l'
		case w == interceptor.MarkDestroyed:
			run.kind = 'x'
		case w == interceptor.MarkWidowed:
			run.kind = '~'
		case len(w) > 1 && strings.HasSuffix(w, interceptor.MarkDisabled):
			run.kind = '*'
		}
		runs = append(runs, run)
		i = j
	}
	return runs
}
