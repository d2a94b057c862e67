package campaign

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// WhatIfQuery asks for a replay of the campaign under another edition.
type WhatIfQuery struct {
	// Edition is the edition to replay under: "2010", "2020" or "2021".
	Edition string
	// AsOf replays the log up to a point (see ResolveAsOf); "" is all.
	AsOf string
}

// WhatIf replays the campaign's commands under another edition's rules,
// in memory, writing nothing, with the same dice faces: every decision
// the rules make from a character's standing (a check's target and
// outcome, a damage roll, an XP price) is made again under that edition
// from his would-be sheet; everything else is carried as recorded, and
// the replay checks it under that edition as verify does. A command the
// replay cannot replay as recorded (a spend he could not afford, a check
// the edition makes without dice, an event its rules would not produce)
// stops that character's line there: his later commands are listed, not
// guessed.
//
// The log is read once, in seq order, as verify reads it; the replay
// keeps the world's state, not the log.
func (s *Service) WhatIf(q WhatIfQuery) (projections.WhatIfReport, error) {
	var rep projections.WhatIfReport
	under, err := rules.ParseEdition(q.Edition)
	if err != nil {
		return rep, err
	}
	v, err := s.view(q.AsOf)
	if err != nil {
		return rep, err
	}
	upTo := v.upTo
	if upTo == 0 {
		if upTo, _, err = s.store.Head(); err != nil {
			return rep, err
		}
	}
	camp, err := v.campaign()
	if err != nil {
		return rep, err
	}
	r := &replay{s: s, under: under, own: camp.Edition, standings: map[string]standing{}, stopped: map[string]int64{}, reported: map[string]bool{},
		skipped: map[string]int{}, rested: map[string]int{}, dealtBy: map[string]dealt{}}
	r.world = projections.NewWorld(projections.WorldOptions{Lookup: r.lookup, TrimLedgers: true, NoLedgers: true})
	for e, err := range s.store.Iter(events.Query{UpToSeq: upTo}) {
		if err != nil {
			return rep, err
		}
		if e.Stream == events.CommandsStream || !v.rv.InEffect(e) {
			continue
		}
		if err := r.step(e); err != nil {
			return rep, err
		}
	}
	r.finish()
	rep = projections.WhatIfReport{Campaign: camp.Name, Edition: string(camp.Edition), Under: string(under), Seq: upTo,
		Characters: []projections.WhatIfCharacter{}, Commands: r.commands, Carried: carriedAsRecorded(camp.Edition, under)}
	if rep.Commands == nil {
		rep.Commands = []projections.WhatIfCommand{}
	}
	roster, err := v.roster()
	if err != nil {
		return rep, err
	}
	for _, m := range slices.Concat(roster.Members, roster.Foes) {
		c, _, err := s.loadCharacter(m, &v.rv, v.upTo)
		if err != nil {
			return rep, err
		}
		would, ok := r.world.Sheets[m.ID]
		if !ok {
			continue
		}
		wc := projections.WhatIfCharacter{Character: c.sheet.Name, CharacterID: m.ID, Foe: c.sheet.Foe,
			Differences: projections.SheetDifferences(&c.sheet, would), StoppedAt: r.stopped[m.ID], NotReplayed: r.skipped[m.ID]}
		rep.Characters = append(rep.Characters, wc)
	}
	return rep, nil
}

// skipEvent is rewrite's word for an event the edition would not have
// made at all, and which the replay leaves out.
const skipEvent = "\x00skip"

// carriedAsRecorded says what a replay under another edition carries
// as the log holds it.
func carriedAsRecorded(own, under rules.Edition) []string {
	if own == under {
		return []string{}
	}
	return []string{
		"decided again under " + string(under) + ": checks, damage rolls, simple attacks (a hit roll and its damage), contests, XP prices, armour and weapons, what rest heals, dogfight maneuvers, and whether each shot could be fired",
		"attacks with a dodge, a grapple, a throw or a re-roll, tackles, initiative, medics' healing, karma, wishes and curses: carried with their dice and numbers as recorded, each checked under the other edition's rules; one those rules would not produce stops the character's line",
		"star craft hits and repairs, and INTERCEPTOR records: carried as recorded; their rules are the same in every edition",
	}
}

