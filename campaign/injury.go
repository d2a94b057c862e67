package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Equipment slots.
const (
	SlotWeapon = "weapon"
	SlotArmor  = "armor"
)

// Equip puts a weapon or armour from the edition's tables on a character,
// or takes the slot's item off. Armour is worn in layers ("the cumulative
// rating of his armor"): each item is put on over what he wears, and taken
// off by name (all of it when none is named).
func (s *Service) Equip(name, slot, item string, off bool) (projections.Sheet, error) {
	if !off {
		return s.EquipMany(name, []EquipItem{{Slot: slot, Item: item}})
	}
	var who string
	_, err := s.execute(func(d *decision) error {
		slot, err := equipSlot(slot)
		if err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		c, err := d.combatant(name)
		if err != nil {
			return err
		}
		who = c.sheet.Name
		if slot == SlotArmor {
			return d.unequipArmor(camp.Edition, c, item)
		}
		if c.sheet.Weapon == nil {
			return rules.Errorf(rules.CodeRule, "%s has no weapon to take off", who)
		}
		return d.emit(c.stream, events.ItemUnequipped{Slot: slot, Item: c.sheet.Weapon.Item})
	})
	if err != nil {
		return projections.Sheet{}, err
	}
	return s.Sheet(who)
}

// equipSlot reads an equipment slot: weapon, or armor (armour).
func equipSlot(raw string) (string, error) {
	slot := strings.ToLower(strings.TrimSpace(raw))
	if slot == "armour" {
		slot = SlotArmor
	}
	if slot != SlotWeapon && slot != SlotArmor {
		return "", rules.Errorf(rules.CodeInvalid, "equip %q: the slot is weapon or armor", raw)
	}
	return slot, nil
}

// EquipItem is one item of an `equip` command: its slot (weapon or
// armor) and its name in the edition's tables.
type EquipItem struct {
	Slot, Item string
}

