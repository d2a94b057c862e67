// Package exports renders what the projections fold into documents a
// person takes away: Markdown, PDF and JSON for sheets, the party, ships,
// the timeline and XP audits, and the NDJSON backup of the whole log.
//
// It decides nothing. Every document is a view struct that campaign and the
// CLI fill from projections; an exporter only lays it out. Output is
// deterministic: the same document gives the same bytes.
package exports

import (
	"fmt"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Trace says which state of which log a document shows, so a printed page
// can be traced back to the log: the campaign, the seq it was folded at and
// that event's hash.
type Trace struct {
	// Campaign is the campaign's name; CampaignID the ID of its
	// campaign.created event.
	Campaign   string `json:"campaign"`
	CampaignID string `json:"campaign_id"`
	// Edition is the campaign's edition of the rules.
	Edition rules.Edition `json:"edition"`
	// Seq is the last event of the log the document was folded from, and
	// Hash (lowercase hex) that event's hash.
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	// AsOf is true when the document shows the log as it was at Seq
	// (--as-of), rather than as it is now.
	AsOf bool `json:"as_of"`
}

// ShortHash returns the first 12 hex digits of the hash, enough to find
// the event, for footers where the full hash does not fit.
func (t Trace) ShortHash() string {
	if len(t.Hash) <= 12 {
		return t.Hash
	}
	return t.Hash[:12]
}

// Footer is the one-line trace printed at the foot of every document.
func (t Trace) Footer() string {
	as := "folded at"
	if t.AsOf {
		as = "as of"
	}
	return fmt.Sprintf("%s (edition %s), %s seq %d, hash %s", t.Campaign, t.Edition, as, t.Seq, t.Hash)
}

// SheetDoc is one character's sheet.
type SheetDoc struct {
	Trace Trace
	Sheet projections.Sheet
}

// PartyDoc is every character's sheet, in creation order, behind a
// one-page summary of the party.
type PartyDoc struct {
	Trace  Trace
	Sheets []projections.Sheet
	// Foes are the foes on the roster while an encounter is under way
	// (none otherwise): whom the party faces.
	Foes []projections.Sheet
}

// ShipDoc is one star craft's record.
type ShipDoc struct {
	Trace Trace
	Ship  projections.Ship
}

// TimelineDoc is the campaign told day by day: the whole campaign, or one
// adventure when Adventure is positive.
type TimelineDoc struct {
	Trace     Trace
	Adventure int
	Timeline  projections.Timeline
}

// AuditDoc is a character's itemised XP ledger with its assertions.
type AuditDoc struct {
	Trace Trace
	Audit projections.XPAudit
}

// Kind names a kind of document, as `ltscamp export KIND` takes it.
type Kind string

// The document kinds.
const (
	KindSheet    Kind = "sheet"
	KindParty    Kind = "party"
	KindShip     Kind = "ship"
	KindTimeline Kind = "timeline"
	KindAudit    Kind = "audit"
)

// Format is an output format.
type Format string

// The output formats.
const (
	FormatMarkdown Format = "md"
	FormatPDF      Format = "pdf"
	FormatJSON     Format = "json"
)
