package rules

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SectionKind says what a star craft's section is for. Its string value is
// stored in events and must never change.
type SectionKind string

// The section kinds. 2020/2021 "STAR CRAFT": "A craft requires engineering
// and operations sections. Other sections and capabilities are optional";
// "Other Sections": "Other sections, such as science bays, botany bays,
// machine shops, etc., may be added as prescribed by the scenario." 2010
// "SMALL CRAFT" says the same of Engineering, Operations, Cargo and Living.
const (
	// SectionCargo carries one cargo unit per point ("Cargo Section").
	SectionCargo SectionKind = "cargo"
	// SectionEngineering provides propulsion and power; required.
	SectionEngineering SectionKind = "engineering"
	// SectionOperations controls propulsion, navigation, sensors, weapons
	// and communications; required.
	SectionOperations SectionKind = "operations"
	// SectionLiving lets the craft make extended space runs.
	SectionLiving SectionKind = "living"
	// SectionOther is any other named section, such as "Science".
	SectionOther SectionKind = "other"
)

// Name returns the canonical name a section of kind k is written with in a
// ship record ("Cargo", "Engineering", "Operations", "Living"), or "" for
// SectionOther, whose sections carry their own names.
func (k SectionKind) Name() string {
	switch k {
	case SectionCargo:
		return "Cargo"
	case SectionEngineering:
		return "Engineering"
	case SectionOperations:
		return "Operations"
	case SectionLiving:
		return "Living"
	}
	return ""
}

// short returns the one-letter short form of the four standard kinds
// (2021 "DOG FIGHTS" Example 1: "C1, E1, O1, L1, d6/1, M+0"), or "".
func (k SectionKind) short() string {
	switch k {
	case SectionCargo:
		return "C"
	case SectionEngineering:
		return "E"
	case SectionOperations:
		return "O"
	case SectionLiving:
		return "L"
	}
	return ""
}

// Limits of a ship record. The books set none; these are far beyond any
// craft a scenario builds and keep the notation and the sums sane.
const (
	// MaxSectionPoints is the most build points one section may have.
	MaxSectionPoints = 999
	// MaxShipRating bounds shields (/X), maneuver (M+X) and systems (S+X).
	MaxShipRating = 99
	// MaxShipSections is the most sections one craft may list.
	MaxShipSections = 32
	// MaxSectionNameLength is the longest section name, in letters.
	MaxSectionNameLength = 40
)

// Section is one section of a star craft: its name as written canonically
// ("Cargo", "Engineering", "Operations", "Living", or a named extra such as
// "Science"), its kind and its build points.
type Section struct {
	Name   string
	Kind   SectionKind
	Points int
}

// ShipRecord is a star craft's record ("ship record"), such as the Kit-Kat's
// "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1".
type ShipRecord struct {
	// Sections are in listed order, the order damage destroys them in.
	Sections []Section
	// WeaponDice is X of the craft's Xd6 weapons; 0 means unarmed.
	WeaponDice int
	// Shields is X of /X: damage points stopped on every hit.
	Shields int
	// Maneuver is X of M+X, added to the pilot's checks to maneuver.
	Maneuver int
	// Systems is X of S+X, edition 2010 only.
	Systems int
}

// shipHint is the example shown with errors about a whole record.
const shipHint = "write it like Cargo1, Engineering1, Operations1, Living1, d6/1, M+1"