// replay is one replay of a log under an edition.
type replay struct {
	s     *Service
	under rules.Edition
	own   rules.Edition
	world *projections.World
	// standings are the standings, by roll event ID, of the rolls whose
	// would-be standing differs from the one recorded: a re-roll keeps
	// the standing of the roll it replaces, and the world reads a roll
	// back (lookup) as the replay made it.
	standings map[string]standing
	// stopped maps a character whose line stopped to the seq where.
	stopped map[string]int64
	// commands are the commands reported, and reported those named
	// already (a command is reported once, at its first divergence).
	commands []projections.WhatIfCommand
	reported map[string]bool
	// violations is how many violations of the world were accounted for.
	violations int
	last       events.Event
	lastWho    string
	// skipped counts each stopped character's commands not replayed;
	// the first few are listed (maxSkippedListed).
	skipped map[string]int
	// rested is what this command's rest healed, by character, as the
	// replay decided it: the heal that follows a rest in its command
	// heals that many.
	command string
	rested  map[string]int
	// dealtBy is what each attack of this command decided again dealt,
	// by the attack's event ID.
	dealtBy map[string]dealt
}

// maxSkippedListed is how many of a stopped character's later commands
// a report lists; the rest are counted (WhatIfCharacter.NotReplayed).
const maxSkippedListed = 10

// standing is what a roll's rules decision takes from the roller's sheet.
type standing struct {
	attribute, skill, restriction, curses int
}

// whose returns the ID of the party member or foe whose stream e is on,
// "" for the campaign's other streams.
func whose(stream string) string {
	for _, prefix := range []string{events.CharacterStreamPrefix, events.FoeStreamPrefix} {
		if id, ok := strings.CutPrefix(stream, prefix); ok {
			return id
		}
	}
	return ""
}

// step replays one event in effect.
func (r *replay) step(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return fmt.Errorf("seq %d: %w", e.Seq, err)
	}
	who := whose(e.Stream)
	if e.Stream == events.DogfightStream {
		who = dogfightLine
		if e.Type == events.TypeDogfightStarted {
			delete(r.stopped, who) // a new dogfight starts afresh
		}
	}
	name := r.nameOf(who)
	if e.CommandID != r.command {
		r.command = e.CommandID
		clear(r.rested)
		clear(r.dealtBy)
	}
	if at, ok := r.stopped[who]; ok && at != e.Seq && e.Type != events.TypeDogfightEnded {
		key := e.CommandID + "\x00" + name
		if !r.reported[key] {
			r.skipped[who]++
			if r.skipped[who] <= maxSkippedListed {
				r.report(e, name, projections.WhatIfSkipped, fmt.Sprintf("%s's line stopped at seq %d", name, at))
			}
			r.reported[key] = true
		}
		return nil
	}
	r.account()
	e2, diverges, stop := r.rewrite(e, p, who)
	if stop == skipEvent {
		return nil // not made under the edition: a heal its rest did not give
	}
	if stop != "" {
		r.stopped[who] = e.Seq
		r.report(e, name, projections.WhatIfStops, stop)
		return nil
	}
	var before *projections.Sheet
	if sh := r.world.Sheets[who]; sh != nil {
		before = sh.Clone()
	}
	r.world.Step(e2, false)
	r.last, r.lastWho = e, who
	if r.account() && before != nil {
		// The edition's rules refuse the event: his line stops before it.
		*r.world.Sheets[who] = *before
		return nil
	}
	if diverges != "" {
		r.report(e, name, projections.WhatIfDiverges, diverges)
	}
	return r.dealUntold(e, p)
}

// dealUntold deals the points of an attack decided again that now hits
// where, as recorded, it dealt nothing: its command has no damage.taken
// to carry them, so the replay makes one, as the attack would have.
func (r *replay) dealUntold(e events.Event, p events.Payload) error {
	am, ok := p.(*events.AttackMade)
	if !ok || am.Taken > 0 {
		return nil
	}
	d, ok := r.dealtBy[e.ID]
	t := r.world.Sheets[am.TargetID]
	if !ok || d.taken == 0 || t == nil {
		return nil
	}
	stream := events.CharacterStream(t.ID)
	if t.Foe {
		stream = events.FoeStreamPrefix + t.ID
	}
	dt := redealt(t, d, events.DamageTaken{Source: fmt.Sprintf("%s's %s", am.Attacker, am.WeaponName), AttackID: e.ID})
	dt.At = am.At
	pending, err := events.Encode(e.ID, stream, dt, nil)
	if err != nil {
		return err
	}
	r.world.Step(events.Event{Seq: e.Seq, ID: e.ID, CommandID: e.CommandID, Stream: stream, Type: pending.Type,
		PayloadVersion: pending.PayloadVersion, Payload: pending.Payload, Actor: e.Actor, RecordedAt: e.RecordedAt}, false)
	r.account()
	return nil
}

