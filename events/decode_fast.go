package events

import (
	"strconv"
	"unicode/utf8"
)

// The payloads that make up most of a long log (rolls, XP, karma, damage,
// rest, undo) are decoded here without reflection: a replay of a million
// events spent a third of its time in encoding/json.
//
// A fast decoder reads only the JSON that json.Marshal writes for its
// payload, give or take whitespace, key order and escapes: every key one
// of the struct's own, at most once; integers without fraction or
// exponent; strings of valid UTF-8 with the simple escapes; no null. On
// anything else it declines, and Decode reads the payload with
// encoding/json as before. So what it accepts it decodes exactly as
// encoding/json would (FuzzFastDecode holds it to that), and every error
// still comes from encoding/json, worded as before.

// fastDecoders maps the types with a fast decoder to it.
var fastDecoders = map[string]func(b []byte) (Payload, bool){
	TypeRollMade:         fast[RollMade](rollMadeFields),
	TypeXPAwarded:        fast[XPAwarded](xpAwardedFields),
	TypeXPSpent:          fast[XPSpent](xpSpentFields),
	TypeKarmaGranted:     fast[KarmaGranted](karmaGrantedFields),
	TypeKarmaSpent:       fast[KarmaSpent](karmaSpentFields),
	TypeWishGranted:      fast[WishGranted](wishGrantedFields),
	TypeCurseAdded:       fast[CurseAdded](curseAddedFields),
	TypeDamageTaken:      fast[DamageTaken](damageTakenFields),
	TypeDamageHealed:     fast[DamageHealed](damageHealedFields),
	TypeFatigueRecovered: fast[FatigueRecovered](fatigueRecoveredFields),
	TypeRestTaken:        fast[RestTaken](restTakenFields),
	TypeCommandReverted:  fast[CommandReverted](commandRevertedFields),
}

// jsonReader reads JSON from b, strictly: bad is set at the first thing it
// does not read exactly as encoding/json would, and stays set.
type jsonReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *jsonReader) ws() {
	b, i := r.b, r.i
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	r.i = i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next skips whitespace and consumes c if it comes next.
func (r *jsonReader) next(c byte) bool {
	b, i := r.b, r.i
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && b[i] == c {
		r.i = i + 1
		return true
	}
	r.i = i
	return false
}

// key reads an object key: plain ASCII without escapes (every key a
// payload has), else bad.
func (r *jsonReader) key() []byte {
	b, i := r.b, r.i
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != '"' {
		r.bad = true
		return nil
	}
	i++
	start := i
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' {
			r.i = i + 1
			return b[start:i]
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	r.bad = true
	return nil
}

// known returns the string s holds when it is one that payloads repeat
// over and over (a roll's kind and outcome, an edition), without
// allocating a copy.
func known(s []byte) (string, bool) {
	switch string(s) {
	case "check":
		return "check", true
	case "damage":
		return "damage", true
	case "dice":
		return "dice", true
	case "pass":
		return "pass", true
	case "fail":
		return "fail", true
	case "rolled":
		return "rolled", true
	case "2010":
		return "2010", true
	case "2020":
		return "2020", true
	case "2021":
		return "2021", true
	case "3/DX":
		return "3/DX", true
	case "3/ST":
		return "3/ST", true
	case "3/IQ":
		return "3/IQ", true
	case "target":
		return "target", true
	case "total":
		return "total", true
	case "attribute":
		return "attribute", true
	case "skill":
		return "skill", true
	case "reroll":
		return "reroll", true
	}
	return "", false
}

// end checks that nothing but whitespace follows the value read.
func (r *jsonReader) end() bool {
	r.ws()
	return !r.bad && r.i == len(r.b)
}

// str reads a string.
func (r *jsonReader) str() string {
	b, i := r.b, r.i
	if i >= len(b) || b[i] != '"' {
		r.bad = true
		return ""
	}
	i++
	start := i
	ascii := true
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			s := b[start:i]
			r.i = i + 1
			if !ascii && !utf8.Valid(s) {
				// encoding/json replaces invalid UTF-8.
				r.bad = true
				return ""
			}
			if k, ok := known(s); ok {
				return k
			}
			return string(s)
		case c == '\\':
			r.i = i
			return r.escaped(start)
		case c < 0x20:
			r.bad = true
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	r.bad = true
	return ""
}

// escaped reads the rest of a string from its first backslash; the string
// began at start. \u escapes are left to encoding/json.
func (r *jsonReader) escaped(start int) string {
	buf := make([]byte, 0, r.i-start+16)
	buf = append(buf, r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			if !utf8.Valid(buf) {
				r.bad = true
				return ""
			}
			return string(buf)
		case c == '\\':
			if r.i+1 >= len(r.b) {
				r.bad = true
				return ""
			}
			switch r.b[r.i+1] {
			case '"', '\\', '/':
				buf = append(buf, r.b[r.i+1])
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			default:
				r.bad = true
				return ""
			}
			r.i += 2
			continue
		case c < 0x20:
			r.bad = true
			return ""
		}
		buf = append(buf, c)
		r.i++
	}
	r.bad = true
	return ""
}