// ParseShipRecord reads a ship record in edition ed's notation:
//
//   - sections, in the order damage destroys them, as a name followed by
//     build points: "Cargo1, Engineering2", the short forms "C1, E1, O1, L1"
//     (2021 "DOG FIGHTS" Example 1), "Ops" for Operations (2010 "Dead In
//     The Water": "If engineering or ops is destroyed") and named extras
//     such as "Science2" or "Machine Shop1" ("Other Sections");
//   - weapons "d6", "2d6" (2010 "XD6"; "Abbreviate weapons as: Xd6") and
//     shields "/2" ("Abbreviate shields as: /X"), together as "d6/1" or
//     apart;
//   - the maneuver bonus "M+1" ("Abbreviate maneuver as M+X");
//   - in edition 2010 only, the systems bonus "S+1" (2010 "Systems
//     Capabilities": "Abbreviate systems as: S+X").
//
// Entries are separated by commas and may come in any order, but sections
// keep theirs. Case does not matter and spaces are optional. Errors are
// CodeInvalid and name the bad entry, for example
// `bad ship record: "Engineering0": a section has at least 1 point`.
//
// The rules it checks: "A craft requires engineering and operations
// sections" (2020/2021 "STAR CRAFT"; 2010 "you must purchase at least
// Engineering and Operations sections"); "Each section costs one build
// point" so a section has at least one; weapons are whole dice of d6 ("Every
// six build points spent on weapons enable the craft to deal one die of
// damage"). Each section, weapons, shields, maneuver and systems may be
// listed once.
func ParseShipRecord(ed Edition, s string) (ShipRecord, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return ShipRecord{}, err
	}
	t := strings.TrimSpace(s)
	if !utf8.ValidString(t) {
		return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: not valid UTF-8 text")
	}
	for _, r := range t {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: contains the control character %U", r)
		}
	}
	if t == "" {
		return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: the record is empty; %s", shipHint)
	}
	entries := strings.Split(t, ",")
	if len(entries) > MaxShipSections+4 {
		return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: %d entries is too many (at most %d sections plus weapons, shields, maneuver and systems)", len(entries), MaxShipSections)
	}
	p := shipParser{ed: ed}
	for i, e := range entries {
		tok := strings.TrimSpace(e)
		if tok == "" {
			return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: entry %d of %d is empty; separate entries with single commas", i+1, len(entries))
		}
		if reason := p.entry(tok); reason != "" {
			return ShipRecord{}, Errorf(CodeInvalid, "bad ship record: %s: %s", quoteToken(tok), reason)
		}
	}
	if reason := p.required(); reason != "" {
		return ShipRecord{}, Errorf(CodeInvalid, "bad ship record %s: %s", quoteCut(t, 60), reason)
	}
	return p.r, nil
}

// shipParser accumulates a record entry by entry.
type shipParser struct {
	ed                                          Edition
	r                                           ShipRecord
	weapons, shields, maneuver, systems, anySec bool
}

// entry parses one trimmed, non-empty entry and returns the reason it is
// bad, or "".
func (p *shipParser) entry(tok string) string {
	compact := strings.ToLower(strings.Join(strings.Fields(tok), ""))
	switch {
	case strings.Contains(compact, "/") || isWeaponsEntry(compact):
		return p.weaponsShields(compact)
	case isRatingEntry(compact, 'm'):
		v, reason := parseRating(compact, "M", "the maneuver bonus")
		if reason != "" {
			return reason
		}
		if p.maneuver {
			return "the record lists the maneuver bonus twice"
		}
		p.maneuver, p.r.Maneuver = true, v
		return ""
	case isRatingEntry(compact, 's'):
		// 2010 "Systems Capabilities"; 2020 and 2021 have no systems.
		if p.ed != Edition2010 {
			return "systems exist only in edition 2010"
		}
		v, reason := parseRating(compact, "S", "the systems bonus")
		if reason != "" {
			return reason
		}
		if p.systems {
			return "the record lists the systems bonus twice"
		}
		p.systems, p.r.Systems = true, v
		return ""
	}
	return p.section(tok)
}

// isWeaponsEntry reports whether compact (lower case, no spaces) looks like
// weapons: optional digits, "d", then a digit or nothing ("d6", "2d6",
// "2d3", "d").
func isWeaponsEntry(compact string) bool {
	rest := strings.TrimLeft(compact, "0123456789")
	if rest == "" || rest[0] != 'd' {
		return false
	}
	return len(rest) == 1 || isDigit(rest[1])
}

// isRatingEntry reports whether compact looks like a bonus written with
// letter: the letter alone, then "+", a number, or "-" and a number ("m",
// "m+1", "m+x", "m1", "m-1"). Names such as "Machine-shop" are sections.
func isRatingEntry(compact string, letter byte) bool {
	if compact == "" || compact[0] != letter {
		return false
	}
	rest := compact[1:]
	switch {
	case rest == "", rest[0] == '+', allDigits(rest):
		return true
	case rest[0] == '-':
		return allDigits(rest[1:])
	}
	return false
}

// parseRating reads "M+X" or "S+X" (compact, lower case) and returns X or
// the reason it is bad.
func parseRating(compact, letter, what string) (int, string) {
	rest := compact[1:]
	switch {
	case rest == "":
		return 0, fmt.Sprintf("missing %s, as in %s+1", what, letter)
	case rest[0] == '-':
		return 0, fmt.Sprintf("%s cannot be negative", what)
	case rest[0] != '+':
		return 0, fmt.Sprintf("write %s as %s+%s", what, letter, rest)
	}
	num := rest[1:]
	if num == "" {
		return 0, fmt.Sprintf("missing %s after %q, as in %s+1", what, letter+"+", letter)
	}
	if num[0] == '-' && allDigits(num[1:]) {
		return 0, fmt.Sprintf("%s cannot be negative", what)
	}
	n, ok := parseSmallUint(num)
	if !ok && allDigits(num) {
		n = MaxShipRating + 1
	} else if !ok {
		return 0, fmt.Sprintf("%s must be a whole number, as in %s+1", what, letter)
	}
	if n > MaxShipRating {
		return 0, fmt.Sprintf("%s is 0 to %d", what, MaxShipRating)
	}
	return n, ""
}

