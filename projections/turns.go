package projections

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// Turns is the turn order of the encounter under way, folded from the
// encounter's events on every stream: the initiative (or surprise), the
// turns passed, each combatant's actions and the turns lost by reacting.
//
// The tracker starts when initiative is rolled or a side has surprise;
// before that (and in encounters that never roll it) attacks are recorded
// as always and nobody's turn is tracked.
//
// Turns are numbered from 1 (the first side's first turn); turn 0 is the
// free unopposed turn of the side with surprise. The sides alternate: a
// round is one turn of each side.
type Turns struct {
	Encounter int `json:"encounter"`
	// Active is true once initiative is rolled or a side has surprise.
	Active bool `json:"active"`
	// Surprise is the side with surprise ("" when none), First the side
	// that takes the first turn.
	Surprise string `json:"surprise,omitempty"`
	First    string `json:"first,omitempty"`
	Turn     int    `json:"turn"`
	// Acted maps the ID of each combatant who acted in this turn to the
	// seq of his action.
	Acted map[string]int64 `json:"acted,omitempty"`
	// Loses maps the ID of each combatant who reacted to the turn he
	// loses ("A defender can react to ONE attacker, but loses his next
	// turn").
	Loses map[string]int `json:"loses,omitempty"`
	// Actions are every action of the encounter, against its turn.
	Actions []TurnAction `json:"actions,omitempty"`
	// Broken are the actions taken in a lost turn that no turn.overruled
	// allowed (verify reports them).
	Broken []TurnAction `json:"broken,omitempty"`
	// Free maps the ID of each Stalker who won surprise of his own to his
	// name: "character (not party) gets surprise", one free action before
	// the first turn. It goes when he takes it, or lapses at the first
	// action of the battle (or the first turn's end).
	Free map[string]string `json:"free,omitempty"`

	overruled map[string]int
	// steal follows a Tactician's contest for the initiative through its
	// karma re-rolls; contests are the winners of the encounter's
	// contests by event ID.
	steal    *steal
	contests map[string]int
	// alert follows an Alertness check against surprise; checks are the
	// encounter's checks by event ID (true: passed).
	alert  *alert
	checks map[string]bool
	// dodged are the attacks whose dodge was counted as a reaction, by
	// event ID, and the attacks they complete.
	dodged map[string]bool
	// stalkers follow the Stalkers' rolls or contests through their karma
	// re-rolls; begun is set by the battle's first action, after which no
	// free action is left to take or decide again.
	stalkers []*stalker
	begun    bool
	// initiative is the initiative.rolled in effect: its event ID and its
	// last pair of dice (a karma re-roll keeps the other side's die).
	initiative         string
	lastParty, lastFoe int
}

// InitiativeID returns the event ID of the initiative in effect ("" when
// none was rolled).
func (t *Turns) InitiativeID() string { return t.initiative }

// InitiativeOpen reports whether the initiative may still be re-rolled:
// no turn has passed and nobody has acted but a Stalker's free action.
func (t *Turns) InitiativeOpen() bool {
	if !t.Active || t.Surprise != "" || t.Turn != 1 || t.initiative == "" {
		return false
	}
	for _, a := range t.Actions {
		if !a.Free {
			return false
		}
	}
	return len(t.overruled) == 0
}

// LastDie returns the last initiative die of side in effect.
func (t *Turns) LastDie(side string) int {
	if side == events.SideParty {
		return t.lastParty
	}
	return t.lastFoe
}

type stalker struct {
	id, name string
	ids      map[string]bool
	used     bool
}

type alert struct {
	rollID, side string
}

type steal struct {
	ids      map[string]bool
	side     string
	dieFirst string
}

