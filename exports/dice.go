package exports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/projections"
)

// KindDice is the dice report, as `ltscamp export dice` takes it.
const KindDice Kind = "dice"

// DiceDoc is the dice report of `ltscamp dice report`: the fairness of
// each die source, with a chart of its faces, and the luck of each
// character, over the campaign, per adventure and in the checks karma
// re-rolls replaced. Its methods format the report's figures for a
// template, as `dice report` prints them: {{$.P .PValue}}.
type DiceDoc struct {
	Trace Trace
	// Report is the report as `dice report --json` prints it.
	Report projections.DiceReport
}

// diceBarWidth is the longest bar of a Markdown chart, so that a chart's
// line (face, bar, the fair mark, count) fits 80 columns.
const diceBarWidth = 40

// SourceName names a die source: "ann's d6", "the program's d6".
func (DiceDoc) SourceName(d projections.DieReport) string { return d.Name() }

// FilterText says what the report was narrowed to ("actor ann, adventure
// 2, physical dice"), or "" for the whole log.
func (d DiceDoc) FilterText() string { return d.Report.Filter.String() }

// Loaded names the loaded die the power is stated against, by its faces'
// weights when they are small fractions: "a d6 loaded 2, 3, 3, 3, 3, 4
// out of 18"; "" when the report states none.
func (d DiceDoc) Loaded() string {
	bias := d.Report.Bias
	if len(bias) == 0 {
		return ""
	}
	// The smallest denominator that makes every chance a whole number.
	for den := 1; den <= 1000; den++ {
		weights := make([]string, len(bias))
		whole := true
		for i, b := range bias {
			w := b * float64(den)
			if math.Abs(w-math.Round(w)) > 1e-9 {
				whole = false
				break
			}
			weights[i] = strconv.Itoa(int(math.Round(w)))
		}
		if whole {
			return fmt.Sprintf("a d%d loaded %s out of %d", len(bias), strings.Join(weights, ", "), den)
		}
	}
	weights := make([]string, len(bias))
	for i, b := range bias {
		weights[i] = fmt.Sprintf("%.1f%%", 100*b)
	}
	return fmt.Sprintf("a d%d loaded %s", len(bias), strings.Join(weights, ", "))
}

// P writes a p-value for a table: "0.0312", "< 0.0001".
func (DiceDoc) P(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// PText writes a p-value in a sentence: "p = 0.0312", "p < 0.0001".
func (d DiceDoc) PText(p float64) string {
	if p < 0.0001 {
		return "p " + d.P(p)
	}
	return "p = " + d.P(p)
}

// Percent writes a share (a power) as a whole percentage: "90%".
func (DiceDoc) Percent(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// Percentile writes a percentile with one decimal, or as many more as it
// takes not to round an extreme one to 0 or 100 (at most six), as `dice
// report` does: "95.0", "0.63", "99.97".
func (DiceDoc) Percentile(x float64) string {
	for d := 1; d < 6; d++ {
		s := strconv.FormatFloat(x, 'f', d, 64)
		if (s != "100."+strings.Repeat("0", d) || x == 100) && (s != "0."+strings.Repeat("0", d) || x == 0) {
			return s
		}
	}
	return strconv.FormatFloat(x, 'f', 6, 64)
}

// AdventureName names an adventure, or the time between adventures (0).
func (DiceDoc) AdventureName(n int) string {
	if n == 0 {
		return "between adventures"
	}
	return fmt.Sprintf("adventure %d", n)
}

// Rerolled reports whether any character had checks re-rolled away.
func (d DiceDoc) Rerolled() bool {
	for _, c := range d.Report.Characters {
		if c.Rerolled != nil {
			return true
		}
	}
	return false
}

// diceExpected is the count of each face a fair die gives on average.
func diceExpected(d projections.DieReport) float64 {
	if len(d.Faces) == 0 {
		return 0
	}
	var n int64
	for _, c := range d.Faces {
		n += c
	}
	return float64(n) / float64(len(d.Faces))
}

// diceFair writes an expected count: whole, or with one decimal.
func diceFair(x float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 1, 64), ".0")
}