// weaponsShields parses "d6/1", "2d6", "/2" (compact, lower case).
func (p *shipParser) weaponsShields(compact string) string {
	w, sh, slash := strings.Cut(compact, "/")
	if slash && strings.Contains(sh, "/") {
		return `unexpected second "/"; write weapons and shields as d6/1`
	}
	if w != "" {
		dice, reason := parseWeapons(w)
		if reason != "" {
			return reason
		}
		if p.weapons {
			return "the record lists weapons twice"
		}
		p.weapons, p.r.WeaponDice = true, dice
	}
	if !slash {
		return ""
	}
	switch {
	case sh == "":
		return `missing the shield factors after "/", as in d6/1 or /1`
	case sh[0] == '-' && allDigits(sh[1:]): // allDigits("") is false
		return "shields cannot be negative"
	case !allDigits(sh):
		return "shields must be a whole number of factors, as in d6/1 or /1"
	}
	n, ok := parseSmallUint(sh)
	if !ok || n > MaxShipRating {
		return fmt.Sprintf("shields are 0 to %d factors", MaxShipRating)
	}
	if p.shields {
		return "the record lists shields twice"
	}
	p.shields, p.r.Shields = true, n
	return ""
}

// parseWeapons reads "d6" or "2d6" and returns the number of dice or the
// reason it is bad. 2020/2021 "Weapons": "Every six build points spent on
// weapons enable the craft to deal one die of damage. Abbreviate weapons
// as: Xd6"; whole dice of d6 only, so no modifier and no d3.
func parseWeapons(w string) (int, string) {
	countText := w[:len(w)-len(strings.TrimLeft(w, "0123456789"))]
	rest := w[len(countText):]
	if rest == "" || rest[0] != 'd' {
		return 0, "write weapons as d6 or 2d6"
	}
	dice := 1
	if countText != "" {
		n, ok := parseSmallUint(countText)
		switch {
		case ok && n == 0:
			return 0, "weapons deal at least d6; leave them out for an unarmed craft"
		case !ok || n > MaxDice:
			return 0, fmt.Sprintf("weapons deal 1 to %d dice", MaxDice)
		}
		dice = n
	}
	rest = rest[1:]
	sides := rest[:len(rest)-len(strings.TrimLeft(rest, "0123456789"))]
	after := rest[len(sides):]
	switch {
	case sides != "6":
		return 0, "weapons come in whole dice of d6 only"
	case after == "":
		return dice, ""
	case after[0] == '+' || after[0] == '-':
		return 0, "weapons come in whole dice of d6 only, with no modifier"
	}
	return 0, fmt.Sprintf("unexpected %q after d6", unexpected(after))
}

// section parses a section entry such as "Engineering2", "E2" or
// "Machine Shop1" (tok is trimmed, spaces and case as typed).
func (p *shipParser) section(tok string) string {
	j := len(tok)
	for j > 0 && isDigit(tok[j-1]) {
		j--
	}
	digits := tok[j:]
	head := strings.TrimRightFunc(tok[:j], unicode.IsSpace)
	if k := strings.IndexFunc(head, func(r rune) bool { return r >= '0' && r <= '9' }); k >= 0 {
		// A number inside: "Cargo1 E1" lacks a comma, "Cargo1x" has junk.
		end := k
		for end < len(tok) && isDigit(tok[end]) {
			end++
		}
		if strings.TrimSpace(tok[:k]) == "" {
			return "a section needs a name before its points, as in Science2"
		}
		return fmt.Sprintf("unexpected %q after the points; separate entries with commas", unexpected(strings.TrimSpace(tok[end:])))
	}
	switch {
	case strings.HasSuffix(head, "-") && digits != "":
		return "a section's points cannot be negative"
	case strings.HasSuffix(head, "+") && digits != "":
		return "write a section's points without a sign, as in Cargo1"
	}
	if head == "" {
		return "a section needs a name before its points, as in Science2"
	}
	if reason := checkSectionName(head); reason != "" {
		return reason
	}
	if digits == "" {
		return fmt.Sprintf("missing the section's build points, as in %s1", canonicalName(head))
	}
	n, ok := parseSmallUint(digits)
	if !ok || n > MaxSectionPoints {
		return fmt.Sprintf("a section has 1 to %d points", MaxSectionPoints)
	}
	if n == 0 {
		return "a section has at least 1 point"
	}
	name := canonicalName(head)
	kind := sectionKindOf(name)
	if kind == SectionOther && utf8.RuneCountInString(name) == 1 {
		switch name {
		case "M":
			return "write the maneuver bonus as M+" + digits
		case "S":
			return "write the systems bonus as S+" + digits
		}
		return fmt.Sprintf("unknown section %q: the one-letter sections are C, E, O and L; name others in full, as in Science2", name)
	}
	if kind != SectionOther {
		name = kind.Name()
	}
	for _, s := range p.r.Sections {
		if strings.ToLower(s.Name) == strings.ToLower(name) {
			return fmt.Sprintf("the record lists %s twice", s.Name)
		}
	}
	if len(p.r.Sections) == MaxShipSections {
		return fmt.Sprintf("a craft has at most %d sections", MaxShipSections)
	}
	p.r.Sections = append(p.r.Sections, Section{Name: name, Kind: kind, Points: n})
	return ""
}

