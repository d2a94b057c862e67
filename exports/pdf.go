package exports

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/ltscamp/ltscamp/projections"
)

// Paper is a page size.
type Paper string

// The page sizes.
const (
	PaperA4     Paper = "a4"
	PaperLetter Paper = "letter"
)

// ParsePaper reads "a4" or "letter", in any case.
func ParsePaper(s string) (Paper, error) {
	switch p := Paper(strings.ToLower(strings.TrimSpace(s))); p {
	case PaperA4, PaperLetter:
		return p, nil
	case "":
		return PaperA4, nil
	}
	return "", fmt.Errorf("--paper %q: the page sizes are a4 and letter", s)
}

// PDFOptions configure PDF.
type PDFOptions struct {
	// Paper is the page size; the zero value is A4.
	Paper Paper
}

// pdfEpoch dates every PDF, so that the same document always gives the
// same pages: a PDF's own date would say when it was rendered, which the
// trace in its footer says better (the seq and hash of the log). (The bytes
// still vary a little: fpdf's font subsetting walks a Go map.)
var pdfEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// The fonts: the Go fonts (BSD licence), embedded and subset, which cover
// Latin, Greek and Cyrillic ("Zoë", "Łukasz", "Ærin").
const (
	fontSans = "gosans"
	fontMono = "gomono"
)

// Layout sizes, in millimetres and points.
const (
	pdfMargin    = 15.0
	pdfFooterGap = 14.0 // room kept at the bottom for the footer
	lineGap      = 1.35 // line height as a multiple of the font size
)

// PDF writes doc (one of the document types of this package, by value) as
// a PDF: a character sheet on exactly one page, the party as a summary page
// and one page per member, a ship record, the timeline, an XP audit and
// the dice report. Every page carries the trace and its page number in
// its footer.
func PDF(w io.Writer, doc any, opts PDFOptions) error {
	size := "A4"
	if opts.Paper == PaperLetter {
		size = "Letter"
	}
	var trace Trace
	var title string
	switch d := doc.(type) {
	case SheetDoc:
		trace, title = d.Trace, "Character sheet: "+d.Sheet.Name
	case PartyDoc:
		trace, title = d.Trace, "Party of "+d.Trace.Campaign
	case ShipDoc:
		trace, title = d.Trace, "Star craft: "+d.Ship.Name
	case DetailedShipDoc:
		trace, title = d.Trace, "Star craft: "+d.Ship.Name
	case TimelineDoc:
		trace, title = d.Trace, "Timeline of "+d.Trace.Campaign
	case AuditDoc:
		trace, title = d.Trace, "XP audit of "+d.Audit.Character
	case DiceDoc:
		trace, title = d.Trace, "Dice report — "+d.Report.Campaign
	default:
		return errUnknownDoc(doc)
	}
	p := newPDF(size, trace, title)
	switch d := doc.(type) {
	case SheetDoc:
		p.sheetPage(d.Sheet)
	case PartyDoc:
		p.partySummary(d)
		for _, s := range d.Sheets {
			p.sheetPage(s)
		}
	case ShipDoc:
		p.shipPage(d.Ship)
	case DetailedShipDoc:
		p.detailedShipPage(d)
	case TimelineDoc:
		p.timeline(d)
	case AuditDoc:
		p.audit(d.Audit)
	case DiceDoc:
		p.dice(d)
	}
	if err := p.f.Error(); err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	return p.f.Output(w)
}

// pdf is a document being laid out.
type pdf struct {
	f     *fpdf.Fpdf
	trace Trace
	// w and h are the page's size; x0, x1 the text block's left and right
	// edges, and bottom the lowest y text may reach.
	w, h, x0, x1, bottom float64
}

func newPDF(size string, trace Trace, title string) *pdf {
	f := fpdf.New("P", "mm", size, "")
	f.SetCreationDate(pdfEpoch)
	f.SetModificationDate(pdfEpoch)
	f.SetCatalogSort(true)
	f.SetTitle(title, true)
	f.SetCreator("ltscamp", true)
	f.SetProducer("ltscamp", true)
	f.AddUTF8FontFromBytes(fontSans, "", goregular.TTF)
	f.AddUTF8FontFromBytes(fontSans, "B", gobold.TTF)
	f.AddUTF8FontFromBytes(fontSans, "I", goitalic.TTF)
	f.AddUTF8FontFromBytes(fontMono, "", gomono.TTF)
	f.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	f.SetAutoPageBreak(true, pdfMargin+pdfFooterGap)
	f.AliasNbPages("{nb}")
	w, h := f.GetPageSize()
	p := &pdf{f: f, trace: trace, w: w, h: h, x0: pdfMargin, x1: w - pdfMargin, bottom: h - pdfMargin - pdfFooterGap}
	f.SetFooterFunc(p.footer)
	return p
}