// finish ends the replay: the last command's checks are made.
func (r *replay) finish() {
	r.world.Finish()
	r.account()
}

// account reports the world's new violations: an event the edition's
// rules would not produce as recorded. It stops its character's line;
// an event of no character's is carried, and reported.
func (r *replay) account() (stopped bool) {
	for ; r.violations < len(r.world.Violations); r.violations++ {
		v := r.world.Violations[r.violations]
		e := events.Event{Seq: v.Seq, ID: v.EventID, CommandID: v.CommandID, Type: v.Type}
		who := ""
		if r.last.ID == v.EventID {
			e, who = r.last, r.lastWho
		}
		what := fmt.Sprintf("the %s rules would not produce it as recorded: %s", r.under, v.Problem)
		if who == "" {
			r.report(e, "", projections.WhatIfDiverges, what+" (carried as recorded)")
			continue
		}
		if _, ok := r.stopped[who]; !ok {
			r.stopped[who] = e.Seq
		}
		r.report(e, r.nameOf(who), projections.WhatIfStops, what)
		stopped = stopped || v.EventID == r.last.ID
	}
	return stopped
}

// report lists a command, once, at its first divergence.
func (r *replay) report(e events.Event, name, kind, what string) {
	key := e.CommandID + "\x00" + name
	if r.reported[key] {
		return
	}
	r.reported[key] = true
	r.commands = append(r.commands, projections.WhatIfCommand{Seq: e.Seq, CommandID: e.CommandID, Type: e.Type, Character: name, Kind: kind, What: what})
}

// nameOf names the character of an ID, from the would-be world, or the
// dogfight.
func (r *replay) nameOf(id string) string {
	if id == dogfightLine {
		return "the dogfight"
	}
	if sh, ok := r.world.Sheets[id]; ok {
		return sh.Name
	}
	return ""
}

// lookup reads an event back by seq (a re-roll reads the roll it
// replaces) as the replay made it.
func (r *replay) lookup(seq int64) (events.Event, error) {
	e, err := r.s.eventAt(seq)
	if err != nil {
		return e, err
	}
	p, err := events.Decode(e)
	if err != nil {
		return e, err
	}
	if rm, ok := p.(*events.RollMade); ok {
		st, ok := r.standings[e.ID]
		if !ok {
			st = recordedStanding(rm)
		}
		n, _ := redecideRoll(r.under, rm, st)
		return encodeAs(e, rm, &n)
	}
	if setEdition(p, r.under) {
		return encodeAs(e, nil, p)
	}
	return e, nil
}