// EquipMany puts several items on one character as one command (one undo),
// in the order given: armour layered item over item, a weapon wielded. Two
// weapons in one command are refused (the second would replace the first).
func (s *Service) EquipMany(name string, items []EquipItem) (projections.Sheet, error) {
	var who string
	_, err := s.execute(func(d *decision) error {
		if len(items) == 0 {
			return rules.Errorf(rules.CodeInvalid, "equip: name an ITEM")
		}
		weapons := 0
		for i, it := range items {
			slot, err := equipSlot(it.Slot)
			if err != nil {
				return err
			}
			if slot == SlotWeapon {
				if weapons++; weapons > 1 {
					return rules.Errorf(rules.CodeInvalid, "equip: one weapon at a time (a new weapon replaces the one wielded); %q is the second", it.Item)
				}
			}
			items[i].Slot = slot
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		c, err := d.combatant(name)
		if err != nil {
			return err
		}
		who = c.sheet.Name
		for _, it := range items {
			if err := d.equip(camp.Edition, c, it.Slot, it.Item); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return projections.Sheet{}, err
	}
	return s.Sheet(who)
}

// equip decides putting an item of the edition's catalogue in a slot
// (weapon or armor) of a character, and folds it into his sheet.
func (d *decision) equip(ed rules.Edition, c *character, slot, item string) error {
	if strings.TrimSpace(item) == "" {
		return rules.Errorf(rules.CodeInvalid, "name the %s to equip (or pass --off)", slot)
	}
	if slot == SlotWeapon {
		w, err := rules.LookupWeapon(ed, item)
		if err != nil {
			return err
		}
		// "A weapon's heft is the minimum ST required to use the weapon."
		if err := rules.CheckHeft(ed, c.sheet.Name, c.sheet.Attributes.ST, w); err != nil {
			return err
		}
		return d.emitApplied(c.stream, weaponEquipped(ed, w), c.sheet.Apply)
	}
	a, err := rules.LookupArmor(ed, item)
	if err != nil {
		return err
	}
	for _, w := range c.sheet.ArmorItems {
		if w.Item == a.Key {
			return rules.Errorf(rules.CodeRule, "%s already wears a %s", c.sheet.Name, a.Name)
		}
	}
	// "Reduce the damage he suffers by the cumulative rating of his
	// armor": an item is worn over what he wears.
	return d.emitApplied(c.stream, events.ItemEquipped{Slot: SlotArmor, Item: a.Key, Name: a.Name, Protection: a.Protection, Restriction: a.Restriction, NoBullets: a.NoBullets, SpaceSuit: a.SpaceSuit,
		Over: len(c.sheet.ArmorItems) > 0, Edition: string(ed)}, c.sheet.Apply)
}

// unequipArmor takes off the armour item named, or everything he wears.
func (d *decision) unequipArmor(ed rules.Edition, c *character, item string) error {
	if len(c.sheet.ArmorItems) == 0 {
		return rules.Errorf(rules.CodeRule, "%s wears no armour to take off", c.sheet.Name)
	}
	if strings.TrimSpace(item) == "" {
		return d.emit(c.stream, events.ItemUnequipped{Slot: SlotArmor})
	}
	a, err := rules.LookupArmor(ed, item)
	if err != nil {
		return err
	}
	for _, w := range c.sheet.ArmorItems {
		if w.Item == a.Key {
			return d.emit(c.stream, events.ItemUnequipped{Slot: SlotArmor, Item: a.Key})
		}
	}
	return rules.Errorf(rules.CodeRule, "%s wears no %s; he wears %s", c.sheet.Name, a.Name, c.sheet.Armor.Name)
}

func weaponEquipped(ed rules.Edition, w rules.Weapon) events.ItemEquipped {
	e := events.ItemEquipped{Slot: SlotWeapon, Item: w.Key, Name: w.Name, Heft: w.Heft, Edition: string(ed)}
	if w.Damage != nil {
		e.Damage = w.Damage.String()
	}
	for _, f := range w.Flags {
		e.Flags = append(e.Flags, string(f))
	}
	return e
}

// suitCheck records a space suit's failure on an all-sixes check.
func (d *decision) suitCheck(c *character, check rules.CheckOutcome, rollID string) error {
	if !check.AllSixes {
		return nil
	}
	for _, ar := range c.sheet.ArmorItems {
		if ar.SpaceSuit && !ar.Failed {
			if err := d.emit(c.stream, events.SuitFailed{Armor: ar.Name, Restriction: rules.SuitFailureRestriction(), RollID: rollID}); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyPoints deals points to a character: damage, or fatigue that turns
// to damage once he is incapacitated.
func (d *decision) applyPoints(c *character, points int, fatigue bool, stopped int, source, attackID string) (events.DamageTaken, error) {
	dt := events.DamageTaken{Dealt: points, ArmorStopped: stopped, Source: source, AttackID: attackID}
	if fatigue {
		// "A fatigue point dealt to an incapacitated character is a damage point."
		after, asDamage := rules.AddFatigue(c.sheet.Body(), points)
		dt.Damage, dt.Fatigue = asDamage, after.Fatigue-c.sheet.Fatigue
	} else {
		dt.Damage = points
	}
	return dt, d.emit(c.stream, dt)
}

// DamageRequest is what `damage` asks for.
type DamageRequest struct {
	Name        string
	Points      int
	IgnoreArmor bool
	Fatigue     bool
	Source      string
}

// Damage deals points to a character outside an attack roll: a fall, a
// trap, a foe's blow whose dice were rolled elsewhere. Armour reduces
// damage unless ignored.
func (s *Service) Damage(req DamageRequest) (projections.Sheet, events.Event, error) {
	outs, err := s.DamageMany(req, Who{Names: []string{req.Name}})
	if err != nil {
		return projections.Sheet{}, events.Event{}, err
	}
	return outs[0].Sheet, outs[0].Event, nil
}

// DamageResult reports the points one character took: Event is his
// damage.taken, or, when his armour stopped them all, zero (Stopped says
// how many it stopped).
type DamageResult struct {
	Sheet   projections.Sheet
	Event   events.Event
	Stopped int
}

// DamageMany deals the same points to several characters at once (an area
// effect: a blast, a gas, a cave-in), as one command (req.Name is
// ignored): to those w names, party members or foes, or with w.Party to
// every living party member. Each one's armour reduces his share unless
// ignored; one whose armour stops it all takes nothing (no event), and the
// command is refused only when armour stops it for everyone.
func (s *Service) DamageMany(req DamageRequest, w Who) ([]DamageResult, error) {
	if req.Points < 1 {
		return nil, rules.Errorf(rules.CodeInvalid, "cannot deal %d points: deal 1 or more", req.Points)
	}
	if err := rules.CheckQuantity(rules.QtyDamage, req.Points); err != nil {
		return nil, err
	}
	if err := rules.CheckReason("--source", req.Source); err != nil {
		return nil, err
	}
	var outs []DamageResult
	var who []string
	var at []int
	res, err := s.execute(func(d *decision) error {
		outs, who, at = nil, nil, nil
		if _, err := d.campaignState(); err != nil {
			return err
		}
		targets, err := d.chosenBy(w, "damage", (*decision).combatant, func(name string) error {
			return rules.Errorf(rules.CodeRule, "%s is dead", name)
		})
		if err != nil {
			return err
		}
		var stoppedAll []string
		for _, c := range targets {
			points, stopped := req.Points, 0
			if !req.IgnoreArmor && !req.Fatigue && c.sheet.Armor != nil {
				// "When a character is hit, reduce the damage he suffers by the
				// cumulative rating of his armor."
				stopped = min(points, c.sheet.Armor.Protection)
				points -= stopped
			}
			who = append(who, c.sheet.Name)
			outs = append(outs, DamageResult{Stopped: stopped})
			if points == 0 {
				at = append(at, -1)
				stoppedAll = append(stoppedAll, fmt.Sprintf("%s's %s", c.sheet.Name, c.sheet.Armor.Name))
				continue
			}
			at = append(at, len(d.pending))
			if _, err := d.applyPoints(c, points, req.Fatigue, stopped, strings.TrimSpace(req.Source), ""); err != nil {
				return err
			}
		}
		if len(stoppedAll) == len(targets) {
			if len(targets) == 1 {
				c := targets[0]
				return rules.Errorf(rules.CodeRule, "%s's %s stops all %d points; nothing to record (pass --ignore-armor if it should not)", c.sheet.Name, c.sheet.Armor.Name, req.Points)
			}
			return rules.Errorf(rules.CodeRule, "%s stop all %d points; nothing to record (pass --ignore-armor if they should not)", strings.Join(stoppedAll, ", "), req.Points)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range outs {
		if at[i] >= 0 {
			outs[i].Event = res.Events[at[i]]
		}
		if outs[i].Sheet, err = s.Sheet(who[i]); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// HealRequest is what `heal` asks for.
type HealRequest struct {
	Name   string
	Points int
	// Medic heals on 3/IQ, one point per Medic level, only damage from the
	// current combat; MedicFaces are his dice (nil: rolled).
	Medic      string
	MedicFaces []int
	Source     string
}

// HealResult reports healing.
type HealResult struct {
	Sheet  projections.Sheet
	Healed int
	// Roll is the medic's 3/IQ, when a medic healed, and RollEvent its
	// event.
	Roll      *events.RollMade
	RollEvent events.Event
	Note      string
}

// Heal removes damage: by a medic (3/IQ, one point per Medic level, damage
// taken in this combat only), or by other healing the GM logs.
func (s *Service) Heal(req HealRequest) (HealResult, error) {
	outs, err := s.HealMany(req, Who{Names: []string{req.Name}})
	if len(outs) == 0 {
		return HealResult{}, err
	}
	return outs[0], err
}

// HealMany heals several patients in one command (req.Name is ignored):
// those w names (a party member or a foe each), or with w.Party every
// living party member a medic may treat (one with damage of this combat
// he has not treated yet; without --medic, every living member with
// damage). A medic makes one check per patient, faces[i] the dice of the
// i-th (nil: rolled): the books' Medic "can be used across multiple
// characters", and each treatment heals "one damage point per medic level
// ... on 3/IQ". Without a medic each patient heals req.Points. If any
// patient is refused, nothing is recorded.
func (s *Service) HealMany(req HealRequest, w Who) ([]HealResult, error) {
	var outs []HealResult
	var who []string
	var rollAt []int
	res, err := s.execute(func(d *decision) error {
		outs, who, rollAt = nil, nil, nil
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		patients, err := d.patients(camp, req, w)
		if err != nil {
			return err
		}
		per := len(req.MedicFaces) / len(patients)
		if req.MedicFaces != nil && per*len(patients) != len(req.MedicFaces) {
			return rules.Errorf(rules.CodeInvalid, "--dice gives %s for %s: give each patient's check its faces, in the patients' order", projections.Count(len(req.MedicFaces), "face", "faces"), projections.Count(len(patients), "patient", "patients"))
		}
		for i, c := range patients {
			r := req
			if req.MedicFaces != nil {
				r.MedicFaces = req.MedicFaces[i*per : (i+1)*per]
			}
			out := HealResult{}
			at := len(d.pending)
			if err := d.healOne(camp, c, r, &out); err != nil {
				return err
			}
			outs, who, rollAt = append(outs, out), append(who, c.sheet.Name), append(rollAt, at)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range outs {
		if outs[i].Roll != nil {
			outs[i].RollEvent = res.Events[rollAt[i]]
		}
		if outs[i].Sheet, err = s.Sheet(who[i]); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// patients resolves who a heal treats: the named, or the party's living
// members who have something to heal (by a medic: damage of this combat he
// has not treated yet).
func (d *decision) patients(camp *projections.Campaign, req HealRequest, w Who) ([]*character, error) {
	if !w.Party {
		return d.chosenBy(w, "heal", (*decision).combatant, nil)
	}
	chars, err := d.chosen(w, "heal", nil)
	if err != nil {
		return nil, err
	}
	var m *character
	if strings.TrimSpace(req.Medic) != "" {
		if m, err = d.combatant(req.Medic); err != nil {
			return nil, err
		}
	}
	var out []*character
	for _, c := range chars {
		switch {
		case c.sheet.Damage == 0 || c.sheet.Body().Unrecoverable():
		case m != nil && mayTreat(camp, m, c) != nil:
		default:
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		if m != nil {
			return nil, rules.Errorf(rules.CodeRule, "no living party member has damage from this combat that %s has not treated", m.sheet.Name)
		}
		return nil, rules.Errorf(rules.CodeRule, "no living party member has damage to heal")
	}
	return out, nil
}

// healOne decides the healing of one patient.
func (d *decision) healOne(camp *projections.Campaign, c *character, req HealRequest, out *HealResult) error {
	who := c.sheet.Name
	if !c.sheet.Alive() {
		return rules.Errorf(rules.CodeRule, "%s is dead; only a wish revives the dead (`ltscamp wish use %s`)", who, who)
	}
	if c.sheet.Body().Unrecoverable() {
		return rules.Errorf(rules.CodeRule, "%s has %d damage, twice his ST %d or more: unrecoverable, whatever the healing; only a wish can help", who, c.sheet.Damage, c.sheet.Attributes.ST)
	}
	if strings.TrimSpace(req.Medic) == "" {
		if req.Points < 1 {
			return rules.Errorf(rules.CodeInvalid, "heal %d: heal 1 point or more", req.Points)
		}
		if err := rules.CheckQuantity(rules.QtyHeal, req.Points); err != nil {
			return err
		}
		if err := rules.CheckReason("--source", req.Source); err != nil {
			return err
		}
		if req.Points > c.sheet.Damage {
			return rules.Errorf(rules.CodeRule, "%s has %s; %s cannot be healed", who, projections.Count(c.sheet.Damage, "damage point", "damage points"), projections.Count(req.Points, "point", "points"))
		}
		out.Healed = req.Points
		return d.emitApplied(c.stream, events.DamageHealed{Points: req.Points, Reason: "healing", Source: strings.TrimSpace(req.Source)}, c.sheet.Apply)
	}
	return d.medic(camp, c, req, out)
}

// medic decides a medic's treatment of one patient.
func (d *decision) medic(camp *projections.Campaign, patient *character, req HealRequest, out *HealResult) error {
	ed := camp.Edition
	if !camp.InEncounter {
		return rules.Errorf(rules.CodeRule, "a medic heals damage from the current combat, and no encounter is under way (heal before `encounter end`)")
	}
	m, err := d.combatant(req.Medic)
	if err != nil {
		return err
	}
	if !m.sheet.Alive() || m.sheet.Body().Incapacitated() {
		return rules.Errorf(rules.CodeRule, "%s is %s and cannot treat anyone", m.sheet.Name, m.sheet.Status)
	}
	medic, _ := rules.LookupSkill(ed, "medic")
	level := m.sheet.SkillLevel(medic.Key)
	if level == 0 {
		return rules.Errorf(rules.CodeRule, "%s has no Medic skill", m.sheet.Name)
	}
	if err := mayTreat(camp, m, patient); err != nil {
		return err
	}
	// The medic's check ("heal one damage point per medic level for damage
	// sustained in current combat on 3/IQ"; 2010 adds the skill).
	check := rules.MedicCheck(ed)
	expr := rules.Expr{Check: &check}
	rm, stream, _, err := d.roll(ed, expr, m.sheet.Name, req.MedicFaces, nil)
	if err != nil {
		return err
	}
	rm.Reason = fmt.Sprintf("medic for %s", patient.sheet.Name)
	if err := d.emit(stream, rm); err != nil {
		return err
	}
	rollID := d.pending[len(d.pending)-1].ID
	if err := d.suitOnCheck(rm, rollID); err != nil {
		return err
	}
	out.Roll = &rm
	out.Healed, out.Note, err = d.treat(camp, m, patient, rm, rollID, req.Points)
	return err
}

// mayTreat refuses a treatment the rules do not allow: a second one by the
// same medic in this combat, or one with no damage of this combat left.
func mayTreat(camp *projections.Campaign, m, patient *character) error {
	treated := slices.Contains(patient.sheet.Combat.TreatedBy, m.member.ID) && patient.sheet.Combat.Adventure == camp.Adventure && patient.sheet.Combat.Encounter == camp.Encounter
	if err := rules.MedicMayTreat(m.sheet.Name, patient.sheet.Name, treated); err != nil {
		return err
	}
	taken, healed := patient.sheet.CombatDamage(camp.Adventure, camp.Encounter)
	_, err := rules.MedicRemaining(patient.sheet.Name, taken, healed)
	return err
}

// treat decides the healing that follows a medic's check (rm, event
// rollID) and records it: at most limit points when limit is positive.
func (d *decision) treat(camp *projections.Campaign, m, patient *character, rm events.RollMade, rollID string, limit int) (int, string, error) {
	ed := camp.Edition
	medic, _ := rules.LookupSkill(ed, "medic")
	level := m.sheet.SkillLevel(medic.Key)
	taken, healed := patient.sheet.CombatDamage(camp.Adventure, camp.Encounter)
	outcome := rules.CheckOutcome{Faces: rm.Faces, Sum: rm.Sum, Total: rm.Total, Target: rm.Target, Pass: rm.Outcome == "pass", Margin: rm.Margin}
	heal, err := rules.MedicHeal(ed, m.sheet.Name, level, outcome, patient.sheet.Name, taken, healed)
	if err != nil {
		return 0, "", err
	}
	// Never more than the damage he has now (other healing may have come
	// first).
	points := min(heal.Points, patient.sheet.Damage)
	if limit > 0 && limit < points {
		points = limit
	}
	// A failed check is a treatment too: the medic has had his go.
	return points, heal.Note, d.emitApplied(patient.stream, events.DamageHealed{Points: points, Reason: "medic", MedicID: m.member.ID, Medic: m.sheet.Name, RollID: rollID}, patient.sheet.Apply)
}
