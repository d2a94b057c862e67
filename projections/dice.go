package projections

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// DiceTally is the log's dice folded for `ltscamp dice report`: every face
// thrown, by its source (an actor's physical dice, or the program's), and
// every check a character made, with the chance it had. It keeps counts,
// not events, so that a tally of a long log stays small: a karma re-roll
// reads back the roll it replaces.
//
// Faces come from rolls (roll.made), contests, attacks (the hit, the
// dodge and the damage), initiative, ship hits and dogfights (the pilots'
// contests, the gunners' checks and the weapons' dice); the d10s of
// detailed (INTERCEPTOR) ships are not counted. A check is a roll.made
// of kind "check" with dice thrown (a required skill the roller lacked
// throws none), and an attack's hit roll; its chance is the exact one
// the rules give its dice and target.
type DiceTally struct {
	// Filter keeps what the report asked for.
	Filter DiceFilter
	// Sources are the die sources seen, in the order first seen.
	Sources []*DieTally
	// Characters are the characters who made checks, in the order first
	// seen.
	Characters []*LuckTally

	sourceIdx map[dieKey]int
	charIdx   map[string]int
	// lookup reads back an event a re-roll replaces; lastRead is the
	// last event it read.
	lookup   func(id string) (events.Event, error)
	lastRead events.Event
	// adventure is the adventure under way (0 between adventures), from
	// the campaign's clock events, for events stamped with no game time.
	adventure int
}

// ErrOutOfEffect is what a tally's lookup returns (wrapped) for an event
// whose command was undone: a re-roll of it replaces nothing counted.
var ErrOutOfEffect = errors.New("undone")

// DiceFilter narrows a dice report.
type DiceFilter struct {
	// Actor keeps the dice of this actor (who ran the commands).
	Actor string
	// Character keeps the rolls of this character (by ID).
	Character string
	// Adventure keeps the rolls of this adventure (0: every one).
	Adventure int
	// Physical keeps physical dice only, Program the program's only.
	Physical, Program bool
}

// dieKey names a die source: an actor's physical dice of so many sides,
// or the program's (actor "").
type dieKey struct {
	actor    string
	physical bool
	sides    int
}

// DieTally is one die source's faces.
type DieTally struct {
	// Actor is who entered the physical dice; "" for the program's.
	Actor    string
	Physical bool
	Sides    int
	// Counts are the faces thrown, by face: Counts[0] is face 1.
	Counts []int64
}

// Total returns the faces thrown.
func (d *DieTally) Total() int64 {
	var n int64
	for _, c := range d.Counts {
		n += c
	}
	return n
}

// LuckTally is one character's checks, grouped by their chance of
// passing, over the campaign and per adventure.
type LuckTally struct {
	CharacterID string
	Character   string
	// Stood are the checks whose outcome stood; Replaced those a karma
	// re-roll replaced (each counted once, apart).
	Stood    CheckGroups
	Replaced CheckGroups
	// Adventures are the checks that stood, by adventure (0: between
	// adventures), in order of the adventures' numbers.
	Adventures []AdventureChecks
}

// AdventureChecks are a character's checks that stood in one adventure.
type AdventureChecks struct {
	Adventure int
	Checks    CheckGroups
}

// CheckGroups counts checks by their exact chance of passing.
type CheckGroups struct {
	// Groups are the checks of each chance, ordered by chance.
	Groups []CheckGroup
}

// CheckGroup is N checks that each had chance P of passing, of which
// Passed passed.
type CheckGroup struct {
	P      float64
	N      int
	Passed int
}

// Checks returns the number of checks, and Passed those that passed.
func (g CheckGroups) Checks() (n, passed int) {
	for _, c := range g.Groups {
		n, passed = n+c.N, passed+c.Passed
	}
	return n, passed
}

// Expected returns the passes to expect: the sum of the chances.
func (g CheckGroups) Expected() float64 {
	var e float64
	for _, c := range g.Groups {
		e += float64(c.N) * c.P
	}
	return e
}