// footer writes the trace and the page number at the foot of every page.
func (p *pdf) footer() {
	f := p.f
	y := p.h - pdfMargin - 8
	f.SetDrawColor(160, 160, 160)
	f.SetLineWidth(0.2)
	f.Line(p.x0, y, p.x1, y)
	f.SetTextColor(90, 90, 90)
	f.SetFont(fontSans, "", 7)
	as := "folded at"
	if p.trace.AsOf {
		as = "as of"
	}
	f.SetXY(p.x0, y+1)
	f.CellFormat(p.x1-p.x0-25, 3.5, fmt.Sprintf("%s · edition %s · %s seq %d", Printable(p.trace.Campaign), p.trace.Edition, as, p.trace.Seq), "", 0, "L", false, 0, "")
	f.CellFormat(25, 3.5, fmt.Sprintf("page %d of {nb}", f.PageNo()), "", 1, "R", false, 0, "")
	f.SetX(p.x0)
	f.SetFont(fontMono, "", 6.5)
	f.CellFormat(p.x1-p.x0, 3.5, "hash "+p.trace.Hash, "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
}

// lh is the line height of a font size in points, in millimetres.
func lh(pt float64) float64 { return pt * lineGap * 25.4 / 72 }

// fit shortens s with an ellipsis until it is at most width wide in the
// current font. Characters that are not text are escaped first
// (Printable).
func (p *pdf) fit(s string, width float64) string {
	s = Printable(s)
	if p.f.GetStringWidth(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && p.f.GetStringWidth(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// text writes one line at (x, y) in the given style and size, cut to
// width.
func (p *pdf) text(x, y, width float64, style string, pt float64, s, align string) {
	p.f.SetFont(fontSans, style, pt)
	p.f.SetXY(x, y)
	p.f.CellFormat(width, lh(pt), p.fit(s, width), "", 0, align, false, 0, "")
}

// heading writes a section heading with a rule under it and moves below.
func (p *pdf) heading(y float64, s string) float64 {
	p.text(p.x0, y, p.x1-p.x0, "B", 11, s, "L")
	y += lh(11)
	p.f.SetDrawColor(0, 0, 0)
	p.f.SetLineWidth(0.3)
	p.f.Line(p.x0, y, p.x1, y)
	return y + 1.5
}

// boxes draws n small squares from (x, y), filled first ones filled, in
// rows of perRow; it returns the y below them.
func (p *pdf) boxes(x, y float64, n, filled, perRow int, size float64) float64 {
	if n < 1 {
		return y
	}
	p.f.SetLineWidth(0.25)
	p.f.SetDrawColor(0, 0, 0)
	p.f.SetFillColor(40, 40, 40)
	for i := 0; i < n; i++ {
		bx := x + float64(i%perRow)*(size+0.8)
		by := y + float64(i/perRow)*(size+0.8)
		style := "D"
		if i < filled {
			style = "FD"
		}
		p.f.Rect(bx, by, size, size, style)
	}
	rows := (n + perRow - 1) / perRow
	return y + float64(rows)*(size+0.8)
}

// table lays out rows under headers with the given column widths (summing
// to the text block's width or less) and alignments ("L", "R", "C"),
// starting at y. A cell too long for its column wraps onto more lines. It
// breaks pages as needed, repeating the header, and returns the y below
// the table.
func (p *pdf) table(y float64, headers []string, widths []float64, aligns []string, rows [][]string, pt float64) float64 {
	f := p.f
	h := lh(pt) + 0.6
	header := func() {
		f.SetFont(fontSans, "B", pt)
		f.SetFillColor(225, 225, 225)
		f.SetXY(p.x0, y)
		for i, hd := range headers {
			f.CellFormat(widths[i], h, p.fit(hd, widths[i]-1.5), "B", 0, aligns[i], true, 0, "")
		}
		y += h
	}
	header()
	for r, row := range rows {
		f.SetFont(fontSans, "", pt)
		cells := make([][]string, len(row))
		lines := 1
		for i, c := range row {
			cells[i] = f.SplitText(Printable(c), widths[i]-1.5)
			if len(cells[i]) == 0 {
				cells[i] = []string{""}
			}
			lines = max(lines, len(cells[i]))
		}
		rowH := float64(lines) * h
		if y+rowH > p.bottom {
			f.AddPage()
			y = pdfMargin
			header()
			f.SetFont(fontSans, "", pt)
		}
		if r%2 == 1 {
			f.SetFillColor(245, 245, 245)
			f.Rect(p.x0, y, sum(widths), rowH, "F")
		}
		x := p.x0
		for i := range row {
			for l, line := range cells[i] {
				f.SetXY(x, y+float64(l)*h)
				f.CellFormat(widths[i], h, line, "", 0, aligns[i], false, 0, "")
			}
			x += widths[i]
		}
		y += rowH
	}
	f.SetDrawColor(0, 0, 0)
	f.SetLineWidth(0.2)
	f.Line(p.x0, y, p.x0+sum(widths), y)
	return y + 2
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// widths scales relative column widths to the text block.
func (p *pdf) widths(rel ...float64) []float64 {
	t := sum(rel)
	out := make([]float64, len(rel))
	for i, r := range rel {
		out[i] = r / t * (p.x1 - p.x0)
	}
	return out
}

// paragraph writes wrapped text from y and returns the y below it.
func (p *pdf) paragraph(y float64, style string, pt float64, s string) float64 {
	p.f.SetFont(fontSans, style, pt)
	p.f.SetXY(p.x0, y)
	p.f.MultiCell(p.x1-p.x0, lh(pt), Printable(s), "", "L", false)
	return p.f.GetY()
}

// statusText is a sheet's status in words, with how he died.
func statusText(s projections.Sheet) string {
	st := s.Status
	if s.Dead && s.DeathCause != "" {
		st += ": " + s.DeathCause
	}
	return st
}

// sheetPage lays out one character sheet on one page of its own. The
// skills list, the only part whose length varies, gets the room left and
// a smaller type or more columns when it needs them.
func (p *pdf) sheetPage(s projections.Sheet) {
	f := p.f
	f.AddPage()
	// A sheet is one page: nothing below breaks onto another.
	f.SetAutoPageBreak(false, 0)
	defer f.SetAutoPageBreak(true, pdfMargin+pdfFooterGap)
	width := p.x1 - p.x0
	y := pdfMargin

	// Title block: the name, large, and edition and status on the right.
	f.SetFont(fontSans, "B", 24)
	nameW := width * 0.62
	pt := 24.0
	for pt > 12 && f.GetStringWidth(s.Name) > nameW {
		pt--
		f.SetFont(fontSans, "B", pt)
	}
	p.text(p.x0, y, nameW, "B", pt, s.Name, "L")
	p.text(p.x0+nameW, y+1, width-nameW, "", 10, "Legends of Time and Space · edition "+string(s.Edition), "R")
	status := statusText(s)
	if s.Status != projections.StatusOK {
		f.SetTextColor(180, 0, 0)
		status = strings.ToUpper(s.Status[:1]) + status[1:]
	} else {
		status = "Status: ok"
	}
	if s.Foe {
		status = "Foe · " + status
	}
	p.text(p.x0+nameW, y+1+lh(10), width-nameW, "B", 10, status, "R")
	f.SetTextColor(0, 0, 0)
	y += lh(24) + 1
	f.SetLineWidth(0.6)
	f.Line(p.x0, y, p.x1, y)
	y += 4

	// Attributes: three large boxes, then MA.
	boxW, boxH := (width-3*4)/4, 24.0
	attr := []struct {
		name, value, note string
	}{
		{"ST", strconv.Itoa(s.Attributes.ST), "strength"},
		{"DX", strconv.Itoa(s.Attributes.DX), "adjusted " + strconv.Itoa(s.Adjusted.DX)},
		{"IQ", strconv.Itoa(s.Attributes.IQ), "intelligence"},
		{"MA", strconv.Itoa(s.Adjusted.MA), "movement"},
	}
	for i, a := range attr {
		x := p.x0 + float64(i)*(boxW+4)
		f.SetLineWidth(0.4)
		f.Rect(x, y, boxW, boxH, "D")
		p.text(x+2, y+1.5, boxW-4, "B", 10, a.name, "L")
		p.text(x, y+5, boxW, "B", 26, a.value, "C")
		p.text(x, y+boxH-5.5, boxW, "", 7.5, a.note, "C")
	}
	y += boxH + 6

	// Condition: damage and fatigue boxes, against ST.
	y = p.heading(y, "Condition")
	labelW := 24.0
	per := 20
	boxSize := 4.2
	p.text(p.x0, y, labelW, "B", 9, "Damage", "L")
	p.text(p.x0+labelW+float64(per)*(boxSize+0.8)+2, y, width-labelW-float64(per)*(boxSize+0.8)-2, "", 8.5,
		fmt.Sprintf("%d of %d · dying at %d, lost at %d", s.Damage, s.Attributes.ST, s.Attributes.ST, 2*s.Attributes.ST), "L")
	y = p.boxes(p.x0+labelW, y+0.5, max(s.Attributes.ST, s.Damage), s.Damage, per, boxSize) + 2
	p.text(p.x0, y, labelW, "B", 9, "Fatigue", "L")
	p.text(p.x0+labelW+float64(per)*(boxSize+0.8)+2, y, width-labelW-float64(per)*(boxSize+0.8)-2, "", 8.5,
		fmt.Sprintf("%d of %d", s.Fatigue, s.Attributes.ST), "L")
	y = p.boxes(p.x0+labelW, y+0.5, max(s.Attributes.ST, s.Fatigue), s.Fatigue, per, boxSize) + 4

	// Equipment.
	y = p.heading(y, "Weapon and armour")
	weapon, armor := "none (unarmed)", "none"
	if w := s.Weapon; w != nil {
		weapon = w.Name
		if w.Damage != "" {
			weapon += ", damage " + w.Damage
		}
		if w.Heft > 0 {
			weapon += fmt.Sprintf(", heft %d", w.Heft)
		}
		if len(w.Flags) > 0 {
			weapon += " (" + strings.Join(w.Flags, ", ") + ")"
		}
	}
	if a := s.Armor; a != nil {
		armor = armorText(*a)
	}
	if len(s.ArmorItems) > 1 {
		// Worn together: each item as its A/R and flags, then the total.
		items := make([]string, len(s.ArmorItems))
		for i, a := range s.ArmorItems {
			var flags []string
			if a.NoBullets {
				flags = append(flags, "B")
			}
			if a.SpaceSuit {
				flags = append(flags, "SS")
				if a.Failed {
					flags[len(flags)-1] = "SS failed"
				}
			}
			items[i] = fmt.Sprintf("%s %d/%d", a.Name, a.Protection, a.Restriction)
			if len(flags) > 0 {
				items[i] += " (" + strings.Join(flags, ", ") + ")"
			}
		}
		armor = fmt.Sprintf("%s = protection %d, restriction %d", strings.Join(items, " + "), s.Armor.Protection, s.Armor.Restriction)
	}
	p.text(p.x0, y, labelW, "B", 9.5, "Weapon", "L")
	p.text(p.x0+labelW, y, width-labelW, "", 9.5, weapon, "L")
	y += lh(9.5)
	p.text(p.x0, y, labelW, "B", 9.5, "Armour", "L")
	p.text(p.x0+labelW, y, width-labelW, "", 9.5, armor, "L")
	y += lh(9.5) + 4

	if s.Foe {
		// A foe has no XP, karma, wishes or curses.
		y = p.heading(y, "Skills")
		p.skills(y, s.Skills)
		return
	}

	// Experience and fortune, side by side.
	y = p.heading(y, "Experience and fortune")
	col := width / 4
	karma := strconv.Itoa(s.Karma)
	if s.ExpiringKarma > 0 {
		karma += fmt.Sprintf(" (%d expiring)", s.ExpiringKarma)
	}
	for i, kv := range [][2]string{
		{"XP earned", strconv.Itoa(s.XP.Earned)}, {"XP spent", strconv.Itoa(s.XP.Spent)}, {"XP unspent", strconv.Itoa(s.XP.Unspent)}, {"", ""},
		{"Karma", karma}, {"Wishes", strconv.Itoa(s.Wishes)}, {"Curses", strconv.Itoa(s.Curses)}, {"", ""},
	} {
		if kv[0] == "" {
			continue
		}
		x := p.x0 + float64(i%4)*col
		yy := y + float64(i/4)*(lh(9)+lh(14)+1)
		p.text(x, yy, col-2, "", 9, kv[0], "L")
		p.text(x, yy+lh(9), col-2, "B", 14, kv[1], "L")
	}
	y += 2*(lh(9)+lh(14)+1) + 3

	// Skills take the rest of the page.
	y = p.heading(y, "Skills")
	p.skills(y, s.Skills)
}

// armorText is an item of armour (or a sheet's total) in words.
func armorText(a projections.Armor) string {
	s := fmt.Sprintf("%s, protection %d, restriction %d", a.Name, a.Protection, a.Restriction)
	if a.NoBullets {
		s += ", no protection from bullets"
	}
	if a.SpaceSuit {
		s += ", space suit"
	}
	if a.Failed {
		s += " (failed)"
	}
	return s
}

// skills lays out a skill list from y in three columns, filled down
// first, in smaller type only when the room left on the page does not
// hold it; the rest of the page is a box for notes. It returns nothing:
// the sheet ends here.
func (p *pdf) skills(y float64, skills []projections.Skill) {
	width := p.x1 - p.x0
	if len(skills) == 0 {
		p.text(p.x0, y, width, "I", 10, "none", "L")
		y += lh(10)
	} else {
		const cols = 3
		rows := (len(skills) + cols - 1) / cols
		pt := 10.0
		// Keep room for a notes box of 30 mm while the type is readable.
		for pt > 6 && y+float64(rows)*lh(pt) > p.bottom-30 {
			pt -= 0.5
		}
		for pt > 3 && y+float64(rows)*lh(pt) > p.bottom {
			pt -= 0.25
		}
		colW := width / cols
		for i, sk := range skills {
			x := p.x0 + float64(i/rows)*colW
			yy := y + float64(i%rows)*lh(pt)
			p.text(x, yy, colW-16, "", pt, sk.Name, "L")
			p.text(x+colW-16, yy, 8, "B", pt, strconv.Itoa(sk.Level), "R")
		}
		y += float64(rows) * lh(pt)
	}
	if room := p.bottom - y - 5; room >= 20 {
		y = p.heading(y+3, "Notes")
		p.f.SetDrawColor(170, 170, 170)
		p.f.SetLineWidth(0.2)
		for ly := y + 7; ly < p.bottom-1; ly += 7 {
			p.f.Line(p.x0, ly, p.x1, ly)
		}
		p.f.SetDrawColor(0, 0, 0)
	}
}

// partySummary is the party's first page: a table of every member.
func (p *pdf) partySummary(d PartyDoc) {
	p.f.AddPage()
	y := pdfMargin
	p.text(p.x0, y, p.x1-p.x0, "B", 20, "Party of "+d.Trace.Campaign, "L")
	y += lh(20) + 1
	p.text(p.x0, y, p.x1-p.x0, "", 10, fmt.Sprintf("Edition %s · %s", d.Trace.Edition, projections.Count(len(d.Sheets), "member", "members")), "L")
	y += lh(10) + 4
	if len(d.Sheets) == 0 {
		p.text(p.x0, y, p.x1-p.x0, "I", 11, "The party is empty: nobody has been created yet.", "L")
		return
	}
	rows := make([][]string, 0, len(d.Sheets))
	for _, s := range d.Sheets {
		rows = append(rows, []string{s.Name, s.Status, strconv.Itoa(s.Attributes.ST), strconv.Itoa(s.Attributes.DX), strconv.Itoa(s.Attributes.IQ),
			strconv.Itoa(s.Damage), strconv.Itoa(s.Fatigue), strconv.Itoa(s.XP.Unspent), strconv.Itoa(s.Karma), strconv.Itoa(s.Wishes), strconv.Itoa(s.Curses)})
	}
	y = p.table(y, []string{"Name", "Status", "ST", "DX", "IQ", "Dmg", "Fat", "XP", "Karma", "Wishes", "Curses"},
		p.widths(30, 20, 7, 7, 7, 8, 8, 8, 10, 11, 11), []string{"L", "L", "R", "R", "R", "R", "R", "R", "R", "R", "R"}, rows, 9.5)
	if len(d.Foes) == 0 {
		return
	}
	y = p.heading(y+4, "Foes in the encounter")
	rows = rows[:0]
	for _, s := range d.Foes {
		gear := []string{}
		if s.Weapon != nil {
			gear = append(gear, s.Weapon.Name)
		}
		if s.Armor != nil {
			gear = append(gear, s.Armor.Name)
		}
		rows = append(rows, []string{s.Name, s.Status, strconv.Itoa(s.Attributes.ST), strconv.Itoa(s.Attributes.DX), strconv.Itoa(s.Attributes.IQ),
			strconv.Itoa(s.Damage), strconv.Itoa(s.Fatigue), strings.Join(gear, ", ")})
	}
	p.table(y, []string{"Foe", "Status", "ST", "DX", "IQ", "Dmg", "Fat", "Gear"},
		p.widths(30, 20, 7, 7, 7, 8, 8, 40), []string{"L", "L", "R", "R", "R", "R", "R", "L"}, rows, 9.5)
}

// shipPage is a star craft's record.
func (p *pdf) shipPage(s projections.Ship) {
	f := p.f
	f.AddPage()
	y := pdfMargin
	p.text(p.x0, y, p.x1-p.x0, "B", 22, s.Name, "L")
	y += lh(22)
	if s.DIW {
		f.SetTextColor(180, 0, 0)
		y = p.paragraph(y, "B", 11, "DEAD IN THE WATER: "+s.DIWReason)
		f.SetTextColor(0, 0, 0)
	} else {
		y = p.paragraph(y, "B", 11, "Operational")
	}
	y += 2
	f.SetFont(fontMono, "", 10)
	f.SetXY(p.x0, y)
	f.MultiCell(p.x1-p.x0, lh(10), Printable(s.Record), "", "L", false)
	y = f.GetY()
	y = p.paragraph(y, "", 9.5, fmt.Sprintf("%d build points: %s", s.Cost, s.CostFormula)) + 4
	y = p.heading(y, "Sections, in the order hits destroy them")
	rows := make([][]string, 0, len(s.Sections))
	for i, sec := range s.Sections {
		rows = append(rows, []string{strconv.Itoa(i + 1), sec.Name, fmt.Sprintf("%d/%d", sec.Points-sec.Damage, sec.Points), sec.State(), strings.Join(sec.Crew, ", ")})
	}
	y = p.table(y, []string{"#", "Section", "Points left", "State", "Crew"}, p.widths(6, 26, 16, 16, 46), []string{"R", "L", "R", "L", "L"}, rows, 10) + 4
	y = p.heading(y, "Details")
	weapons := s.Weapons
	if weapons == "" {
		weapons = "none"
	}
	details := [][2]string{{"Weapons", weapons}, {"Shields", strconv.Itoa(s.Shields)}, {"Maneuver", fmt.Sprintf("M+%d", s.Maneuver)}}
	if s.Systems > 0 {
		details = append(details, [2]string{"Systems", fmt.Sprintf("S+%d", s.Systems)})
	}
	details = append(details, [2]string{"Cargo", projections.Count(s.CargoUnits, "unit", "units")})
	if s.Owner != "" {
		details = append(details, [2]string{"Owner", s.Owner})
	}
	for _, d := range details {
		p.text(p.x0, y, 30, "B", 10, d[0], "L")
		p.text(p.x0+30, y, p.x1-p.x0-30, "", 10, d[1], "L")
		y += lh(10)
	}
	if s.MustReturnToBase {
		p.paragraph(y+2, "I", 10, "No Living section: after combat the craft must return to a base or mother ship.")
	}
}

// timeline tells the campaign day by day; it runs onto as many pages as
// it needs.
func (p *pdf) timeline(d TimelineDoc) {
	f := p.f
	f.AddPage()
	title := "Timeline of " + d.Trace.Campaign
	if d.Adventure > 0 {
		title += fmt.Sprintf(" — adventure %d", d.Adventure)
	}
	y := p.paragraph(pdfMargin, "B", 18, title) + 3
	if len(d.Timeline.Periods) == 0 {
		p.paragraph(y, "I", 11, "Nothing has happened in game time yet.")
		return
	}
	// need moves to a new page when less than h is left, so a heading
	// never stands alone at the foot of a page.
	need := func(h float64) {
		if y+h > p.bottom {
			f.AddPage()
			y = pdfMargin
		}
	}
	seqW, encW := 14.0, 14.0
	for _, per := range d.Timeline.Periods {
		need(lh(13) + 3*lh(9.5))
		head := "Between adventures"
		if per.Adventure > 0 {
			head = fmt.Sprintf("Adventure %d", per.Adventure)
			if per.Title != "" {
				head += ": " + per.Title
			}
		}
		y = p.heading(y+2, head)
		for _, day := range per.Days {
			if per.Adventure > 0 {
				need(lh(11) + 2*lh(9.5))
				p.text(p.x0, y, p.x1-p.x0, "B", 11, fmt.Sprintf("Day %d", day.Day), "L")
				y += lh(11)
			}
			for _, e := range day.Entries {
				f.SetFont(fontSans, "", 9.5)
				lines := f.SplitText(Printable(e.Text), p.x1-p.x0-seqW-encW)
				need(float64(len(lines)) * lh(9.5))
				f.SetTextColor(110, 110, 110)
				p.text(p.x0, y, seqW-2, "", 8.5, strconv.FormatInt(e.Seq, 10), "R")
				if e.Encounter > 0 {
					p.text(p.x0+seqW, y, encW, "", 8.5, fmt.Sprintf("enc %d", e.Encounter), "L")
				}
				f.SetTextColor(0, 0, 0)
				f.SetFont(fontSans, "", 9.5)
				for _, l := range lines {
					f.SetXY(p.x0+seqW+encW, y)
					f.CellFormat(p.x1-p.x0-seqW-encW, lh(9.5), l, "", 0, "L", false, 0, "")
					y += lh(9.5)
				}
			}
			y += 1.5
		}
	}
}

// audit is a character's XP ledger, row by row, and its assertions.
func (p *pdf) audit(a projections.XPAudit) {
	f := p.f
	f.AddPage()
	y := p.paragraph(pdfMargin, "B", 18, "XP audit of "+a.Character) + 1
	y = p.paragraph(y, "", 10, fmt.Sprintf("Edition %s · earned %d, spent %d, unspent %d (the sheet shows %d)", a.Edition, a.Earned, a.Spent, a.Unspent, a.SheetUnspent)) + 3
	if len(a.Rows) == 0 {
		y = p.paragraph(y, "I", 10, "No XP has been awarded or spent yet.") + 3
	} else {
		rows := make([][]string, 0, len(a.Rows))
		for _, r := range a.Rows {
			what := r.What
			if r.Kind == projections.LedgerSpend {
				what += ": " + r.Formula + " [" + r.Edition + "]"
				if r.Rules != nil && !r.Rules.OK {
					what += " MISPRICED: " + r.Rules.Problem
				}
			}
			if r.Reverted != nil {
				mark := fmt.Sprintf("[reverted by seq %d", r.Reverted.Seq)
				if r.Reverted.Reason != "" {
					mark += ": " + r.Reverted.Reason
				}
				what = mark + "] " + what
			}
			amount := strconv.Itoa(r.Amount)
			if r.Amount > 0 {
				amount = "+" + amount
			}
			rows = append(rows, []string{strconv.FormatInt(r.Seq, 10), r.RecordedAt.UTC().Format("2006-01-02 15:04"), r.Actor, r.Kind, what, amount, strconv.Itoa(r.Balance)})
		}
		y = p.table(y, []string{"Seq", "Recorded (UTC)", "Actor", "Kind", "What", "XP", "Balance"},
			p.widths(7, 20, 11, 8, 40, 7, 9), []string{"R", "L", "L", "L", "L", "R", "R"}, rows, 8.5) + 3
	}
	for _, as := range a.Assertions {
		if y+lh(10) > p.bottom {
			f.AddPage()
			y = pdfMargin
		}
		mark := "ok"
		if !as.OK {
			mark = "FAILED"
			f.SetTextColor(180, 0, 0)
		}
		p.text(p.x0, y, 16, "B", 10, mark, "L")
		f.SetTextColor(0, 0, 0)
		f.SetFont(fontSans, "", 10)
		f.SetXY(p.x0+16, y)
		f.MultiCell(p.x1-p.x0-16, lh(10), Printable(as.Detail), "", "L", false)
		y = f.GetY()
	}
}