// int reads an integer that fits an int: no fraction, no exponent.
func (r *jsonReader) int() int {
	i, neg := r.i, false
	if i < len(r.b) && r.b[i] == '-' {
		neg = true
		i++
	}
	start := i
	n := 0
	for i < len(r.b) && '0' <= r.b[i] && r.b[i] <= '9' {
		n = n*10 + int(r.b[i]-'0')
		i++
	}
	digits := i - start
	switch {
	case digits == 0, digits > 18, digits > 1 && r.b[start] == '0':
		r.bad = true
		return 0
	case i < len(r.b) && (r.b[i] == '.' || r.b[i] == 'e' || r.b[i] == 'E'):
		r.bad = true
		return 0
	}
	r.i = i
	if neg {
		return -n
	}
	return n
}

// float reads a number as encoding/json reads it into a float64.
func (r *jsonReader) float() float64 {
	i := r.i
	if i < len(r.b) && r.b[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < len(r.b) && '0' <= r.b[i] && r.b[i] <= '9' {
			i++
		}
		return i - s
	}
	first := i
	if n := digits(); n == 0 || n > 1 && r.b[first] == '0' {
		r.bad = true
		return 0
	}
	if i < len(r.b) && r.b[i] == '.' {
		i++
		if digits() == 0 {
			r.bad = true
			return 0
		}
	}
	if i < len(r.b) && (r.b[i] == 'e' || r.b[i] == 'E') {
		i++
		if i < len(r.b) && (r.b[i] == '+' || r.b[i] == '-') {
			i++
		}
		if digits() == 0 {
			r.bad = true
			return 0
		}
	}
	f, err := strconv.ParseFloat(string(r.b[r.i:i]), 64)
	if err != nil {
		r.bad = true
		return 0
	}
	r.i = i
	return f
}

// bool reads true or false.
func (r *jsonReader) bool() bool {
	rest := r.b[r.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		r.i += 4
		return true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		r.i += 5
		return false
	}
	r.bad = true
	return false
}

// array reads an array, calling elem for each element. It reports
// whether the array had any element.
func (r *jsonReader) array(elem func()) {
	if !r.next('[') {
		r.bad = true
		return
	}
	if r.next(']') {
		return
	}
	for !r.bad {
		r.ws()
		elem()
		if r.next(',') {
			continue
		}
		if !r.next(']') {
			r.bad = true
		}
		return
	}
}

// ints reads an array of integers; [] is an empty slice, not nil, as
// encoding/json makes it.
func (r *jsonReader) ints() []int {
	out := make([]int, 0, 4)
	r.array(func() { out = append(out, r.int()) })
	return out
}

// strs reads an array of strings.
func (r *jsonReader) strs() []string {
	out := []string{}
	r.array(func() { out = append(out, r.str()) })
	return out
}

// field is one key of a payload of type T, for a fast decoder.
type field[T any] struct {
	// key is the key as JSON writes it, quotes included.
	key string
	// to returns the struct field of p that the key's value goes to: a
	// *string, *int, *bool, *float64, *[]int, *[]string, *[]Modifier or
	// *Stamp.
	to func(p *T) any
}