// add counts one check of chance p, passed or not (n -1 takes one away).
func (g *CheckGroups) add(p float64, pass bool, n int) {
	i, found := slices.BinarySearchFunc(g.Groups, p, func(c CheckGroup, p float64) int { return cmp.Compare(c.P, p) })
	if !found {
		if n < 0 {
			return // nothing of that chance to take away (a hand-made log)
		}
		g.Groups = slices.Insert(g.Groups, i, CheckGroup{P: p})
	}
	if n < 0 && (g.Groups[i].N < -n || (pass && g.Groups[i].Passed < -n)) {
		return
	}
	g.Groups[i].N += n
	if pass {
		g.Groups[i].Passed += n
	}
	if g.Groups[i].N == 0 {
		g.Groups = slices.Delete(g.Groups, i, i+1)
	}
}

// NewDiceTally returns an empty tally that keeps what f selects.
// lookup reads back, by its ID, a roll, an attack or a contest that a
// later one replaces (karma re-rolls are few: the tally keeps no index
// of the log's rolls).
func NewDiceTally(f DiceFilter, lookup func(id string) (events.Event, error)) *DiceTally {
	return &DiceTally{Filter: f, sourceIdx: map[dieKey]int{}, charIdx: map[string]int{}, lookup: lookup}
}

// DiceEventTypes are the event types a tally reads: those with dice,
// and the clock's adventures.
func DiceEventTypes() []string {
	return []string{events.TypeRollMade, events.TypeContestResolved, events.TypeAttackMade, events.TypeInitiativeRolled,
		events.TypeShipHit, events.TypeDogfightManeuvered, events.TypeDogfightFired, events.TypeAdventureStarted, events.TypeAdventureEnded}
}

// adventureOf is the adventure an event happened in: its stamp's, or the
// clock's for an event stamped with no game time.
func (t *DiceTally) adventureOf(p events.Payload) int {
	if at, ok := events.GameTimeOf(p); ok {
		return at.Adventure
	}
	return t.adventure
}

// keeps reports whether the filter keeps an event of this adventure.
func (t *DiceTally) keeps(e events.Event, adventure int) bool {
	return (t.Filter.Adventure == 0 || adventure == t.Filter.Adventure) && (t.Filter.Actor == "" || e.Actor == t.Filter.Actor)
}

// Apply folds one event in effect (the caller leaves out the events of
// commands undone), its payload decoded. It fails only when an event it
// replaces cannot be read back.
func (t *DiceTally) Apply(e events.Event, p events.Payload) error {
	switch p := p.(type) {
	case *events.AdventureStarted:
		t.adventure = p.Number
		return nil
	case *events.AdventureEnded:
		t.adventure = 0
		return nil
	}
	adventure := t.adventureOf(p)
	if !t.keeps(e, adventure) {
		return nil
	}
	switch p := p.(type) {
	case *events.RollMade:
		if !t.of(p.CharacterID) {
			return nil
		}
		t.faces(e.Actor, p.Entered, p.Sides, p.Faces)
		if isCheck(p) && t.thrownBy(p.Entered) {
			if err := t.unstand(p.Rerolls); err != nil {
				return err
			}
			t.stand(p.CharacterID, p.Character, adventure, p.Probability, p.Outcome == "pass", 1)
		}
	case *events.ContestResolved:
		var orig events.ContestResolved
		replacing, err := t.readBackIf(p.Rerolls, &orig)
		if err != nil {
			return err
		}
		for i, s := range p.Sides {
			// A re-roll throws one side again; the other keeps its faces.
			if t.of(s.CharacterID) && (!replacing || !slices.Equal(orig.Sides[i].Faces, s.Faces)) {
				t.faces(e.Actor, s.Entered, 6, s.Faces)
			}
		}
	case *events.AttackMade:
		return t.attack(e, p, adventure)
	case *events.InitiativeRolled:
		if t.Filter.Character != "" {
			return nil
		}
		var orig events.InitiativeRolled
		replacing, err := t.readBackIf(p.Rerolls, &orig)
		if err != nil {
			return err
		}
		// A re-roll throws one side's die again; the other side's is
		// kept, and counted once.
		if !replacing || !slices.Equal(orig.Party, p.Party) {
			t.faces(e.Actor, p.Entered, 6, p.Party)
		}
		if !replacing || !slices.Equal(orig.Foes, p.Foes) {
			t.faces(e.Actor, p.Entered, 6, p.Foes)
		}
	case *events.ShipHit:
		// A dogfight's shot records its weapon dice itself (counted
		// there, a re-roll's kept dice once).
		if t.Filter.Character == "" && p.FireID == "" {
			t.faces(e.Actor, p.Entered, 6, p.Faces)
		}
	case *events.DogfightManeuvered:
		var orig events.DogfightManeuvered
		replacing, err := t.readBackIf(p.Rerolls, &orig)
		if err != nil || t.Filter.Character != "" {
			return err
		}
		t.contestFaces(e.Actor, p.Contest, orig.Contest, replacing)
	case *events.DogfightFired:
		var orig events.DogfightFired
		replacing, err := t.readBackIf(p.Rerolls, &orig)
		if err != nil || t.Filter.Character != "" {
			return err
		}
		t.contestFaces(e.Actor, p.PilotContest, orig.PilotContest, replacing)
		for _, r := range [...]struct{ now, before *events.AttackRoll }{{&p.Check, &orig.Check}, {p.Damage, orig.Damage}} {
			// A re-roll throws one part again and keeps the rest.
			if r.now != nil && (!replacing || r.before == nil || !slices.Equal(r.now.Faces, r.before.Faces)) {
				t.faces(e.Actor, r.now.Entered, 6, r.now.Faces)
			}
		}
	}
	return nil
}