// TurnAction is one combatant's action, recorded against its turn.
type TurnAction struct {
	Seq   int64  `json:"seq"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Side  string `json:"side"`
	Turn  int    `json:"turn"`
	Round int    `json:"round"`
	// Free marks a Stalker's free action, taken before the first turn:
	// it passes no turn.
	Free bool `json:"free,omitempty"`
}

// OtherSide returns the side facing side.
func OtherSide(side string) string {
	if side == events.SideParty {
		return events.SideFoes
	}
	return events.SideParty
}

// SideOfStream returns the side of a combatant's stream: party members
// (character/<id>) or foes (foe/<id>); "" for any other stream.
func SideOfStream(stream string) string {
	switch {
	case strings.HasPrefix(stream, events.CharacterStreamPrefix):
		return events.SideParty
	case strings.HasPrefix(stream, events.FoeStreamPrefix):
		return events.SideFoes
	}
	return ""
}

// SideAt returns the side whose turn turn is.
func (t *Turns) SideAt(turn int) string {
	if turn == 0 && t.Surprise != "" {
		return t.Surprise
	}
	if turn%2 == 1 {
		return t.First
	}
	return OtherSide(t.First)
}

// RoundOf returns the round of a turn: 0 for the surprise turn, then one
// round for each turn of both sides.
func RoundOf(turn int) int { return (turn + 1) / 2 }

// Side returns the side whose turn it is ("" when no turn is tracked).
func (t *Turns) Side() string {
	if !t.Active {
		return ""
	}
	return t.SideAt(t.Turn)
}

// Round returns the current round.
func (t *Turns) Round() int { return RoundOf(t.Turn) }

// TurnFor returns the turn an action of side would fall in: this turn if
// it is side's, else the next turn of side (the other side's first action
// passes the turn).
func (t *Turns) TurnFor(side string) int {
	turn := t.Turn
	for t.SideAt(turn) != side {
		turn++
	}
	return turn
}

// StateOf says where combatant id of side stands in the turn under way
// ("" when no turn is tracked): "free action", "loses this turn", "loses
// next turn", "acted", "to act" (his side's turn) or "waits" (the other
// side's); and whether he loses a turn.
func (t *Turns) StateOf(id, side string) (string, bool) {
	switch {
	case !t.Active:
		return "", false
	case t.Free[id] != "":
		return "free action", false
	case t.Losing(id) && t.LosesAt(id, t.Turn):
		return "loses this turn", true
	case t.Losing(id):
		return "loses next turn", true
	case t.Acted[id] != 0:
		return "acted", false
	case t.Side() == side:
		return "to act", false
	}
	return "waits", false
}

// LosesAt reports whether combatant id loses turn.
func (t *Turns) LosesAt(id string, turn int) bool {
	l, ok := t.Loses[id]
	return ok && l == turn
}

// Losing reports whether combatant id has a lost turn still to come (or
// under way).
func (t *Turns) Losing(id string) bool {
	l, ok := t.Loses[id]
	return ok && t.Active && l >= t.Turn
}

// reaction returns the ID of the defender who reacted in e, if e is a
// reaction, and his side: a dodge, recorded with the attack (attack
// --dodge) or as the completion of a hit that waited for it (dodge NAME),
// or a counterattack (attack --counter), the defender's own attack. A
// completion that finishes an attack already dodged (damage dice after a
// failed dodge) carries the same dodge and is no new reaction; nor is a
// karma re-roll.
func (t *Turns) reaction(e events.Event, p events.Payload) (string, string, bool) {
	if tk := tackleOf(e, p); tk != nil && tk.Reacts != "" {
		// A tackle as a reaction: the tackler's stream is his side's.
		side := SideOfStream(e.Stream)
		if side == "" {
			side = t.Side()
		}
		return tk.TacklerID, side, true
	}
	a, ok := p.(*events.AttackMade)
	if !ok || a.Rerolls != "" {
		return "", "", false
	}
	if a.Counters != "" {
		// The counterattacker's stream is his own side's.
		side := SideOfStream(e.Stream)
		if side == "" {
			side = t.Side()
		}
		return a.AttackerID, side, true
	}
	if a.Dodge == nil || a.TargetID == "" {
		return "", "", false
	}
	if t.dodged == nil {
		t.dodged = map[string]bool{}
	}
	if a.Completes != "" && t.dodged[a.Completes] {
		t.dodged[e.ID] = true
		return "", "", false
	}
	t.dodged[e.ID] = true
	if a.Completes != "" {
		t.dodged[a.Completes] = true
	}
	// The defender's side is the one facing the attacker's (the side
	// whose turn it is, unless a dodge or its damage dice were entered
	// after the turn passed).
	side := OtherSide(t.Side())
	if attacker := SideOfStream(e.Stream); attacker != "" {
		side = OtherSide(attacker)
	}
	return a.TargetID, side, true
}

// action returns who acted in e, if e is a combatant's action: an attack.
// A karma re-roll of an attack replaces it, and a completion (a dodge or
// the damage dice of a hit that waited) finishes it: neither is a new
// action. A counterattack is a reaction in the attacker's turn, no
// action of the defender's.
func action(e events.Event, p events.Payload) (id, name string, ok bool) {
	if tk := tackleOf(e, p); tk != nil && tk.Reacts == "" && SideOfStream(e.Stream) != "" {
		return tk.TacklerID, tk.Tackler, true
	}
	if a, isAttack := p.(*events.AttackMade); isAttack && a.Rerolls == "" && a.Completes == "" && a.Counters == "" && SideOfStream(e.Stream) != "" {
		return a.AttackerID, a.Attacker, true
	}
	return "", "", false
}

// tackleOf returns the tackle of e, a contest recorded as a tackle, on the
// tackler's stream (the contest is on both sides' streams), unless e is a
// karma re-roll of it (no new action or reaction); else nil.
func tackleOf(e events.Event, p events.Payload) *events.ContestTackle {
	c, ok := p.(*events.ContestResolved)
	if !ok || c.Tackle == nil || c.Rerolls != "" || c.Sides[0].CharacterID != c.Tackle.TacklerID {
		return nil
	}
	if e.Stream != events.CharacterStream(c.Tackle.TacklerID) && e.Stream != events.FoeStream(c.Tackle.TacklerID) {
		return nil
	}
	return c.Tackle
}

// Apply folds one event in effect; events that do not bear on the turns
// are ignored.
func (t *Turns) Apply(e events.Event, p events.Payload) {
	switch p := p.(type) {
	case *events.EncounterStarted:
		*t = Turns{Encounter: p.Number}
		return
	case *events.EncounterEnded:
		*t = Turns{}
		return
	case *events.InitiativeSurprise:
		if a := p.Alertness; a != nil {
			t.alert = &alert{rollID: a.RollID, side: p.Side}
			if a.Negated {
				return
			}
		}
		t.surprise(p.Side)
		return
	case *events.RollMade:
		// Only an encounter's checks can bear on its turns (its start
		// forgets those before), and the ID is a copy: the event's
		// strings may share one buffer with its whole row.
		if t.Encounter != 0 {
			if t.checks == nil {
				t.checks = map[string]bool{}
			}
			t.checks[strings.Clone(e.ID)] = p.Outcome == "pass"
		}
		if a := t.alert; a != nil && p.Rerolls != "" && p.Rerolls == a.rollID {
			// A karma re-roll of the Alertness check decides again, while
			// no initiative has been rolled in its place.
			a.rollID = e.ID
			switch {
			case p.Outcome == "pass" && t.Surprise != "":
				*t = Turns{Encounter: t.Encounter, alert: a, checks: t.checks, contests: t.contests, Actions: t.freeActions(), Free: t.Free, stalkers: t.stalkers, begun: t.begun}
			case p.Outcome != "pass" && !t.Active:
				t.surprise(a.side)
			}
		}
		t.restalk(p.Rerolls, e.ID, p.Outcome == "pass")
		return
	case *events.InitiativeStalker:
		st := &stalker{id: p.ID, name: p.Name, ids: map[string]bool{}}
		if p.RollID != "" {
			st.ids[p.RollID] = true
		}
		for _, id := range p.ContestIDs {
			st.ids[id] = true
		}
		t.stalkers = append(t.stalkers, st)
		if p.Free && !t.begun {
			t.free(p.ID, p.Name)
		}
		return
	case *events.InitiativeRolled:
		if t.Active && t.Surprise != "" {
			return
		}
		contests, checks := t.contests, t.checks
		t.start("", p.First, 1)
		t.contests, t.checks = contests, checks
		t.initiative = e.ID
		if n := len(p.Party); n > 0 && len(p.Foes) == n {
			t.lastParty, t.lastFoe = p.Party[n-1], p.Foes[n-1]
		}
		if st := p.Tactician; st != nil {
			t.steal = &steal{ids: map[string]bool{}, side: st.Side, dieFirst: p.First}
			if st.Stolen {
				t.steal.dieFirst = OtherSide(st.Side)
			}
			for _, id := range st.ContestIDs {
				t.steal.ids[id] = true
			}
		}
		return
	case *events.ContestResolved:
		if t.contests == nil {
			t.contests = map[string]int{}
		}
		t.contests[e.ID] = p.Winner
		if st := t.steal; st != nil && p.Rerolls != "" && st.ids[p.Rerolls] {
			// A karma re-roll of the Tactician's contest decides again.
			delete(st.ids, p.Rerolls)
			st.ids[e.ID] = true
			t.First = st.dieFirst
			if p.Winner == 0 {
				t.First = st.side
			}
		}
		t.restalk(p.Rerolls, e.ID, p.Winner == 0)
		if p.Tackle == nil {
			return
		}
		// A tackle is an action, or a reaction: on to them.
	case *events.TurnEnded:
		if t.Active {
			t.pass(t.Turn + 1)
			t.lapse()
		}
		return
	case *events.TurnOverruled:
		if t.overruled == nil {
			t.overruled = map[string]int{}
		}
		t.overruled[p.ID] = p.Turn
		return
	}
	id, name, acted := action(e, p)
	if acted && t.Free[id] != "" && !t.begun {
		// A Stalker's free action, before the first turn: no turn passes.
		t.Actions = append(t.Actions, TurnAction{Seq: e.Seq, ID: id, Name: name, Side: SideOfStream(e.Stream), Turn: t.Turn, Round: t.Round(), Free: true})
		delete(t.Free, id)
		for _, st := range t.stalkers {
			if st.id == id {
				st.used = true
			}
		}
		acted = false
	} else if acted {
		t.lapse()
	}
	if !t.Active {
		return
	}
	if acted {
		side := SideOfStream(e.Stream)
		if turn := t.TurnFor(side); turn != t.Turn {
			t.pass(turn)
		}
		a := TurnAction{Seq: e.Seq, ID: id, Name: name, Side: side, Turn: t.Turn, Round: t.Round()}
		t.Actions = append(t.Actions, a)
		if t.LosesAt(id, t.Turn) {
			if o, ok := t.overruled[id]; !ok || o != t.Turn {
				t.Broken = append(t.Broken, a)
			}
		}
		t.Acted[id] = e.Seq
	}
	if id, side, ok := t.reaction(e, p); ok {
		// He loses his side's next turn.
		next := t.Turn + 1
		for t.SideAt(next) != side {
			next++
		}
		t.Loses[id] = next
	}
}

// free gives Stalker id his free action.
func (t *Turns) free(id, name string) {
	if t.Free == nil {
		t.Free = map[string]string{}
	}
	t.Free[id] = name
}

// lapse ends the time of the Stalkers' free actions: the battle's first
// action (or the first turn's end) was taken.
func (t *Turns) lapse() {
	t.begun = true
	t.Free = nil
}

// restalk follows a karma re-roll (id, re-rolling orig) of a Stalker's
// roll or contest: it decides his free action again, while the battle
// has not begun and he has not taken it.
func (t *Turns) restalk(orig, id string, won bool) {
	if orig == "" {
		return
	}
	for _, st := range t.stalkers {
		if !st.ids[orig] {
			continue
		}
		delete(st.ids, orig)
		st.ids[id] = true
		if t.begun || st.used {
			return
		}
		if won {
			t.free(st.id, st.name)
		} else {
			delete(t.Free, st.id)
		}
		return
	}
}

// surprise starts the turns with side's free turn, keeping what follows
// the Alertness check.
func (t *Turns) surprise(side string) {
	a, checks := t.alert, t.checks
	t.start(side, side, 0)
	t.alert, t.checks = a, checks
}

func (t *Turns) start(surprise, first string, turn int) {
	*t = Turns{Encounter: t.Encounter, Active: true, Surprise: surprise, First: first, Turn: turn,
		Acted: map[string]int64{}, Loses: map[string]int{},
		Actions: t.freeActions(), Free: t.Free, stalkers: t.stalkers, begun: t.begun}
}

// freeActions returns the Stalkers' free actions taken so far: they stay
// when the turns start again (initiative after them, or re-rolled).
func (t *Turns) freeActions() []TurnAction {
	var out []TurnAction
	for _, a := range t.Actions {
		if a.Free {
			out = append(out, a)
		}
	}
	return out
}

func (t *Turns) pass(turn int) {
	t.Turn = turn
	t.Acted = map[string]int64{}
}

// TurnText says whose turn it is for people: "round 2, the foes' turn".
func (t *Turns) TurnText() string {
	text := fmt.Sprintf("round %d, the %s turn", t.Round(), SidePossessive(t.Side()))
	switch {
	case !t.Active:
		text = "no initiative rolled"
	case t.Turn == 0:
		text = fmt.Sprintf("surprise: the %s free turn", SidePossessive(t.Side()))
	}
	return text + t.FreeText()
}

// FreeText says which Stalkers have a free action still to take, for
// TurnText: "; Kira has surprise: one free action before the first turn".
func (t *Turns) FreeText() string {
	if len(t.Free) == 0 {
		return ""
	}
	var names []string
	for _, st := range t.stalkers {
		if n, ok := t.Free[st.id]; ok {
			names = append(names, n)
		}
	}
	verb := "has"
	if len(names) > 1 {
		verb = "have"
	}
	return fmt.Sprintf("; %s %s surprise: one free action before the first turn", strings.Join(names, " and "), verb)
}

func sideWord(side string) string {
	if side == events.SideParty {
		return "party"
	}
	return "foes"
}

// SidePossessive is "party's" or "foes'", for "the party's turn".
func SidePossessive(side string) string {
	if side == events.SideParty {
		return "party's"
	}
	return "foes'"
}

// InitiativeProblem checks an initiative's dice: one die of each side per
// roll, every pair but the last a tie, and the higher die of the last
// moving first. It returns "" when they agree.
func InitiativeProblem(p *events.InitiativeRolled) string {
	n := len(p.Party)
	if n == 0 || len(p.Foes) != n {
		return fmt.Sprintf("initiative dice %v against %v: one die of each side per roll", p.Party, p.Foes)
	}
	for i := range n {
		if p.Party[i] < 1 || p.Party[i] > 6 || p.Foes[i] < 1 || p.Foes[i] > 6 {
			return fmt.Sprintf("initiative dice %v against %v: faces are 1 to 6", p.Party, p.Foes)
		}
		if i < n-1 && p.Party[i] != p.Foes[i] {
			return fmt.Sprintf("initiative rolled again after %d against %d, which is no tie", p.Party[i], p.Foes[i])
		}
	}
	want := events.SideParty
	switch {
	case p.Party[n-1] == p.Foes[n-1]:
		return fmt.Sprintf("initiative ends on a tie (%d against %d)", p.Party[n-1], p.Foes[n-1])
	case p.Foes[n-1] > p.Party[n-1]:
		want = events.SideFoes
	}
	if st := p.Tactician; st != nil {
		if st.Side != OtherSide(want) {
			return fmt.Sprintf("%s tried to steal the initiative his side (the %s) had won", st.Name, st.Side)
		}
		if st.Stolen {
			want = st.Side
		}
	}
	if p.First != want {
		return fmt.Sprintf("initiative %d against %d gives the first turn to the %s, not the %s", p.Party[n-1], p.Foes[n-1], want, p.First)
	}
	return ""
}

// turnEvent checks an event of the turns stream against the replay so far:
// it belongs to the encounter under way, an initiative's dice agree with
// its result, and an overruled turn was lost.
func (w *World) turnEvent(e events.Event, p events.Payload) string {
	if e.Stream != events.TurnsStream {
		return fmt.Sprintf("%s on stream %q, not %q", e.Type, e.Stream, events.TurnsStream)
	}
	var number int
	switch p := p.(type) {
	case *events.InitiativeRolled:
		if problem := InitiativeProblem(p); problem != "" {
			return problem
		}
		if p.Rerolls != "" || p.Karma != nil {
			if problem := w.initiativeReroll(e, p); problem != "" {
				return problem
			}
		}
		w.addRoll(e, nil)
		if st := p.Tactician; st != nil {
			for _, id := range st.ContestIDs {
				if w, ok := w.Turns.contests[id]; !ok || (w == 0) != st.Stolen {
					return fmt.Sprintf("%s's contest for the initiative (%s) is not in this encounter, or its winner is not the one recorded", st.Name, id)
				}
			}
		}
		number = p.Encounter
	case *events.InitiativeSurprise:
		if p.Side != events.SideParty && p.Side != events.SideFoes {
			return fmt.Sprintf("surprise for %q, not the party or the foes", p.Side)
		}
		if a := p.Alertness; a != nil {
			if passed, ok := w.Turns.checks[a.RollID]; !ok || passed != a.Negated {
				return fmt.Sprintf("%s's Alertness check (%s) is not in this encounter, or its outcome is not the one recorded", a.Name, a.RollID)
			}
		}
		number = p.Encounter
	case *events.InitiativeStalker:
		if problem := w.stalkerProblem(p); problem != "" {
			return problem
		}
		number = p.Encounter
	case *events.TurnEnded:
		if !w.Turns.Active || p.Turn != w.Turns.Turn {
			return fmt.Sprintf("turn %d ended, but it was not under way", p.Turn)
		}
		number = p.Encounter
	case *events.TurnOverruled:
		if !w.Turns.Active || !w.Turns.LosesAt(p.ID, p.Turn) {
			return fmt.Sprintf("%s's turn %d overruled, but he had not lost it", p.Name, p.Turn)
		}
		number = p.Encounter
	}
	if !w.Campaign.InEncounter || number != w.Campaign.Encounter {
		return fmt.Sprintf("%s for encounter %d, which is not under way", e.Type, number)
	}
	return ""
}

// initiativeReroll checks a karma re-roll of one side's initiative die:
// it replaces the initiative in effect, before any action or turn passed,
// keeps the other side's die, and the payer is of the side re-rolled and
// spent his karma (or wish) on it in the same command.
func (w *World) initiativeReroll(e events.Event, p *events.InitiativeRolled) string {
	k := p.Karma
	switch {
	case p.Rerolls == "" || k == nil:
		return "an initiative re-roll names both the initiative it replaces and who paid for it"
	case p.Rerolls != w.Turns.initiative:
		return fmt.Sprintf("initiative re-roll of %s, which is not the initiative in effect", p.Rerolls)
	case !w.Turns.InitiativeOpen():
		return fmt.Sprintf("initiative %s re-rolled after the battle went on", p.Rerolls)
	case p.Tactician != nil:
		return "an initiative re-roll with a Tactician's contest: the contest was decided against the first die"
	case k.Side != events.SideParty && k.Side != events.SideFoes:
		return fmt.Sprintf("%s re-rolled the initiative die of %q, not the party or the foes", k.Name, k.Side)
	}
	other := OtherSide(k.Side)
	kept := p.Foes
	if other == events.SideParty {
		kept = p.Party
	}
	if len(kept) == 0 || kept[0] != w.Turns.LastDie(other) {
		return fmt.Sprintf("%s's karma re-rolled the %s die, but the %s die changed too", k.Name, SidePossessive(k.Side), SidePossessive(other))
	}
	if paid, ok := w.paid[p.Rerolls]; !ok || paid.Stream != events.CharacterStreamPrefix+k.ID {
		return fmt.Sprintf("initiative re-roll of %s with no karma or wish of %s spent on it", p.Rerolls, k.Name)
	}
	if _, problem := w.reroll(e, p.Rerolls, true); problem != "" {
		return problem
	}
	return ""
}

// stalkerProblem checks a Stalker's try against the replay so far: his
// edition's roll (2020/2021 a roll.made, 2010 a contest.resolved on each
// side) is in this encounter with the outcome recorded.
func (w *World) stalkerProblem(p *events.InitiativeStalker) string {
	if p.Side != events.SideParty && p.Side != events.SideFoes {
		return fmt.Sprintf("%s stalks for %q, not the party or the foes", p.Name, p.Side)
	}
	if p.Edition == "2010" {
		if p.RollID != "" || len(p.ContestIDs) != 2 || p.Against == "" {
			return fmt.Sprintf("%s's Stalker try in 2010 is a contest of DX against the opponent's IQ, not a roll", p.Name)
		}
		for _, id := range p.ContestIDs {
			if won, ok := w.Turns.contests[id]; !ok || (won == 0) != p.Free {
				return fmt.Sprintf("%s's Stalker contest (%s) is not in this encounter, or its winner is not the one recorded", p.Name, id)
			}
		}
		return ""
	}
	if p.RollID == "" || len(p.ContestIDs) != 0 {
		return fmt.Sprintf("%s's Stalker try in %s is a 3/DX roll, not a contest", p.Name, p.Edition)
	}
	if passed, ok := w.Turns.checks[p.RollID]; !ok || passed != p.Free {
		return fmt.Sprintf("%s's Stalker roll (%s) is not in this encounter, or its outcome is not the one recorded", p.Name, p.RollID)
	}
	return ""
}

// foldTurns folds e into the encounter's turns and reports an action
// taken in a lost turn that no turn.overruled allowed.
func (w *World) foldTurns(e events.Event, p events.Payload, decodeErr error) string {
	if decodeErr != nil {
		return ""
	}
	broken := len(w.Turns.Broken)
	w.Turns.Apply(e, p)
	if len(w.Turns.Broken) > broken {
		a := w.Turns.Broken[broken]
		return fmt.Sprintf("%s acted in turn %d (round %d), which he had lost by reacting, and no turn.overruled allowed it", a.Name, a.Turn, a.Round)
	}
	return ""
}

// describeTurns summarises the turn events for the log.
func describeTurns(p events.Payload) string {
	switch p := p.(type) {
	case *events.InitiativeRolled:
		var rolls []string
		for i := range p.Party {
			rolls = append(rolls, fmt.Sprintf("%d-%d", p.Party[i], p.Foes[i]))
		}
		steal := ""
		if st := p.Tactician; st != nil {
			steal = fmt.Sprintf("; %s (Tactician) failed to steal it from %s", st.Name, st.Against)
			if st.Stolen {
				steal = fmt.Sprintf("; %s (Tactician) stole it from %s", st.Name, st.Against)
			}
		}
		if k := p.Karma; k != nil {
			steal += fmt.Sprintf(" (%s re-rolled the %s die with karma)", k.Name, SidePossessive(k.Side))
		}
		return fmt.Sprintf("initiative party-foes %s: the %s move first%s", strings.Join(rolls, ", then "), sideWord(p.First), steal)
	case *events.InitiativeSurprise:
		if a := p.Alertness; a != nil && a.Negated {
			return fmt.Sprintf("surprise for the %s negated by %s's Alertness", sideWord(p.Side), a.Name)
		}
		return fmt.Sprintf("surprise: the %s take a free turn, then the first", sideWord(p.Side))
	case *events.InitiativeStalker:
		won := "fails to get surprise"
		if p.Free {
			won = "gets surprise: one free action before the first turn"
		}
		if p.Against != "" {
			return fmt.Sprintf("%s (Stalker, against %s) %s", p.Name, p.Against, won)
		}
		return fmt.Sprintf("%s (Stalker) %s", p.Name, won)
	case *events.TurnEnded:
		if p.Turn == 0 {
			return fmt.Sprintf("the %s free turn ended", SidePossessive(p.Side))
		}
		return fmt.Sprintf("round %d: the %s turn ended", p.Round, SidePossessive(p.Side))
	case *events.TurnOverruled:
		return fmt.Sprintf("%s acts in round %d, a turn he lost, overruled: %s", p.Name, p.Round, p.Reason)
	}
	return ""
}
