package main

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tableFit is how a table's columns fit a width: the columns kept (by
// index), the width of each kept column's text, the headers of the columns
// left out, and whether words must be broken (the last resort, when even
// the longest word of each kept column leaves no room). narrowed is set
// when the table did not fit as it was.
type tableFit struct {
	keep     []int
	widths   []int
	dropped  []string
	hard     bool
	narrowed bool
}

// fitTable fits a table's columns into width: frame(n) is what a table of
// n columns spends on borders, padding and gaps. A table that fits as it is
// stays as it is. Otherwise its widest columns are narrowed, and their cells
// wrap at spaces, never inside a word: a column is never narrower than its
// longest word, nor than its header. When even that does not fit, the
// columns named in elide are left out, in that order; only when none is
// left to drop are words broken. width 0 is no limit.
func fitTable(headers []string, rows [][]string, width int, frame func(cols int) int, elide []string) tableFit {
	n := len(headers)
	for _, r := range rows {
		n = max(n, len(r))
	}
	natural, least := make([]int, n), make([]int, n)
	measure := func(i int, s string) {
		for _, line := range strings.Split(s, "\n") {
			natural[i] = max(natural[i], ansi.StringWidth(line))
			for _, w := range strings.Split(line, " ") {
				least[i] = max(least[i], ansi.StringWidth(w))
			}
		}
	}
	for i, h := range headers {
		// A header is never wrapped (Lip Gloss keeps a table's headers to
		// one line): its column is at least as wide as it.
		natural[i] = max(natural[i], ansi.StringWidth(h))
		least[i] = max(least[i], ansi.StringWidth(h))
	}
	for _, r := range rows {
		for i, c := range r {
			measure(i, c)
		}
	}
	f := tableFit{}
	for i := range n {
		f.keep = append(f.keep, i)
	}
	sum := func(ws []int) int {
		t := 0
		for _, i := range f.keep {
			t += ws[i]
		}
		return t
	}
	if width <= 0 || sum(natural)+frame(len(f.keep)) <= width {
		for _, i := range f.keep {
			f.widths = append(f.widths, natural[i])
		}
		return f
	}
	f.narrowed = true
	for _, name := range elide {
		if sum(least)+frame(len(f.keep)) <= width || len(f.keep) <= 1 {
			break
		}
		if i := slices.Index(headers, name); i >= 0 && slices.Contains(f.keep, i) {
			f.keep = slices.DeleteFunc(f.keep, func(k int) bool { return k == i })
			f.dropped = append(f.dropped, name)
		}
	}
	room := width - frame(len(f.keep))
	for _, i := range f.keep {
		f.widths = append(f.widths, least[i])
	}
	total := sum(least)
	if total > room {
		// The last resort: a word wider than any room left. Narrow the
		// widest columns, never below their header, until the table fits,
		// and break their words.
		f.hard = true
		floor := make([]int, len(f.keep))
		for k, i := range f.keep {
			if i < len(headers) {
				floor[k] = ansi.StringWidth(headers[i])
			}
			floor[k] = max(floor[k], 1)
		}
		for ; total > room; total-- {
			k := widest(f.widths, floor)
			if k < 0 {
				break // the headers alone are wider than the room
			}
			f.widths[k]--
		}
		return f
	}
	// Give the room left to the columns that want it most, one column at a
	// time: the widest columns end up the ones narrowed.
	want := make([]int, len(f.keep))
	for k, i := range f.keep {
		want[k] = natural[i]
	}
	for extra := room - total; extra > 0; extra-- {
		k := widest(want, f.widths)
		if k < 0 {
			break
		}
		f.widths[k]++
	}
	return f
}

// widest is the index of the largest of ws, or, with have, the index where
// ws is furthest above have (-1 when none is above it, or all are 0).
func widest(ws, have []int) int {
	best, at := 0, -1
	for k, w := range ws {
		if have != nil {
			w -= have[k]
		}
		if w > best {
			best, at = w, k
		}
	}
	return at
}

// apply narrows headers and rows to the fit: the kept columns only, each
// cell wrapped to its column's width; headers are kept whole.
func (f tableFit) apply(headers []string, rows [][]string) ([]string, [][]string) {
	cut := func(r []string, wrap bool) []string {
		if r == nil {
			return nil
		}
		out := make([]string, len(f.keep))
		for k, i := range f.keep {
			if i < len(r) {
				out[k] = r[i]
				if wrap {
					out[k] = wrapCell(r[i], f.widths[k], f.hard)
				}
			}
		}
		return out
	}
	out := make([][]string, len(rows))
	for j, r := range rows {
		out[j] = cut(r, true)
	}
	return cut(headers, false), out
}

// wrapCell lays s out in lines of at most width columns, breaking lines at
// spaces only, so that a word (an event type, "2d6-2", a date) stays whole;
// with hard, a word wider than width is broken too. Styles (ANSI SGR
// sequences) that span a break are closed at the end of the line and
// opened again at the start of the next, so that no border or padding
// takes a cell's colour.
func wrapCell(s string, width int, hard bool) string {
	if width <= 0 {
		return s
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		if ansi.StringWidth(para) <= width {
			lines = append(lines, para)
			continue
		}
		var cur string
		curW := 0
		for _, word := range strings.Split(para, " ") {
			w := ansi.StringWidth(word)
			if curW > 0 && curW+1+w > width {
				lines = append(lines, cur)
				cur, curW = "", 0
			}
			if curW > 0 {
				cur += " "
				curW++
			}
			if hard && w > width-curW {
				// Only when no room is left: break the word itself.
				parts := strings.Split(ansi.Hardwrap(word, width, true), "\n")
				if curW > 0 {
					lines = append(lines, strings.TrimSuffix(cur, " "))
				}
				lines = append(lines, parts[:len(parts)-1]...)
				cur, curW = parts[len(parts)-1], ansi.StringWidth(parts[len(parts)-1])
				continue
			}
			cur += word
			curW += w
		}
		lines = append(lines, cur)
	}
	return reopenStyles(lines)
}

// reopenStyles joins lines, closing at each line's end a style still open
// there and opening it again on the next line.
func reopenStyles(lines []string) string {
	open := ""
	for i, line := range lines {
		line = open + line
		open = openStyle(open, line[len(open):])
		if open != "" {
			line += "\x1b[m"
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// openStyle is the style (the SGR sequences since the last reset) still in
// effect after s, starting from open.
func openStyle(open, s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return open
		}
		j := i + 2
		for j < len(s) && (s[j] == ';' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if j >= len(s) {
			return open
		}
		seq := s[i : j+1]
		if s[j] == 'm' {
			if params := s[i+2 : j]; params == "" || params == "0" {
				open = ""
			} else {
				open += seq
			}
		}
		s = s[j+1:]
	}
}
