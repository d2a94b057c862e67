package rules

import "strings"

// Attribute is one of a character's three attributes. Its string value is
// stored in events and must never change.
type Attribute string

// The three attributes, "CHARACTERS" (all editions).
const (
	// ST is Strength: strong characters deal and survive more damage.
	ST Attribute = "ST"
	// DX is Dexterity: agile characters attack and dodge better.
	DX Attribute = "DX"
	// IQ is Intelligence: intelligent characters apply skills better.
	IQ Attribute = "IQ"
)

// AttributeNames returns the three attributes in the books' order.
func AttributeNames() []Attribute { return []Attribute{ST, DX, IQ} }

// Valid reports whether a is ST, DX or IQ.
func (a Attribute) Valid() bool {
	return a == ST || a == DX || a == IQ
}

// ParseAttribute reads an attribute name case-insensitively ("st", "Dx"),
// ignoring surrounding space; anything else is a CodeInvalid error.
func ParseAttribute(s string) (Attribute, error) {
	t := strings.TrimSpace(s)
	a := Attribute(strings.ToUpper(t))
	if a.Valid() {
		return a, nil
	}
	return "", Errorf(CodeInvalid, "unknown attribute %q: use ST, DX or IQ", t)
}

// Attributes holds a character's three attribute values.
type Attributes struct {
	ST, DX, IQ int
}

// Get returns the value of attribute at, or 0 for an unknown attribute.
func (a Attributes) Get(at Attribute) int {
	switch at {
	case ST:
		return a.ST
	case DX:
		return a.DX
	case IQ:
		return a.IQ
	}
	return 0
}

// With returns a copy of a with attribute at set to v; an unknown attribute
// leaves the copy unchanged.
func (a Attributes) With(at Attribute, v int) Attributes {
	switch at {
	case ST:
		a.ST = v
	case DX:
		a.DX = v
	case IQ:
		a.IQ = v
	}
	return a
}

// Total returns ST + DX + IQ, the character's attribute points.
func (a Attributes) Total() int { return a.ST + a.DX + a.IQ }

// AdjustedDX returns dx lowered by the armour restriction, never below 0; a
// negative restriction counts as none.
// All editions, "Restriction (R)": "Adjust a character's DX down by the
// cumulative restriction of his armor" (Hector DX12, R2 → DX10).
func AdjustedDX(dx, restriction int) int {
	return max(dx-max(restriction, 0), 0)
}

// MovementAllowance returns the movement allowance for an adjusted DX: half,
// rounded down, never below 0.
// All editions: "MA is half his DX, rounded down"; "Restriction (R)": "This
// also affects MA" (adjusted DX10 → MA5).
func MovementAllowance(adjustedDX int) int {
	return max(adjustedDX, 0) / 2
}