// rewrite makes e as the other edition would have made it: the payload
// decided again, or carried with the edition's name. It returns the
// first divergence it made, or why the event cannot be replayed.
func (r *replay) rewrite(e events.Event, p events.Payload, who string) (e2 events.Event, diverges, stop string) {
	sheet := r.world.Sheets[who]
	switch p := p.(type) {
	case *events.CharacterCreated:
		n, stop := r.recreate(p)
		return decided(e, p, &n, "", stop)
	case *events.RollMade:
		st := recordedStanding(p)
		if p.Rerolls != "" {
			if kept, ok := r.standings[p.Rerolls]; ok {
				st = kept
			}
		} else if sheet != nil && p.Kind != "dice" {
			if !sheet.Alive() {
				return e, "", fmt.Sprintf("%s would be dead and roll nothing", sheet.Name)
			}
			st = standingOf(sheet, p)
		}
		if st != recordedStanding(p) {
			r.standings[e.ID] = st
		}
		n, stop := redecideRoll(r.under, p, st)
		return decided(e, p, &n, rollDivergence(r.own, r.under, p, &n), stop)
	case *events.RestTaken:
		if sheet == nil {
			break
		}
		n, what := r.rest(sheet, p)
		r.rested[who] = n.Healed
		return decided(e, p, &n, what, "")
	case *events.DamageHealed, *events.CharacterRecovered:
		healed, ok := r.rested[who]
		if !ok {
			break
		}
		// The heal a rest gave, in its command: as much as the rest
		// heals under the edition, or nothing.
		delete(r.rested, who)
		if healed == 0 {
			return e, "", skipEvent
		}
		switch p := p.(type) {
		case *events.DamageHealed:
			n := *p
			n.Points = healed
			return decided(e, p, &n, "", "")
		case *events.CharacterRecovered:
			n := *p
			n.Damage = healed
			return decided(e, p, &n, "", "")
		}
	case *events.ItemEquipped:
		n, stop := r.reequip(p)
		what := ""
		if n.Protection != p.Protection || n.Restriction != p.Restriction || n.Damage != p.Damage {
			what = fmt.Sprintf("%s: %s under %s; %s under %s", p.Name, itemStats(p), r.own, itemStats(&n), r.under)
		}
		return decided(e, p, &n, what, stop)
	case *events.AttackMade:
		if sheet == nil || !simpleAttack(p) {
			break
		}
		n, what, stop := r.redecideAttack(sheet, p)
		if stop == "" {
			r.dealtBy[e.ID] = dealt{target: p.TargetID, taken: n.Taken, stopped: n.ArmorStopped, fatigue: n.Fatigue}
		}
		return decided(e, p, &n, what, stop)
	case *events.DamageTaken:
		d, ok := r.dealtBy[p.AttackID]
		if !ok || p.AttackID == "" || sheet == nil {
			break
		}
		if d.taken == 0 {
			return e, "", skipEvent // the attack would deal nothing
		}
		n := redealt(sheet, d, *p)
		return decided(e, p, &n, "", "")
	case *events.ContestResolved:
		if p.Rerolls != "" || p.Tackle != nil {
			break
		}
		n, what, stop := r.redecideContest(p)
		return decided(e, p, &n, what, stop)
	case *events.DogfightManeuvered:
		if p.Rerolls != "" {
			break
		}
		n, what, stop := r.redecideManeuver(p)
		return decided(e, p, &n, what, stop)
	case *events.DogfightFired:
		if stop := r.fireAllowed(p); stop != "" {
			return e, "", stop
		}
	case *events.XPSpent:
		if sheet == nil {
			break
		}
		n, stop := r.reprice(sheet, p)
		what := ""
		if n.From != p.From || n.Price != p.Price {
			what = fmt.Sprintf("%s %d→%d for %d XP under %s; %d→%d for %d XP under %s", spendWhat(p), p.From, p.To, p.Price, r.own, n.From, n.To, n.Price, r.under)
		}
		return decided(e, p, &n, what, stop)
	}
	if setEdition(p, r.under) {
		return decided(e, nil, p, "", "")
	}
	return e, "", ""
}

// decided is what rewrite returns for a payload decided again: e with n
// in place of its payload orig (e itself when n is what orig was), the
// divergence, or why it cannot be replayed (stop).
func decided(e events.Event, orig, n any, what, stop string) (events.Event, string, string) {
	if stop != "" {
		return e, "", stop
	}
	e2, err := encodeAs(e, orig, n)
	if err != nil {
		return e, "", err.Error()
	}
	return e2, what, ""
}

// recreate names a character's skills as the edition names them, or says
// which one it does not have.
func (r *replay) recreate(p *events.CharacterCreated) (events.CharacterCreated, string) {
	n := *p
	n.Edition = string(r.under)
	n.Skills = slices.Clone(p.Skills)
	for i, sl := range n.Skills {
		sk, err := rules.LookupSkill(r.under, sl.Skill)
		if err != nil {
			return n, fmt.Sprintf("%s has %s, which edition %s does not have", p.Name, sl.Name, r.under)
		}
		n.Skills[i].Name = sk.NameIn(r.under)
	}
	return n, ""
}

// rest decides again what days of rest heal under the edition, from the
// would-be sheet, and names the change.
func (r *replay) rest(sheet *projections.Sheet, p *events.RestTaken) (events.RestTaken, string) {
	n := *p
	n.Edition = string(r.under)
	before := 0
	if g, ok := p.GameTimeOf(); ok && sheet.Rest.Adventure == g.Adventure && sheet.Rest.UntilDay == p.UntilDay-p.Days {
		before = sheet.Rest.Days
	}
	cond := rules.RestConditions{StayedPut: p.StayedPut, Sheltered: p.Sheltered, Provisioned: p.Provisioned, NoStrenuous: p.NoStrenuous}
	n.Healed, n.RestedDays, n.Note = rules.RestHealing(r.under, sheet.Body(), p.Days, before, cond)
	if n.Healed == p.Healed {
		return n, ""
	}
	return n, fmt.Sprintf("%s rests %d day(s): heals %d under %s, %d under %s", sheet.Name, p.Days, p.Healed, r.own, n.Healed, r.under)
}