// checkSectionName returns why head cannot name a section, or "": a name is
// letters, with single spaces, hyphens or apostrophes between them.
func checkSectionName(head string) string {
	first, _ := utf8.DecodeRuneInString(head)
	if !unicode.IsLetter(first) {
		return fmt.Sprintf("a section's name starts with a letter, not %q", string(first))
	}
	for _, r := range head {
		if !isNameRune(r) {
			return fmt.Sprintf("a section's name is letters, spaces and hyphens only, not %q", string(r))
		}
	}
	if utf8.RuneCountInString(canonicalName(head)) > MaxSectionNameLength {
		return fmt.Sprintf("a section's name is at most %d letters", MaxSectionNameLength)
	}
	return ""
}

// isNameRune reports whether r may appear in a section name.
func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsSpace(r) || r == '-' || r == '\''
}

// canonicalName collapses runs of space and upper-cases the first letter:
// "machine  shop" → "Machine shop".
func canonicalName(head string) string {
	n := strings.Join(strings.Fields(head), " ")
	r, size := utf8.DecodeRuneInString(n)
	if size == 0 {
		return n
	}
	return string(unicode.ToUpper(r)) + n[size:]
}

// sectionKindOf maps a canonical name to its kind: the four standard names,
// their one-letter short forms and "Ops"; anything else is SectionOther.
func sectionKindOf(name string) SectionKind {
	switch strings.ToLower(name) {
	case "c", "cargo":
		return SectionCargo
	case "e", "engineering":
		return SectionEngineering
	case "o", "operations", "ops":
		return SectionOperations
	case "l", "living":
		return SectionLiving
	}
	return SectionOther
}

// required checks the whole record once every entry is read.
func (p *shipParser) required() string {
	var missing []string
	for _, k := range []SectionKind{SectionEngineering, SectionOperations} {
		if !slices.ContainsFunc(p.r.Sections, func(s Section) bool { return s.Kind == k }) {
			missing = append(missing, k.Name())
		}
	}
	if len(missing) == 0 {
		return ""
	}
	verb := "is"
	if len(missing) == 2 {
		verb = "are"
	}
	reason := fmt.Sprintf("a craft requires engineering and operations sections; %s %s missing", strings.Join(missing, " and "), verb)
	// A misspelt or abbreviated required section reads as a named extra:
	// point at it.
	for _, m := range missing {
		for _, s := range p.r.Sections {
			if s.Kind != SectionOther {
				continue
			}
			_, near := Suggest(s.Name, []string{m})
			prefix := len(s.Name) >= 2 && strings.HasPrefix(strings.ToLower(m), strings.ToLower(s.Name))
			if near || prefix {
				reason += fmt.Sprintf(" (is %s%d meant to be %s? write %s%d or %s%d)", s.Name, s.Points, m, m, s.Points, m[:1], s.Points)
				return reason
			}
		}
	}
	return reason
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// quoteToken quotes an entry for an error message, cut to 40 letters.
func quoteToken(tok string) string { return quoteCut(tok, 40) }

// quoteCut quotes s, cut on a letter boundary to at most n letters.
func quoteCut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return strconv.Quote(s)
	}
	cut := 0
	for i := 0; i < n; i++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return strconv.Quote(s[:cut] + "…")
}

