package projections

import (
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// The XP audit's view: campaign.AuditXP decides it, exports and the CLI
// render it.

// Names of the XP audit's assertions, stable in --json.
const (
	// AssertBalance: earned − spent equals the sheet's unspent XP.
	AssertBalance = "balance"
	// AssertNeverNegative: unspent XP is 0 or more after every row.
	AssertNeverNegative = "never_negative"
	// AssertPrices: every spend's recorded price is the rules' price for
	// the campaign's edition at that moment.
	AssertPrices = "prices"
)

// XPAudit is a character's XP ledger itemised, each spend re-priced by the
// rules, with the assertions that make the ledger trustworthy.
type XPAudit struct {
	Character   string        `json:"character"`
	CharacterID string        `json:"character_id"`
	Edition     rules.Edition `json:"edition"`
	// Rows are every XP award and spend of the character's stream, in log
	// order, reverted ones included (marked, and out of the balance).
	Rows []XPAuditRow `json:"rows"`
	// Earned, Spent and Unspent are the totals of the rows in effect.
	Earned  int `json:"earned"`
	Spent   int `json:"spent"`
	Unspent int `json:"unspent"`
	// SheetUnspent is the sheet's xp.unspent, folded independently.
	SheetUnspent int         `json:"sheet_unspent"`
	Assertions   []Assertion `json:"assertions"`
	// OK is true when every assertion holds.
	OK bool `json:"ok"`
}

// XPAuditRow is one award, spend, or (2010) karma taken as XP.
type XPAuditRow struct {
	Seq        int64     `json:"seq"`
	EventID    string    `json:"event_id"`
	RecordedAt time.Time `json:"recorded_at"`
	CommandID  string    `json:"command_id"`
	Actor      string    `json:"actor"`
	// At is where in game time it happened (nil before game time was
	// tracked).
	At *events.GameTime `json:"at,omitempty"`
	// Kind is LedgerAward or LedgerSpend.
	Kind string `json:"kind"`
	// What is the award's reason, or what a spend raised ("ST 12→13").
	What string `json:"what"`
	// Amount is positive for awards, negative for spends.
	Amount int `json:"amount"`
	// Formula and Edition are the spend's price as recorded.
	Formula string `json:"formula,omitempty"`
	Edition string `json:"edition,omitempty"`
	// Rules is the spend re-priced by the rules (spends only).
	Rules *RulesPrice `json:"rules,omitempty"`
	// Balance is the unspent XP after the row; a reverted row leaves it as
	// it was.
	Balance  int     `json:"balance"`
	Reverted *Revert `json:"reverted,omitempty"`
}

// RulesPrice is what the rules charge for a spend at its moment.
type RulesPrice struct {
	Price   int           `json:"price"`
	Formula string        `json:"formula"`
	Edition rules.Edition `json:"edition"`
	// OK is true when the recorded price, formula and edition are the
	// rules'; Problem says what differs.
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// Assertion is one check of an audit, with its numbers in Detail.
type Assertion struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Failed returns the assertions that do not hold.
func (a XPAudit) Failed() []Assertion {
	var out []Assertion
	for _, as := range a.Assertions {
		if !as.OK {
			out = append(out, as)
		}
	}
	return out
}