// reequip takes an item's figures from the edition's tables: an armour's
// protection and restriction, a weapon's damage, heft and flags.
func (r *replay) reequip(p *events.ItemEquipped) (events.ItemEquipped, string) {
	if p.Slot == SlotArmor {
		a, err := rules.LookupArmor(r.under, p.Item)
		if err != nil {
			return *p, fmt.Sprintf("%s: edition %s has no such armour", p.Name, r.under)
		}
		n := *p
		n.Name, n.Protection, n.Restriction, n.NoBullets, n.SpaceSuit, n.Edition = a.Name, a.Protection, a.Restriction, a.NoBullets, a.SpaceSuit, string(r.under)
		return n, ""
	}
	w, err := rules.LookupWeapon(r.under, p.Item)
	if err != nil {
		return *p, fmt.Sprintf("%s: edition %s has no such weapon", p.Name, r.under)
	}
	n := weaponEquipped(r.under, w)
	n.Stamp = p.Stamp
	if n.Flags == nil && p.Flags != nil {
		n.Flags = []string{}
	}
	return n, ""
}

// itemStats writes an item's figures: "protection 2, restriction 1",
// "d6+1".
func itemStats(p *events.ItemEquipped) string {
	if p.Slot == SlotArmor {
		return fmt.Sprintf("protection %d, restriction %d", p.Protection, p.Restriction)
	}
	return p.Damage
}

// reprice prices an XP spend again under the edition, from the would-be
// sheet: the level he would have then, raised by one.
func (r *replay) reprice(sheet *projections.Sheet, p *events.XPSpent) (events.XPSpent, string) {
	n := *p
	n.Edition = string(r.under)
	var price rules.Price
	switch p.On {
	case "attribute":
		at, err := rules.ParseAttribute(p.Attribute)
		if err != nil {
			return n, err.Error()
		}
		n.From = sheet.Attributes.Get(at)
		if err := rules.CheckAttributeRaise(r.under, sheet.Name, sheet.Attributes, at); err != nil {
			return n, err.Error()
		}
		price = rules.AttributePrice(r.under, n.From)
	case "skill":
		sk, err := rules.LookupSkill(r.under, p.Skill)
		if err != nil {
			return n, fmt.Sprintf("%s: edition %s has no such skill", p.SkillName, r.under)
		}
		n.SkillName = sk.NameIn(r.under)
		n.From = sheet.SkillLevel(sk.Key)
		if err := rules.CheckSkillPurchase(r.under, sheet.Name, sk, n.From, r.world.Campaign.BetweenAdventures()); err != nil {
			return n, err.Error()
		}
		price = rules.SkillPrice(r.under, n.From)
	default:
		return n, fmt.Sprintf("xp.spent on %q", p.On)
	}
	n.To, n.Price, n.Formula = n.From+1, price.XP, price.Formula
	if n.Price > sheet.XP.Unspent {
		return n, fmt.Sprintf("%s could not afford %s %d→%d: it costs %d XP under %s, and he would have %d unspent", sheet.Name, spendWhat(&n), n.From, n.To, n.Price, r.under, sheet.XP.Unspent)
	}
	return n, ""
}

// spendWhat names what a spend raised: "ST", "Medic".
func spendWhat(p *events.XPSpent) string {
	if p.On == "attribute" {
		return p.Attribute
	}
	return p.SkillName
}

// recordedStanding is the standing a roll recorded.
func recordedStanding(p *events.RollMade) standing {
	return standing{attribute: p.AttributeValue, skill: p.SkillLevel, restriction: p.Restriction, curses: p.Curses}
}

// standingOf is a roller's standing on his sheet, for the roll p, as a
// roll takes it (campaign's decision.roll).
func standingOf(sh *projections.Sheet, p *events.RollMade) standing {
	st := standing{restriction: sh.Restriction(), curses: sh.Curses}
	if p.Kind != "check" {
		st.restriction = p.Restriction
		return st
	}
	expr, err := rules.ParseExpr(p.Expr)
	if err != nil || expr.Check == nil {
		return recordedStanding(p)
	}
	st.attribute = sh.Attributes.Get(expr.Check.Attribute)
	if expr.Check.Skill != "" {
		if sk, err := rules.LookupSkill(sh.Edition, expr.Check.Skill); err == nil {
			st.skill = sh.SkillLevel(sk.Key)
		}
	}
	return st
}