// contestFaces counts the faces of a pilots' contest, each side's once:
// a re-roll that keeps one side's faces throws only the other's.
func (t *DiceTally) contestFaces(actor string, c, before *events.ContestResolved, replacing bool) {
	if c == nil {
		return
	}
	for i, s := range c.Sides {
		if !replacing || before == nil || !slices.Equal(before.Sides[i].Faces, s.Faces) {
			t.faces(actor, s.Entered, 6, s.Faces)
		}
	}
}

// isCheck reports whether a roll is a character's check with dice thrown.
func isCheck(p *events.RollMade) bool {
	return p.Kind == "check" && len(p.Faces) > 0 && p.CharacterID != ""
}

// readBack reads the event id back into dst, a payload of its type.
func (t *DiceTally) readBack(id string, dst events.Payload) error {
	if t.lookup == nil {
		return fmt.Errorf("dice: no way to read back %s, which a re-roll replaces", id)
	}
	e, err := t.lookup(id)
	if errors.Is(err, ErrOutOfEffect) {
		return err
	}
	if err != nil {
		return fmt.Errorf("dice: reading back %s, which a re-roll replaces: %w", id, err)
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if reflect.TypeOf(p) != reflect.TypeOf(dst) {
		return fmt.Errorf("dice: %s is a %s, not what replaces it", id, e.Type)
	}
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(p).Elem())
	t.lastRead = e
	return nil
}

// readBackIf reads back the event a re-roll replaces (id; "" for none)
// into dst, and reports whether there is one in effect.
func (t *DiceTally) readBackIf(id string, dst events.Payload) (bool, error) {
	if id == "" {
		return false, nil
	}
	err := t.readBack(id, dst)
	if errors.Is(err, ErrOutOfEffect) {
		return false, nil
	}
	return err == nil, err
}

// thrownBy reports whether the filter keeps dice so thrown: physical
// (entered) or the program's.
func (t *DiceTally) thrownBy(entered bool) bool {
	return !(t.Filter.Physical && !entered) && !(t.Filter.Program && entered)
}

// unstand moves a check that a re-roll replaces (id; "" for none) from
// those that stood to those replaced, when the tally counted it.
func (t *DiceTally) unstand(id string) error {
	if id == "" {
		return nil
	}
	var orig events.RollMade
	if err := t.readBack(id, &orig); errors.Is(err, ErrOutOfEffect) {
		return nil // undone: never counted
	} else if err != nil {
		return err
	}
	if isCheck(&orig) && t.of(orig.CharacterID) && t.thrownBy(orig.Entered) {
		t.replaced(t.lastRead, &orig, orig.CharacterID, orig.Character, orig.Probability, orig.Outcome == "pass")
	}
	return nil
}

// replaced moves a check the tally counted (the filter kept e, its event)
// from those that stood to those replaced.
func (t *DiceTally) replaced(e events.Event, p events.Payload, id, name string, chance float64, pass bool) {
	adventure := t.adventureOf(p)
	if !t.keeps(e, adventure) {
		return
	}
	t.stand(id, name, adventure, chance, pass, -1)
	c := t.Characters[t.charIdx[id]]
	c.Replaced.add(chance, pass, 1)
}