// f is a field of T.
func f[T any](key string, to func(p *T) any) field[T] { return field[T]{`"` + key + `"`, to} }

// value reads a value into dst, one of the types field.to gives.
func (r *jsonReader) value(dst any) {
	switch dst := dst.(type) {
	case *string:
		*dst = r.str()
	case *int:
		*dst = r.int()
	case *bool:
		*dst = r.bool()
	case *float64:
		*dst = r.float()
	case *[]int:
		*dst = r.ints()
	case *[]string:
		*dst = r.strs()
	case *[]Modifier:
		*dst = r.modifiers()
	case *Stamp:
		r.stamp(dst)
	default:
		r.bad = true
	}
}

// decodeFields reads b as one object of type T whose keys are fields, in
// the order json.Marshal writes them (T's field order). The keys are
// matched in place in that order, a comparison each, and looked for
// among the others only when they come out of it; a key twice, or one not
// in fields, and the payload is left to encoding/json.
func decodeFields[T any](b []byte, fields []field[T]) (*T, bool) {
	p := new(T)
	r := jsonReader{b: b}
	if !r.next('{') {
		return nil, false
	}
	if r.next('}') {
		return p, r.end()
	}
	var seen uint64
	next := 0
	for {
		r.ws()
		f := match(&r, fields, next)
		if f < 0 {
			// Out of the usual order, or not a field at all.
			key := r.key()
			if r.bad {
				return nil, false
			}
			for i := range fields {
				if k := fields[i].key; len(k) == len(key)+2 && k[1:len(k)-1] == string(key) {
					f = i
					break
				}
			}
			if f < 0 {
				return nil, false
			}
		}
		if seen&(1<<f) != 0 || !r.next(':') {
			return nil, false
		}
		seen |= 1 << f
		next = f + 1
		r.ws()
		r.value(fields[f].to(p))
		if r.bad {
			return nil, false
		}
		if r.next(',') {
			continue
		}
		if r.next('}') {
			return p, r.end()
		}
		return nil, false
	}
}

// match finds the key at r among fields[from:] by comparing it in place,
// and consumes it: the index of its field, or -1 (nothing consumed).
func match[T any](r *jsonReader, fields []field[T], from int) int {
	rest := r.b[r.i:]
	for i := from; i < len(fields); i++ {
		if k := fields[i].key; len(rest) >= len(k) && string(rest[:len(k)]) == k {
			r.i += len(k)
			return i
		}
	}
	return -1
}

// object reads a small object (a game time, a modifier), handing each key
// to field, which reads its value and returns false for a key it does not
// know or has seen.
func (r *jsonReader) object(field func(key []byte) bool) {
	if !r.next('{') {
		r.bad = true
		return
	}
	if r.next('}') {
		return
	}
	for !r.bad {
		key := r.key()
		if r.bad || !r.next(':') {
			r.bad = true
			return
		}
		r.ws()
		if !field(key) {
			r.bad = true
			return
		}
		if r.next(',') {
			continue
		}
		if !r.next('}') {
			r.bad = true
		}
		return
	}
}

// once marks bit in *seen, and reports whether it was clear.
func once(seen *uint8, bit uint8) bool {
	if *seen&(1<<bit) != 0 {
		return false
	}
	*seen |= 1 << bit
	return true
}

// stamp reads the "at" of a Stamp.
func (r *jsonReader) stamp(s *Stamp) {
	g := &GameTime{}
	var seen uint8
	r.object(func(key []byte) bool {
		switch string(key) {
		case "adventure":
			g.Adventure = r.int()
			return once(&seen, 0)
		case "day":
			g.Day = r.int()
			return once(&seen, 1)
		case "encounter":
			g.Encounter = r.int()
			return once(&seen, 2)
		}
		return false
	})
	s.At = g
}