// String renders the record in canonical long form, the form stored in
// events: "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1". Sections
// come first in listed order, then weapons and shields ("2d6/2", "2d6"
// without shields, "/1" without weapons), then "M+X" and "S+X" when not
// zero. ParseShipRecord(ed, r.String()) gives r back for any record it
// parsed.
func (r ShipRecord) String() string { return r.format(false) }

// Short renders the record with the one-letter forms of the standard
// sections, as the 2021 dogfight example writes it: "C1, E1, O1, L1, d6/1,
// M+1". Named extras stay in full.
func (r ShipRecord) Short() string { return r.format(true) }

// format renders the record long or short.
func (r ShipRecord) format(short bool) string {
	parts := make([]string, 0, len(r.Sections)+3)
	for _, s := range r.Sections {
		name := s.Name
		if short && s.Kind.short() != "" {
			name = s.Kind.short()
		}
		parts = append(parts, name+strconv.Itoa(s.Points))
	}
	ws := ""
	if r.WeaponDice > 0 {
		ws = DiceExpr{Count: r.WeaponDice, Sides: 6}.String()
	}
	if r.Shields > 0 {
		ws += "/" + strconv.Itoa(r.Shields)
	}
	if ws != "" {
		parts = append(parts, ws)
	}
	if r.Maneuver > 0 {
		parts = append(parts, "M+"+strconv.Itoa(r.Maneuver))
	}
	if r.Systems > 0 {
		parts = append(parts, "S+"+strconv.Itoa(r.Systems))
	}
	return strings.Join(parts, ", ")
}

// Validate checks a record built by hand rather than parsed: it must be one
// ParseShipRecord(ed, ...) would return, with canonical section names and
// kinds that match them. Errors are CodeInvalid.
func (r ShipRecord) Validate(ed Edition) error {
	for _, s := range r.Sections {
		if s.Points < 1 {
			return Errorf(CodeInvalid, "bad ship record: section %q has %d points; a section has at least 1 point", s.Name, s.Points)
		}
	}
	switch {
	case r.WeaponDice < 0:
		return Errorf(CodeInvalid, "bad ship record: %d weapon dice is negative", r.WeaponDice)
	case r.Shields < 0 || r.Maneuver < 0 || r.Systems < 0:
		return Errorf(CodeInvalid, "bad ship record: shields, maneuver and systems cannot be negative")
	}
	parsed, err := ParseShipRecord(ed, r.String())
	if err != nil {
		return err
	}
	if len(parsed.Sections) != len(r.Sections) {
		return Errorf(CodeInvalid, "bad ship record: %q reads back as %d sections, not %d", r.String(), len(parsed.Sections), len(r.Sections))
	}
	for i, s := range r.Sections {
		if parsed.Sections[i] != s {
			want := parsed.Sections[i]
			return Errorf(CodeInvalid, "bad ship record: section %d is %q of kind %q; write it as %q of kind %q", i+1, s.Name, string(s.Kind), want.Name, string(want.Kind))
		}
	}
	if !reflect.DeepEqual(parsed, r) {
		return Errorf(CodeInvalid, "bad ship record: %q does not read back as itself", r.String())
	}
	return nil
}

// SectionIndex finds a section by name, case-insensitively, also by the
// one-letter forms C, E, O, L and "Ops". An unknown name is a CodeNotFound
// error, with a suggestion when one is close.
func (r ShipRecord) SectionIndex(name string) (int, error) {
	typed := strings.TrimSpace(name)
	want := strings.ToLower(canonicalName(typed))
	if k := sectionKindOf(want); k != SectionOther {
		want = strings.ToLower(k.Name())
	}
	names := make([]string, len(r.Sections))
	for i, s := range r.Sections {
		names[i] = s.Name
		if strings.ToLower(s.Name) == want {
			return i, nil
		}
	}
	if hint, ok := Suggest(typed, names); ok {
		return -1, Errorf(CodeNotFound, "the craft has no section %q; did you mean %q?", typed, hint)
	}
	return -1, Errorf(CodeNotFound, "the craft has no section %q: its sections are %s", typed, strings.Join(names, ", "))
}

// BuildCost is what a ship record costs in build points, part by part.
type BuildCost struct {
	// Total is the sum of the parts.
	Total int
	// Sections, Weapons, Shields, Maneuver and Systems are the parts.
	Sections, Weapons, Shields, Maneuver, Systems int
	// Formula shows the sum, such as "sections 4 + weapons 6 (d6) +
	// shields 2 (/1) + maneuver 2 (M+1) = 14".
	Formula string
}