// attack counts an attack's dice. An attack that replaces another (a
// karma re-roll, or the completion of a hit whose damage was to come)
// keeps some of its dice: only the dice thrown again are counted, and
// its hit roll is a new check only when the hit was thrown again.
func (t *DiceTally) attack(e events.Event, p *events.AttackMade, adventure int) error {
	replaces := p.Rerolls
	if replaces == "" {
		replaces = p.Completes
	}
	var orig events.AttackMade
	replacing, err := t.readBackIf(replaces, &orig)
	if err != nil {
		return err
	}
	if !replacing {
		replaces = "" // it replaces nothing counted
	}
	thrown := func(part string, faces []int, before *events.AttackRoll) bool {
		return replaces == "" || p.Rerolled == part || before == nil || !slices.Equal(faces, before.Faces)
	}
	if d := p.Damage; d != nil && t.of(p.AttackerID) && thrown("damage", d.Faces, orig.Damage) {
		t.faces(e.Actor, d.Entered, 6, d.Faces)
	}
	if d := p.Dodge; d != nil && t.of(p.TargetID) && thrown("dodge", d.Faces, orig.Dodge) {
		t.faces(e.Actor, d.Entered, 6, d.Faces)
	}
	h := p.Hit
	if !t.of(p.AttackerID) || len(h.Faces) == 0 || (replaces != "" && p.Rerolled != "hit") {
		return nil // no hit roll, or the same hit roll, counted already
	}
	t.faces(e.Actor, h.Entered, 6, h.Faces)
	if h.Target <= 0 {
		return nil
	}
	if replaces != "" {
		if o := orig.Hit; len(o.Faces) > 0 && o.Target > 0 && t.thrownBy(o.Entered) {
			t.replaced(t.lastRead, &orig, orig.AttackerID, orig.Attacker, hitChance(o), o.Outcome == "hit")
		}
	}
	if t.thrownBy(h.Entered) {
		t.stand(p.AttackerID, p.Attacker, adventure, hitChance(h), h.Outcome == "hit", 1)
	}
	return nil
}

// hitChance is the exact chance an attack's hit roll had: its dice, at
// or under its target, its total's modifiers added.
func hitChance(h events.AttackRoll) float64 {
	return rules.PassProbability(len(h.Faces), h.Target, h.Total-h.Sum)
}

// of reports whether the filter keeps a roll of this character ("" for
// nobody's).
func (t *DiceTally) of(characterID string) bool {
	return t.Filter.Character == "" || characterID == t.Filter.Character
}

// faces counts faces of a source the filter keeps.
func (t *DiceTally) faces(actor string, entered bool, sides int, faces []int) {
	if len(faces) == 0 || sides < 2 || !t.thrownBy(entered) {
		return
	}
	k := dieKey{physical: entered, sides: sides}
	if entered {
		k.actor = actor
	}
	i, ok := t.sourceIdx[k]
	if !ok {
		i = len(t.Sources)
		k.actor = strings.Clone(k.actor)
		t.sourceIdx[k] = i
		t.Sources = append(t.Sources, &DieTally{Actor: k.actor, Physical: entered, Sides: sides, Counts: make([]int64, sides)})
	}
	src := t.Sources[i]
	for _, f := range faces {
		if f >= 1 && f <= sides {
			src.Counts[f-1]++
		}
	}
}

// stand counts n checks of a character (n -1 takes one away).
func (t *DiceTally) stand(id, name string, adventure int, p float64, pass bool, n int) {
	i, ok := t.charIdx[id]
	if !ok {
		id = strings.Clone(id)
		i = len(t.Characters)
		t.charIdx[id] = i
		t.Characters = append(t.Characters, &LuckTally{CharacterID: id})
	}
	c := t.Characters[i]
	if c.Character != name {
		c.Character = strings.Clone(name)
	}
	c.Stood.add(p, pass, n)
	c.adventure(adventure).add(p, pass, n)
}

// adventure returns the character's checks of adventure n, made when
// needed.
func (c *LuckTally) adventure(n int) *CheckGroups {
	i, found := slices.BinarySearchFunc(c.Adventures, n, func(a AdventureChecks, n int) int { return cmp.Compare(a.Adventure, n) })
	if !found {
		c.Adventures = slices.Insert(c.Adventures, i, AdventureChecks{Adventure: n})
	}
	return &c.Adventures[i].Checks
}