// Chart draws a source's face counts as text, for a code block: a line
// per face with its bar of █ (the most common face's 40 long), a ┆ where
// a fair die's count would end the bar, and the count; then a line that
// says what the ┆ stands for. Every line fits 80 columns for dice of up
// to 99 sides and counts of up to 30 digits.
func (DiceDoc) Chart(d projections.DieReport) []string {
	var most int64
	for _, c := range d.Faces {
		most = max(most, c)
	}
	fair := diceExpected(d)
	// The most common face is at least as common as the average one, so
	// the fair mark is never past the longest bar.
	scale := max(float64(most), fair)
	cells := func(x float64) int {
		if scale <= 0 {
			return 0
		}
		return min(max(int(math.Round(x/scale*diceBarWidth)), 0), diceBarWidth)
	}
	mark := cells(fair)
	faceW := len(strconv.Itoa(len(d.Faces)))
	countW := len(strconv.FormatInt(most, 10))
	lines := make([]string, 0, len(d.Faces)+1)
	for i, c := range d.Faces {
		n := cells(float64(c))
		// One cell more than the longest bar, for the mark of a bar
		// that reaches it exactly.
		row := []rune(strings.Repeat("█", n) + strings.Repeat(" ", diceBarWidth+1-n))
		if mark >= n {
			row[mark] = '┆'
		}
		lines = append(lines, fmt.Sprintf("%*d %s %*d", faceW, i+1, string(row), countW, c))
	}
	return append(lines, strings.Repeat(" ", faceW+1+mark)+"└ fair: "+diceFair(fair)+" of each face")
}

// Colours of the PDF's charts.
var (
	diceFlagged = [3]int{196, 72, 60}
	diceSource  = [3]int{84, 112, 160}
	diceLucky   = [3]int{76, 150, 96}
	diceUnlucky = [3]int{200, 96, 72}
	diceReroll  = [3]int{150, 150, 150}
)

// diceLighter mixes a colour half with white, for the per-adventure
// bars.
func diceLighter(c [3]int) [3]int {
	return [3]int{(c[0] + 255) / 2, (c[1] + 255) / 2, (c[2] + 255) / 2}
}

// diceFill sets the fill colour to c.
func (p *pdf) diceFill(c [3]int) { p.f.SetFillColor(c[0], c[1], c[2]) }

// dice lays out the dice report: what it covers, the sources' table, a
// chart of each source's faces, two to a row, and a bar of each
// character's percentile. It runs onto as many pages as it needs.
func (p *pdf) dice(d DiceDoc) {
	f := p.f
	r := d.Report
	width := p.x1 - p.x0
	f.AddPage()
	y := p.paragraph(pdfMargin, "B", 18, "Dice report — "+r.Campaign) + 1
	scope := fmt.Sprintf("Edition %s · the log up to seq %d", r.Edition, r.Seq)
	if ft := d.FilterText(); ft != "" {
		scope += " · only " + ft
	}
	y = p.paragraph(y, "", 9.5, scope)
	if len(r.Sources) > 0 {
		level := fmt.Sprintf("A source is flagged when its p-value is below %v", r.Level)
		if r.Holm {
			level += fmt.Sprintf(" · p-values corrected for %d sources compared (Holm)", len(r.Sources))
		} else {
			level += " · one source: its p-value needs no correction"
		}
		y = p.paragraph(y, "", 9.5, level)
		if l := d.Loaded(); l != "" {
			y = p.paragraph(y, "", 9.5, "Power: the chance that the test flags "+l)
		}
	}
	y += 3

	y = p.heading(y, "Die sources")
	if len(r.Sources) == 0 {
		p.text(p.x0, y, width, "I", 10, "No dice thrown yet.", "L")
		y += lh(10) + 4
	} else {
		rows := make([][]string, 0, len(r.Sources))
		for _, s := range r.Sources {
			rows = append(rows, []string{d.SourceName(s), strconv.Itoa(s.Sides), strconv.FormatInt(s.Thrown, 10),
				fmt.Sprintf("%.2f", s.Chi2), d.P(s.PValue), d.Percent(s.Power), s.Verdict})
		}
		y = p.table(y, []string{"Source", "Sides", "Faces", "χ²", "p", "Power", "Verdict"},
			p.widths(22, 8, 10, 10, 12, 10, 58), []string{"L", "R", "R", "R", "R", "R", "L"}, rows, 8.5) + 4
		// The charts, two to a row.
		const gap, chartH = 8.0, 46.0
		chartW := (width - gap) / 2
		for i := 0; i < len(r.Sources); i += 2 {
			y = p.need(y, chartH)
			p.diceChart(p.x0, y, chartW, chartH, d, r.Sources[i])
			if i+1 < len(r.Sources) {
				p.diceChart(p.x0+chartW+gap, y, chartW, chartH, d, r.Sources[i+1])
			}
			y += chartH + 5
		}
	}

	y = p.need(y+2, lh(11)+3*lh(8.5)+2*6.5)
	y = p.heading(y, "Luck of the characters")
	if len(r.Characters) == 0 {
		p.text(p.x0, y, width, "I", 10, "No checks made yet.", "L")
		return
	}
	f.SetTextColor(90, 90, 90)
	note := "Percentile: the share of outcomes worse than his, the chance of passing fewer checks than he did " +
		"given each check's own chance; 50 (the mark) is average."
	if d.Rerolled() {
		note += " Re-rolled away: the checks karma re-rolls replaced, counted apart (the re-roll that stood is counted above)."
	}
	y = p.paragraph(y, "I", 8, note) + 1.5
	f.SetTextColor(0, 0, 0)
	p.diceLuck(y, d)
}