// Build point prices. 2020/2021 "Building Costs": "Each section costs one
// build point. Additional build points improve the section's durability";
// "Weapons": "Every six build points spent on weapons enable the craft to
// deal one die of damage"; "Shields": "Two build points buy one shield
// factor"; "Maneuver": "A +1 maneuver bonus costs two build points"; 2010
// "Systems Capabilities": "Ever two points spent on systems increases the
// crafts system bonus +1".
const (
	// CostPerWeaponDie is the build points of one d6 of weapons.
	CostPerWeaponDie = 6
	// CostPerShield is the build points of one shield factor.
	CostPerShield = 2
	// CostPerManeuver is the build points of +1 maneuver.
	CostPerManeuver = 2
	// CostPerSystems is the build points of +1 systems (2010).
	CostPerSystems = 2
)

// ShipCost prices r in build points: one per section point, six per weapon
// die, two per shield factor, two per +1 maneuver and two per +1 systems.
// The Kit-Kat, "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1",
// costs 14 (2020/2021 "Maneuver" Example 2: "Build cost=14 build points").
func ShipCost(r ShipRecord) BuildCost {
	var c BuildCost
	for _, s := range r.Sections {
		c.Sections += s.Points
	}
	c.Weapons = r.WeaponDice * CostPerWeaponDie
	c.Shields = r.Shields * CostPerShield
	c.Maneuver = r.Maneuver * CostPerManeuver
	c.Systems = r.Systems * CostPerSystems
	c.Total = c.Sections + c.Weapons + c.Shields + c.Maneuver + c.Systems
	parts := []string{fmt.Sprintf("sections %d", c.Sections)}
	if r.WeaponDice > 0 {
		parts = append(parts, fmt.Sprintf("weapons %d (%s)", c.Weapons, DiceExpr{Count: r.WeaponDice, Sides: 6}))
	}
	if r.Shields > 0 {
		parts = append(parts, fmt.Sprintf("shields %d (/%d)", c.Shields, r.Shields))
	}
	if r.Maneuver > 0 {
		parts = append(parts, fmt.Sprintf("maneuver %d (M+%d)", c.Maneuver, r.Maneuver))
	}
	if r.Systems > 0 {
		parts = append(parts, fmt.Sprintf("systems %d (S+%d)", c.Systems, r.Systems))
	}
	c.Formula = strings.Join(parts, " + ") + " = " + strconv.Itoa(c.Total)
	return c
}

// CargoUnits returns the cargo units r carries, one per cargo point.
// 2020/2021 "Cargo Section": "Each point spent on the cargo section allows
// the craft to carry one cargo unit. A cargo unit is roughly a truck, or a
// squad of space infantry."
func (r ShipRecord) CargoUnits() int {
	n := 0
	for _, s := range r.Sections {
		if s.Kind == SectionCargo {
			n += s.Points
		}
	}
	return n
}

// HasLiving reports whether r lists a living section. 2020/2021 "Living
// Section": "Without a living section, after combat, the craft must return
// to a base or mother ship."
func (r ShipRecord) HasLiving() bool {
	return slices.ContainsFunc(r.Sections, func(s Section) bool { return s.Kind == SectionLiving })
}

// SectionState is a section and the damage it has taken.
type SectionState struct {
	Section
	Damage int
}

// Destroyed reports whether the section's damage has reached its points.
// 2020/2021 "Building Costs": "When a section accumulates damage equal to
// its build points, it, and all aboard, is destroyed."
func (s SectionState) Destroyed() bool { return s.Damage >= s.Points }

// NewShipState returns the undamaged state of r's sections, in order.
func NewShipState(r ShipRecord) []SectionState {
	st := make([]SectionState, len(r.Sections))
	for i, s := range r.Sections {
		st[i] = SectionState{Section: s}
	}
	return st
}

// SectionDamage is what one hit did to one section.
type SectionDamage struct {
	// Index is the section's place in the record, from 0.
	Index int
	// Name is the section's name.
	Name string
	// Points is the damage this hit dealt it.
	Points int
	// DestroyedNow reports that this hit destroyed it, and everyone aboard.
	DestroyedNow bool
}