// modifiers reads a roll's modifiers.
func (r *jsonReader) modifiers() []Modifier {
	out := []Modifier{}
	r.array(func() {
		var m Modifier
		var seen uint8
		r.object(func(key []byte) bool {
			switch string(key) {
			case "source":
				m.Source = r.str()
				return once(&seen, 0)
			case "value":
				m.Value = r.int()
				return once(&seen, 1)
			case "applies":
				m.Applies = r.str()
				return once(&seen, 2)
			}
			return false
		})
		out = append(out, m)
	})
	return out
}

// The fields of each payload with a fast decoder, in the order of its
// struct (the order json.Marshal writes them); Stamp's "at" comes first.

var rollMadeFields = []field[RollMade]{
	f("at", func(p *RollMade) any { return &p.Stamp }),
	f("character_id", func(p *RollMade) any { return &p.CharacterID }),
	f("character", func(p *RollMade) any { return &p.Character }),
	f("expr", func(p *RollMade) any { return &p.Expr }),
	f("kind", func(p *RollMade) any { return &p.Kind }),
	f("dice", func(p *RollMade) any { return &p.Dice }),
	f("sides", func(p *RollMade) any { return &p.Sides }),
	f("faces", func(p *RollMade) any { return &p.Faces }),
	f("entered", func(p *RollMade) any { return &p.Entered }),
	f("sum", func(p *RollMade) any { return &p.Sum }),
	f("modifiers", func(p *RollMade) any { return &p.Modifiers }),
	f("total", func(p *RollMade) any { return &p.Total }),
	f("target", func(p *RollMade) any { return &p.Target }),
	f("outcome", func(p *RollMade) any { return &p.Outcome }),
	f("margin", func(p *RollMade) any { return &p.Margin }),
	f("probability", func(p *RollMade) any { return &p.Probability }),
	f("attribute_value", func(p *RollMade) any { return &p.AttributeValue }),
	f("skill_level", func(p *RollMade) any { return &p.SkillLevel }),
	f("restriction", func(p *RollMade) any { return &p.Restriction }),
	f("curses", func(p *RollMade) any { return &p.Curses }),
	f("note", func(p *RollMade) any { return &p.Note }),
	f("reason", func(p *RollMade) any { return &p.Reason }),
	f("rerolls", func(p *RollMade) any { return &p.Rerolls }),
	f("edition", func(p *RollMade) any { return &p.Edition }),
}

var xpAwardedFields = []field[XPAwarded]{
	f("at", func(p *XPAwarded) any { return &p.Stamp }),
	f("amount", func(p *XPAwarded) any { return &p.Amount }),
	f("reason", func(p *XPAwarded) any { return &p.Reason }),
	f("plotword", func(p *XPAwarded) any { return &p.Plotword }),
	f("source", func(p *XPAwarded) any { return &p.Source }),
}

var xpSpentFields = []field[XPSpent]{
	f("at", func(p *XPSpent) any { return &p.Stamp }),
	f("on", func(p *XPSpent) any { return &p.On }),
	f("attribute", func(p *XPSpent) any { return &p.Attribute }),
	f("skill", func(p *XPSpent) any { return &p.Skill }),
	f("skill_name", func(p *XPSpent) any { return &p.SkillName }),
	f("from", func(p *XPSpent) any { return &p.From }),
	f("to", func(p *XPSpent) any { return &p.To }),
	f("price", func(p *XPSpent) any { return &p.Price }),
	f("formula", func(p *XPSpent) any { return &p.Formula }),
	f("edition", func(p *XPSpent) any { return &p.Edition }),
}

var karmaGrantedFields = []field[KarmaGranted]{
	f("at", func(p *KarmaGranted) any { return &p.Stamp }),
	f("amount", func(p *KarmaGranted) any { return &p.Amount }),
	f("reason", func(p *KarmaGranted) any { return &p.Reason }),
	f("expires_at_day_end", func(p *KarmaGranted) any { return &p.ExpiresAtDayEnd }),
	f("storyteller_id", func(p *KarmaGranted) any { return &p.StorytellerID }),
	f("roll_id", func(p *KarmaGranted) any { return &p.RollID }),
}