// diceChart draws one source's faces in a box w by h at (x, y): its name
// and figures, a bar per face with its count above and its face under
// it, and a dashed line where a fair die's bars would end.
func (p *pdf) diceChart(x, y, w, h float64, d DiceDoc, s projections.DieReport) {
	f := p.f
	p.text(x, y, w, "B", 9.5, d.SourceName(s), "L")
	y1 := y + lh(9.5)
	caption := fmt.Sprintf("%d faces · χ² %.2f on %d df · %s · power %s", s.Thrown, s.Chi2, s.DF, d.PText(s.PValue), d.Percent(s.Power))
	if s.Flagged {
		caption += " · FLAGGED"
		f.SetTextColor(170, 30, 20)
	}
	p.text(x, y1, w, "", 7.5, caption, "L")
	f.SetTextColor(0, 0, 0)

	const countPt, facePt, gutter = 6.5, 7.0, 15.0
	top := y1 + lh(7.5) + lh(countPt) + 0.5
	base := y + h - lh(facePt) - 0.5
	left, right := x+1, x+w-gutter
	var most int64
	for _, c := range s.Faces {
		most = max(most, c)
	}
	fair := diceExpected(s)
	scale := max(float64(most), fair)
	height := func(v float64) float64 {
		if scale <= 0 {
			return 0
		}
		return v / scale * (base - top)
	}
	n := len(s.Faces)
	if n == 0 {
		return
	}
	slot := (right - left) / float64(n)
	barW := slot * 0.7
	// Labels are written only when they fit their slot: for a die of
	// many sides every other face, or every fifth, is numbered.
	f.SetFont(fontSans, "", facePt)
	every := 1
	for every < n && f.GetStringWidth(strconv.Itoa(n))+1 > slot*float64(every) {
		every++
	}
	f.SetFont(fontSans, "", countPt)
	counts := f.GetStringWidth(strconv.FormatInt(most, 10))+0.5 <= slot
	colour := diceSource
	if s.Flagged {
		colour = diceFlagged
	}
	for i, c := range s.Faces {
		bx := left + float64(i)*slot + (slot-barW)/2
		p.diceFill(colour)
		if bh := height(float64(c)); bh > 0 {
			f.Rect(bx, base-bh, barW, bh, "F")
		}
		// Face 1, and every so many faces from there; face 1 only when
		// the next one numbered is not its neighbour.
		if (i+1)%every == 0 || (i == 0 && every > 2) {
			p.text(left+float64(i)*slot, base+0.5, slot, "", facePt, strconv.Itoa(i+1), "C")
		}
	}
	f.SetDrawColor(0, 0, 0)
	f.SetLineWidth(0.3)
	f.Line(left, base, right, base)
	// The fair count, dashed across the bars, labelled in the gutter.
	fy := base - height(fair)
	f.SetDrawColor(30, 30, 30)
	f.SetLineWidth(0.35)
	f.SetDashPattern([]float64{1.2, 0.8}, 0)
	f.Line(left, fy, right+1.5, fy)
	f.SetDashPattern([]float64{}, 0)
	f.SetTextColor(60, 60, 60)
	p.text(right+2, fy-lh(countPt), gutter-2, "", countPt, "fair", "L")
	p.text(right+2, fy, gutter-2, "", countPt, diceFair(fair), "L")
	f.SetTextColor(0, 0, 0)
	if !counts {
		return
	}
	// The counts last, each on white, so that the fair line, which
	// passes close above a bar of about the fair count, breaks around
	// its count rather than striking it through.
	f.SetFont(fontSans, "", countPt)
	for i, c := range s.Faces {
		label := strconv.FormatInt(c, 10)
		ly := base - height(float64(c)) - lh(countPt)
		tw := f.GetStringWidth(label) + 0.8
		f.SetFillColor(255, 255, 255)
		f.Rect(left+(float64(i)+0.5)*slot-tw/2, ly+0.4, tw, lh(countPt)-0.8, "F")
		p.text(left+float64(i)*slot, ly, slot, "", countPt, label, "C")
	}
}

// diceLuckRow is a line of the luck chart: a character, one of his
// adventures, or his checks re-rolled away.
type diceLuckRow struct {
	name string
	luck projections.Luck
	// sub is an adventure's or the re-rolled checks' line.
	sub, reroll bool
}