// HitOutcome is one hit on a star craft.
type HitOutcome struct {
	// Rolled is the weapon dice's total (rolled or given).
	Rolled int
	// Shields is the target's shield factors, subtracted once per hit.
	Shields int
	// Stopped is what the shields actually stopped: min(Rolled, Shields).
	Stopped int
	// Inflicted is the points the attacker applied: at most Rolled-Shields
	// and at least 0; he may choose fewer.
	Inflicted int
	// Applied lists the sections that took damage, in listed order.
	Applied []SectionDamage
	// Wasted is the inflicted points left over once every section was
	// destroyed.
	Wasted int
	// DIW reports that after this hit Engineering or Operations is
	// destroyed: the craft is dead in the water.
	DIW bool
	// DIWNow reports that DIW became true with this hit.
	DIWNow bool
	// Destroyed reports that every section is destroyed after this hit.
	Destroyed bool
	// Explanation is a sentence with the numbers.
	Explanation string
}

// checkState rejects a state that does not belong to r.
func checkState(r ShipRecord, state []SectionState) error {
	if len(r.Sections) == 0 {
		return Errorf(CodeInvalid, "the ship record lists no sections")
	}
	if len(state) != len(r.Sections) {
		return Errorf(CodeInvalid, "the damage state has %d sections, the ship record %d", len(state), len(r.Sections))
	}
	for i, s := range state {
		switch {
		case s.Section != r.Sections[i]:
			return Errorf(CodeInvalid, "the damage state does not match the ship record: section %d is %s%d, the record lists %s%d",
				i+1, s.Name, s.Points, r.Sections[i].Name, r.Sections[i].Points)
		case s.Points < 1:
			return Errorf(CodeInvalid, "section %s has %d points; a section has at least 1 point", s.Name, s.Points)
		case s.Damage < 0 || s.Damage > s.Points:
			return Errorf(CodeInvalid, "section %s has %d damage; it has %d points", s.Name, s.Damage, s.Points)
		}
	}
	return nil
}

// ApplyShipHit applies a hit of rolled damage points to a craft with record
// r whose sections are in state (nil or empty means undamaged), and returns
// what happened and the new state; state itself is not changed.
//
// inflict is the points the attacker chooses to inflict after shields, or
// less than 0 for all of them; more than Rolled-Shields is a CodeInvalid
// error. 2020/2021 "Shields": "The defender deducts one damage point for
// each one of his craft's shield factors"; "Damage Effect": "Each remaining
// damage point destroys one point of section. Sections are destroyed in
// sequence as listed in the defender's ship record. The attacker may inflict
// fewer damage points than he rolled, preserving craft sections." (2010
// "Shields"/"Damage" say the same.) Points go to the first section not yet
// destroyed, so a damaged section takes the next points ("The engineering
// section is a two-point section. It takes one point of damage. Though
// damaged, it is functional. If it accumulates an additional point of
// damage, it, and all aboard, is destroyed"). Points beyond the last section
// are Wasted: the books stop at "finally, the living section".
//
// DIW: 2020/2021 "Dead In The Water (DIW)": "If the engineering or ops
// sections are destroyed, the craft can no longer move or fire on enemies."
func ApplyShipHit(r ShipRecord, state []SectionState, rolled, inflict int) (HitOutcome, []SectionState, error) {
	if len(state) == 0 {
		state = NewShipState(r)
	}
	if err := checkState(r, state); err != nil {
		return HitOutcome{}, nil, err
	}
	if rolled < 0 {
		return HitOutcome{}, nil, Errorf(CodeInvalid, "a hit of %d damage points is negative", rolled)
	}
	if r.Shields < 0 {
		return HitOutcome{}, nil, Errorf(CodeInvalid, "shields %d are negative", r.Shields)
	}
	out := HitOutcome{Rolled: rolled, Shields: r.Shields, Stopped: min(rolled, r.Shields)}
	most := rolled - out.Stopped
	switch {
	case inflict < 0:
		inflict = most
	case inflict > most:
		return HitOutcome{}, nil, Errorf(CodeInvalid, "the attacker can inflict at most %d: %d rolled, shields stop %d", most, rolled, out.Stopped)
	}
	out.Inflicted = inflict
	diwBefore, _ := Dead(state)
	next := slices.Clone(state)
	left := inflict
	for i := range next {
		if left == 0 {
			break
		}
		s := &next[i]
		if s.Destroyed() {
			continue
		}
		n := min(left, s.Points-s.Damage)
		s.Damage += n
		left -= n
		out.Applied = append(out.Applied, SectionDamage{Index: i, Name: s.Name, Points: n, DestroyedNow: s.Destroyed()})
	}
	out.Wasted = left
	out.DIW, _ = Dead(next)
	out.DIWNow = out.DIW && !diwBefore
	out.Destroyed = !slices.ContainsFunc(next, func(s SectionState) bool { return !s.Destroyed() })
	out.Explanation = hitExplanation(out, next)
	return out, next, nil
}

