package main

import (
	"fmt"
	"io"
	"iter"
	"time"

	"charm.land/bubbles/v2/progress"

	"github.com/ltscamp/ltscamp/events"
)

// progressBar shows how far long work has got, on standard error when it
// is a terminal, once the work has run past a second; elsewhere it stays
// silent. The bar is the Charm stack's, drawn in place with a carriage
// return.
type progressBar struct {
	w       io.Writer
	bar     progress.Model
	started time.Time
	now     func() time.Time
	last    time.Time
	shown   bool
}

// progressAfter is how long work runs before a bar is shown, and
// progressTick how often it is redrawn.
const (
	progressAfter = time.Second
	progressTick  = 100 * time.Millisecond
)

// newProgress returns the reporter for campaign.Options.Progress, or nil
// when standard error is not a terminal.
func (a *app) newProgress() *progressBar {
	if !a.env.StderrTTY {
		return nil
	}
	width := 40
	if a.env.Width > 0 {
		width = min(40, a.env.Width/2)
	}
	return &progressBar{w: styledWriter(a.env.Stderr, a.env), bar: progress.New(progress.WithWidth(width), progress.WithDefaultBlend()), started: a.env.Now(), now: a.env.Now}
}

// report draws the bar for stage at done of total.
func (p *progressBar) report(stage string, done, total int64) {
	now := p.now()
	if now.Sub(p.started) < progressAfter || (now.Sub(p.last) < progressTick && done < total) || total <= 0 {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "\r%-9s %s %d/%d events ", stage, p.bar.ViewAs(float64(done)/float64(total)), done, total)
}

// count reports stage as the events of evs go by (total in all); it
// returns evs itself when there is no bar.
func (p *progressBar) count(stage string, total int64, evs iter.Seq2[events.Event, error]) iter.Seq2[events.Event, error] {
	if p == nil {
		return evs
	}
	return func(yield func(events.Event, error) bool) {
		var n int64
		for e, err := range evs {
			n++
			if n%4096 == 0 {
				p.report(stage, n, total)
			}
			if !yield(e, err) {
				return
			}
		}
	}
}

// done clears the bar's line, if it was shown.
func (p *progressBar) done() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[2K")
	}
}