// redecideRoll decides a roll again under ed, from a standing, with the
// dice it recorded, as campaign's decision.roll decides it. The problem
// is why it cannot: the edition rolls dice where the log has none.
func redecideRoll(ed rules.Edition, p *events.RollMade, st standing) (events.RollMade, string) {
	n := *p
	n.Edition = string(ed)
	n.AttributeValue, n.SkillLevel, n.Restriction, n.Curses = st.attribute, st.skill, st.restriction, st.curses
	expr, err := rules.ParseExpr(p.Expr)
	if err != nil {
		return n, err.Error()
	}
	switch {
	case expr.Check != nil && p.Kind == "check":
		in := rules.CheckInput{Edition: ed, Expr: *expr.Check, AttributeValue: st.attribute, Restriction: st.restriction, Curses: st.curses}
		if expr.Check.Skill != "" {
			sk, err := rules.LookupSkill(ed, expr.Check.Skill)
			if err != nil {
				return n, fmt.Sprintf("%s: edition %s has no such skill", expr.Check.Skill, ed)
			}
			in.SkillName, in.SkillLevel = sk.NameIn(ed), st.skill
			ce := *expr.Check
			ce.Skill = in.SkillName
			n.Expr = ce.String()
		} else {
			n.SkillLevel = 0
		}
		if len(p.Faces) == 0 && !(in.Expr.Mode == rules.CheckRequired && in.SkillLevel <= 0) {
			return n, fmt.Sprintf("%s: edition %s rolls dice for it, and the log has none", p.Expr, ed)
		}
		o, err := rules.ResolveCheck(in, rules.NewGivenFaces(p.Faces))
		if err != nil {
			return n, err.Error()
		}
		n.Faces, n.Sum, n.Total, n.Target, n.Margin, n.Probability = o.Faces, o.Sum, o.Total, o.Target, o.Margin, o.Probability
		n.Modifiers = modifiers(o.Modifiers)
		n.Outcome, n.Note = "fail", ""
		if o.Pass {
			n.Outcome = "pass"
		}
		if o.Lacking {
			n.Faces = []int{}
			n.Note = fmt.Sprintf("%s lacks %s: a check against a skill fails outright without it", p.Character, in.SkillName)
		}
		if o.AllSixes {
			n.Note = strings.TrimSpace(n.Note + " all sixes")
		}
	case expr.Dice != nil && p.Kind == "damage":
		o, err := rules.ResolveDamage(ed, *expr.Dice, st.curses, rules.NewGivenFaces(p.Faces))
		if err != nil {
			return n, err.Error()
		}
		n.Faces, n.Sum, n.Total, n.Note = o.Faces, o.Sum, o.Total, o.Note
		n.Modifiers = modifiers(o.Modifiers)
	}
	return n, ""
}

// rollDivergence names how a roll's outcome changed, or "".
func rollDivergence(own, under rules.Edition, p, n *events.RollMade) string {
	who := p.Character
	if who == "" {
		who = "a bare roll"
	}
	switch {
	case p.Kind == "check" && p.Outcome != n.Outcome:
		return fmt.Sprintf("%s's %s %v: %s (%d vs %d) under %s; would %s (%d vs %d) under %s", who, p.Expr, p.Faces, p.Outcome, p.Total, p.Target, own, n.Outcome, n.Total, n.Target, under)
	case p.Total != n.Total:
		return fmt.Sprintf("%s's %s %v: %d under %s; would be %d under %s", who, p.Expr, p.Faces, p.Total, own, n.Total, under)
	}
	return ""
}

// setEdition names the edition in a payload that records one (its
// Edition field); it reports whether that changed anything.
func setEdition(p events.Payload, ed rules.Edition) bool {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	f := v.Elem().FieldByName("Edition")
	if !f.IsValid() || f.Kind() != reflect.String || !f.CanSet() || f.String() == string(ed) {
		return false
	}
	f.SetString(string(ed))
	return true
}

// encodeAs returns e with payload n in place of its own, or e itself
// when n is what orig (its payload decoded) already was.
func encodeAs(e events.Event, orig, n any) (events.Event, error) {
	if orig != nil && reflect.DeepEqual(reflect.ValueOf(orig).Elem().Interface(), reflect.ValueOf(n).Elem().Interface()) {
		return e, nil
	}
	raw, err := json.Marshal(n)
	if err != nil {
		return e, fmt.Errorf("replay seq %d: %w", e.Seq, err)
	}
	e.Payload = raw
	return e, nil
}