// hitExplanation tells a hit in one or two sentences.
func hitExplanation(out HitOutcome, next []SectionState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hit for %d", out.Rolled)
	if out.Shields > 0 {
		fmt.Fprintf(&b, ", shields stop %d", out.Stopped)
	}
	fmt.Fprintf(&b, ": %d %s", out.Inflicted, plural(out.Inflicted, "damage point", "damage points"))
	if most := out.Rolled - out.Stopped; out.Inflicted < most {
		fmt.Fprintf(&b, " (the attacker holds back %d)", most-out.Inflicted)
	}
	var parts []string
	for _, a := range out.Applied {
		if a.DestroyedNow {
			parts = append(parts, fmt.Sprintf("%s takes %d and is destroyed with all aboard", a.Name, a.Points))
		} else {
			s := next[a.Index]
			parts = append(parts, fmt.Sprintf("%s takes %d (%d of %d) and still works", a.Name, a.Points, s.Damage, s.Points))
		}
	}
	if len(parts) > 0 {
		b.WriteString("; " + strings.Join(parts, ", "))
	}
	if out.Wasted > 0 {
		fmt.Fprintf(&b, "; %d %s wasted: no section is left", out.Wasted, plural(out.Wasted, "point is", "points are"))
	}
	b.WriteString(".")
	if out.DIW {
		_, reason := Dead(next)
		b.WriteString(" " + capitalize(reason) + ".")
	}
	return b.String()
}

// RepairSection removes up to points damage from the section at index (points
// less than 0 removes all of it) and returns the new state and the points
// repaired; state itself is not changed.
//
// The books have no repair rule for star craft. ltscamp lets any damage be
// repaired, and a destroyed section is rebuilt like any other: once its
// damage falls below its points it works again (and a DIW craft whose
// Engineering and Operations are working again is no longer DIW). Those who
// died aboard stay dead; that is the caller's business. How long a repair
// takes and what it costs are left to the scenario ("Other sections ... may
// be added as prescribed by the scenario" is the books' only word on
// scenarios shaping craft). Errors: a bad index or 0 points is CodeInvalid;
// an undamaged section is CodeRule.
func RepairSection(state []SectionState, index, points int) ([]SectionState, int, error) {
	if index < 0 || index >= len(state) {
		return nil, 0, Errorf(CodeInvalid, "no section %d: the craft has %d %s (0 to %d)", index, len(state), plural(len(state), "section", "sections"), len(state)-1)
	}
	if points == 0 {
		return nil, 0, Errorf(CodeInvalid, "repair at least 1 point of %s", state[index].Name)
	}
	s := state[index]
	if s.Damage < 0 || s.Damage > s.Points {
		return nil, 0, Errorf(CodeInvalid, "section %s has %d damage; it has %d points", s.Name, s.Damage, s.Points)
	}
	if s.Damage == 0 {
		return nil, 0, Errorf(CodeRule, "%s has no damage to repair", s.Name)
	}
	n := s.Damage // less than 0 repairs it all
	if points > 0 {
		n = min(points, n)
	}
	next := slices.Clone(state)
	next[index].Damage -= n
	return next, n, nil
}

// Dead reports whether a craft is dead in the water and why: its
// Engineering or Operations section is destroyed. 2020/2021 "Engineering
// Section": "If the engineering section is destroyed, the craft loses
// propulsion and is DIW"; "Operations Section": "If the operations section
// is destroyed, the ship is DIW, and it cannot communicate with the outside
// world"; "Dead In The Water (DIW)": "the craft can no longer move or fire
// on enemies ... emergency power sustains life and basic function in
// surviving sections." 2010 "Dead In The Water (DIW)": "If engineering or
// ops is destroyed, the craft fails."
func Dead(state []SectionState) (diw bool, reason string) {
	var gone []string
	var what []string
	for _, s := range state {
		if !s.Destroyed() {
			continue
		}
		// 2020/2021: Engineering "provides propulsion and power";
		// Operations lost means "it cannot communicate".
		switch s.Kind {
		case SectionEngineering:
			gone, what = append(gone, s.Name), append(what, "has lost propulsion")
		case SectionOperations:
			gone, what = append(gone, s.Name), append(what, "cannot communicate with the outside world")
		}
	}
	if len(gone) == 0 {
		return false, ""
	}
	verb := "is"
	if len(gone) > 1 {
		verb = "are"
	}
	return true, fmt.Sprintf("%s %s destroyed: the craft is dead in the water, %s, and can no longer move or fire",
		strings.Join(gone, " and "), verb, strings.Join(what, " and "))
}