// diceLuck draws a line per character, and under it one per adventure and
// one of his re-rolled checks: the figures, and a bar of the percentile
// on a 0–100 axis with a mark at 50. A character's lines are kept on one
// page; a new page repeats the axis.
func (p *pdf) diceLuck(y float64, d DiceDoc) {
	f := p.f
	width := p.x1 - p.x0
	// The name and the figures take about 100 mm, the bar the rest.
	cols := []float64{42, 13, 13, 15, 16}
	barX := p.x0 + sum(cols) + 5
	barW := p.x1 - barX - 2
	headH := lh(8.5) + 0.6
	header := func() {
		f.SetFillColor(225, 225, 225)
		f.Rect(p.x0, y, width, headH, "F")
		x := p.x0
		for i, hd := range []string{"Character", "Checks", "Passed", "Expected", "Percentile"} {
			align := "R"
			if i == 0 {
				align = "L"
			}
			p.text(x, y+0.3, cols[i], "B", 8.5, hd, align)
			x += cols[i]
		}
		for _, t := range []float64{0, 25, 50, 75, 100} {
			align, tx := "C", barX+t/100*barW-5
			switch t {
			case 0:
				align, tx = "L", barX
			case 100:
				align, tx = "R", barX+barW-10
			}
			p.text(tx, y+0.3, 10, "B", 8.5, strconv.Itoa(int(t)), align)
		}
		y += headH + 0.8
	}
	header()
	for _, c := range d.Report.Characters {
		rows := []diceLuckRow{{name: c.Character, luck: c.Luck}}
		for _, a := range c.Adventures {
			rows = append(rows, diceLuckRow{name: d.AdventureName(a.Adventure), luck: a.Luck, sub: true})
		}
		if c.Rerolled != nil {
			rows = append(rows, diceLuckRow{name: "re-rolled away", luck: *c.Rerolled, sub: true, reroll: true})
		}
		block := 0.0
		for _, r := range rows {
			block += diceLuckHeight(r)
		}
		// Keep a character's lines together when a page holds them.
		if y+block > p.bottom && pdfMargin+headH+0.8+block <= p.bottom {
			f.AddPage()
			y = pdfMargin
			header()
		}
		for _, r := range rows {
			if y+diceLuckHeight(r) > p.bottom {
				f.AddPage()
				y = pdfMargin
				header()
			}
			p.diceLuckLine(y, cols, barX, barW, r, d)
			y += diceLuckHeight(r)
		}
		f.SetDrawColor(200, 200, 200)
		f.SetLineWidth(0.2)
		f.Line(p.x0, y+0.4, p.x1, y+0.4)
		y += 0.8
	}
}

// diceLuckHeight is the height of a line of the luck chart.
func diceLuckHeight(r diceLuckRow) float64 {
	if r.sub {
		return 4.6
	}
	return 6.2
}

// diceLuckLine draws one line of the luck chart at y.
func (p *pdf) diceLuckLine(y float64, cols []float64, barX, barW float64, r diceLuckRow, d DiceDoc) {
	f := p.f
	h := diceLuckHeight(r)
	pt, style, indent, barH := 9.0, "B", 0.0, 3.4
	if r.sub {
		pt, style, indent, barH = 8.0, "", 4.0, 2.2
		if r.reroll {
			style = "I"
		}
		f.SetTextColor(70, 70, 70)
	}
	ty := y + (h-lh(pt))/2
	p.text(p.x0+indent, ty, cols[0]-indent, style, pt, r.name, "L")
	x := p.x0 + cols[0]
	for i, v := range []string{strconv.Itoa(r.luck.Checks), strconv.Itoa(r.luck.Passed),
		fmt.Sprintf("%.1f", r.luck.Expected), d.Percentile(r.luck.Percentile)} {
		p.text(x, ty, cols[i+1], "", pt, v, "R")
		x += cols[i+1]
	}
	f.SetTextColor(0, 0, 0)

	by := y + (h-barH)/2
	f.SetFillColor(232, 232, 232)
	f.Rect(barX, by, barW, barH, "F")
	colour := diceLucky
	if r.luck.Percentile < 50 {
		colour = diceUnlucky
	}
	switch {
	case r.reroll:
		colour = diceReroll
	case r.sub:
		colour = diceLighter(colour)
	}
	p.diceFill(colour)
	if w := min(max(r.luck.Percentile, 0), 100) / 100 * barW; w > 0 {
		f.Rect(barX, by, w, barH, "F")
	}
	// Quarter ticks, light, and the mark at 50, dark and longer than the
	// bar.
	f.SetDrawColor(255, 255, 255)
	f.SetLineWidth(0.2)
	for _, t := range []float64{0.25, 0.75} {
		f.Line(barX+t*barW, by, barX+t*barW, by+barH)
	}
	f.SetDrawColor(0, 0, 0)
	f.SetLineWidth(0.45)
	mid := barX + barW/2
	f.Line(mid, by-0.7, mid, by+barH+0.7)
}
