package rules

import "strings"

// Edition names a printing of the rules; a campaign is played under one.
// Its string value is stored in events and must never change.
type Edition string

// The editions ltscamp knows, named by the year on the rule book's footer.
const (
	// Edition2010 is the rule book dated r20100210c.
	Edition2010 Edition = "2010"
	// Edition2020 is the rule book dated 20201121.
	Edition2020 Edition = "2020"
	// Edition2021 is the rule book dated 20210602.
	Edition2021 Edition = "2021"
	// DefaultEdition is the edition a new campaign uses unless told otherwise.
	DefaultEdition = Edition2021
)

// Editions returns every known edition, oldest first.
func Editions() []Edition {
	return []Edition{Edition2010, Edition2020, Edition2021}
}

// Valid reports whether e is one of the known editions.
func (e Edition) Valid() bool {
	switch e {
	case Edition2010, Edition2020, Edition2021:
		return true
	}
	return false
}

// String returns the edition's year, such as "2021".
func (e Edition) String() string { return string(e) }

// ParseEdition reads an edition name such as "2021", ignoring surrounding
// space; anything else is a CodeInvalid error that lists the choices.
func ParseEdition(s string) (Edition, error) {
	e := Edition(strings.TrimSpace(s))
	if e.Valid() {
		return e, nil
	}
	return "", Errorf(CodeInvalid, "unknown edition %q: choose 2010, 2020 or 2021", strings.TrimSpace(s))
}

// resolveEdition maps the empty edition to DefaultEdition and rejects
// unknown ones, for functions that can report an error.
func resolveEdition(e Edition) (Edition, error) {
	if e == "" {
		return DefaultEdition, nil
	}
	if !e.Valid() {
		return "", Errorf(CodeInvalid, "unknown edition %q: choose 2010, 2020 or 2021", string(e))
	}
	return e, nil
}

// orDefault maps an unknown or empty edition to DefaultEdition, for
// functions that cannot report an error.
func (e Edition) orDefault() Edition {
	if e.Valid() {
		return e
	}
	return DefaultEdition
}