var karmaSpentFields = []field[KarmaSpent]{
	f("at", func(p *KarmaSpent) any { return &p.Stamp }),
	f("amount", func(p *KarmaSpent) any { return &p.Amount }),
	f("for", func(p *KarmaSpent) any { return &p.For }),
	f("roll_id", func(p *KarmaSpent) any { return &p.RollID }),
	f("which", func(p *KarmaSpent) any { return &p.Which }),
}

var wishGrantedFields = []field[WishGranted]{
	f("at", func(p *WishGranted) any { return &p.Stamp }),
	f("amount", func(p *WishGranted) any { return &p.Amount }),
	f("reason", func(p *WishGranted) any { return &p.Reason }),
}

var curseAddedFields = []field[CurseAdded]{
	f("at", func(p *CurseAdded) any { return &p.Stamp }),
	f("levels", func(p *CurseAdded) any { return &p.Levels }),
	f("reason", func(p *CurseAdded) any { return &p.Reason }),
}

var damageTakenFields = []field[DamageTaken]{
	f("at", func(p *DamageTaken) any { return &p.Stamp }),
	f("dealt", func(p *DamageTaken) any { return &p.Dealt }),
	f("damage", func(p *DamageTaken) any { return &p.Damage }),
	f("fatigue", func(p *DamageTaken) any { return &p.Fatigue }),
	f("armor_stopped", func(p *DamageTaken) any { return &p.ArmorStopped }),
	f("source", func(p *DamageTaken) any { return &p.Source }),
	f("attack_id", func(p *DamageTaken) any { return &p.AttackID }),
}

var damageHealedFields = []field[DamageHealed]{
	f("at", func(p *DamageHealed) any { return &p.Stamp }),
	f("points", func(p *DamageHealed) any { return &p.Points }),
	f("reason", func(p *DamageHealed) any { return &p.Reason }),
	f("medic_id", func(p *DamageHealed) any { return &p.MedicID }),
	f("medic", func(p *DamageHealed) any { return &p.Medic }),
	f("roll_id", func(p *DamageHealed) any { return &p.RollID }),
	f("source", func(p *DamageHealed) any { return &p.Source }),
}

var fatigueRecoveredFields = []field[FatigueRecovered]{
	f("at", func(p *FatigueRecovered) any { return &p.Stamp }),
	f("points", func(p *FatigueRecovered) any { return &p.Points }),
	f("reason", func(p *FatigueRecovered) any { return &p.Reason }),
}

var restTakenFields = []field[RestTaken]{
	f("at", func(p *RestTaken) any { return &p.Stamp }),
	f("days", func(p *RestTaken) any { return &p.Days }),
	f("stayed_put", func(p *RestTaken) any { return &p.StayedPut }),
	f("sheltered", func(p *RestTaken) any { return &p.Sheltered }),
	f("provisioned", func(p *RestTaken) any { return &p.Provisioned }),
	f("no_strenuous", func(p *RestTaken) any { return &p.NoStrenuous }),
	f("healed", func(p *RestTaken) any { return &p.Healed }),
	f("rested_days", func(p *RestTaken) any { return &p.RestedDays }),
	f("until_day", func(p *RestTaken) any { return &p.UntilDay }),
	f("note", func(p *RestTaken) any { return &p.Note }),
	f("edition", func(p *RestTaken) any { return &p.Edition }),
}

var commandRevertedFields = []field[CommandReverted]{
	f("at", func(p *CommandReverted) any { return &p.Stamp }),
	f("command_id", func(p *CommandReverted) any { return &p.CommandID }),
	f("cascade", func(p *CommandReverted) any { return &p.Cascade }),
	f("reason", func(p *CommandReverted) any { return &p.Reason }),
}

// fast returns a fast decoder of payloads of type T.
func fast[T any, P interface {
	*T
	Payload
}](fields []field[T]) func(b []byte) (Payload, bool) {
	if len(fields) > 64 {
		panic("events: a fast decoder keeps the keys it has seen in 64 bits")
	}
	return func(b []byte) (Payload, bool) {
		p, ok := decodeFields(b, fields)
		if !ok {
			return nil, false
		}
		return P(p), true
	}
}
