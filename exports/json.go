package exports

import (
	"encoding/json"
	"io"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// WriteJSON writes v as the CLI's --json output does: indented by two
// spaces, with no HTML escaping, and a trailing newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// JSON writes a document as JSON: the same document the matching read
// command prints with --json (sheet NAME, char list, ship show NAME,
// timeline, audit xp NAME, dice report). The trace is not part of it:
// those commands print none.
func JSON(w io.Writer, doc any) error {
	switch d := doc.(type) {
	case SheetDoc:
		return WriteJSON(w, d.Sheet)
	case PartyDoc:
		sheets := d.Sheets
		if sheets == nil {
			sheets = []projections.Sheet{}
		}
		return WriteJSON(w, sheets)
	case ShipDoc:
		return WriteJSON(w, d.Ship)
	case DetailedShipDoc:
		return WriteJSON(w, d.Ship)
	case TimelineDoc:
		return WriteJSON(w, d.Timeline)
	case AuditDoc:
		return WriteJSON(w, NewAuditJSON(d.Audit))
	case DiceDoc:
		return WriteJSON(w, d.Report)
	}
	return errUnknownDoc(doc)
}

// AuditJSON is the JSON form of an XP audit (`audit xp NAME --json`).
// Times are written as in `log --json`.
type AuditJSON struct {
	Character    string                  `json:"character"`
	CharacterID  string                  `json:"character_id"`
	Edition      rules.Edition           `json:"edition"`
	Rows         []AuditRowJSON          `json:"rows"`
	Earned       int                     `json:"earned"`
	Spent        int                     `json:"spent"`
	Unspent      int                     `json:"unspent"`
	SheetUnspent int                     `json:"sheet_unspent"`
	Assertions   []projections.Assertion `json:"assertions"`
	OK           bool                    `json:"ok"`
}

// AuditRowJSON is one row of an XP audit in JSON.
type AuditRowJSON struct {
	Seq        int64                   `json:"seq"`
	EventID    string                  `json:"event_id"`
	RecordedAt string                  `json:"recorded_at"`
	CommandID  string                  `json:"command_id"`
	Actor      string                  `json:"actor"`
	Kind       string                  `json:"kind"`
	What       string                  `json:"what"`
	Amount     int                     `json:"amount"`
	Formula    string                  `json:"formula,omitempty"`
	Edition    string                  `json:"edition,omitempty"`
	Rules      *projections.RulesPrice `json:"rules,omitempty"`
	Balance    int                     `json:"balance"`
	Reverted   *RevertJSON             `json:"reverted,omitempty"`
}

// RevertJSON is the JSON form of the undo that reverted a command.
type RevertJSON struct {
	// Seq, EventID and CommandID identify the command.reverted event.
	Seq        int64  `json:"seq"`
	EventID    string `json:"event_id"`
	CommandID  string `json:"command_id"`
	Actor      string `json:"actor"`
	RecordedAt string `json:"recorded_at"`
	Reason     string `json:"reason,omitempty"`
	// Target is the command the user undid; it differs from the event's
	// own command when that was reverted by cascade.
	Target string `json:"target"`
}

// NewRevertJSON returns the JSON form of r, nil for nil.
func NewRevertJSON(r *projections.Revert) *RevertJSON {
	if r == nil {
		return nil
	}
	return &RevertJSON{Seq: r.Seq, EventID: r.EventID, CommandID: r.CommandID, Actor: r.Actor, RecordedAt: events.FormatTime(r.At), Reason: r.Reason, Target: r.Target}
}

// NewAuditJSON returns the JSON form of an XP audit.
func NewAuditJSON(au projections.XPAudit) AuditJSON {
	out := AuditJSON{Character: au.Character, CharacterID: au.CharacterID, Edition: au.Edition, Rows: make([]AuditRowJSON, 0, len(au.Rows)),
		Earned: au.Earned, Spent: au.Spent, Unspent: au.Unspent, SheetUnspent: au.SheetUnspent, Assertions: au.Assertions, OK: au.OK}
	for _, r := range au.Rows {
		out.Rows = append(out.Rows, AuditRowJSON{
			Seq: r.Seq, EventID: r.EventID, RecordedAt: events.FormatTime(r.RecordedAt), CommandID: r.CommandID, Actor: r.Actor,
			Kind: r.Kind, What: r.What, Amount: r.Amount, Formula: r.Formula, Edition: r.Edition, Rules: r.Rules,
			Balance: r.Balance, Reverted: NewRevertJSON(r.Reverted),
		})
	}
	return out
}
