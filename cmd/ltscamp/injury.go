package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

func newEquipCmd(a *app) *cobra.Command {
	var off bool
	cmd := &cobra.Command{
		Use:   "equip NAME weapon|armor ITEM [[weapon|armor] ITEM]... [--off]",
		Short: "Wield a weapon or wear armour from the edition's tables (heft is checked against ST)",
		Long: `Wield a weapon or wear armour from the campaign edition's tables. A weapon's
heft is the least ST that can use it; a new weapon replaces the one wielded.

Armour is cumulative ("reduce the damage he suffers by the cumulative rating
of his armor"; "adjust a character's DX down by the cumulative restriction"):
each item is worn over what he already wears, its protection and restriction
added. A (B) item does not count against bullets; the others still do.

Several items are one command (one undo), put on in the order given: each
ITEM goes in the slot last named before it ("armor A B" is two armour items;
"weapon W armor A" a weapon and an armour item). One weapon at a time.

--off takes the weapon off, or the armour item named, or all his armour.`,
		Example: `  ltscamp equip Ajax weapon handgun
  ltscamp equip Hector armor "flak vest"
  ltscamp equip Hector armor "landing suit"     # over the vest: 6/2
  ltscamp equip Hector armor "flak vest" --off  # the vest only
  ltscamp equip Hector armor --off              # all of it
  ltscamp equip Hector weapon cutlass armor "flak vest" "landing suit"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 || (off && len(args) > 3) {
				return usagef("equip takes NAME, weapon or armor, and the ITEM (or --off); see `ltscamp equip --help`")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 3 {
				items, err := equipItems(args[1:])
				if err != nil {
					return err
				}
				return a.withCampaign(func(s *campaign.Service) error {
					_, err := s.EquipMany(args[0], items)
					if err != nil {
						return err
					}
					return nil
				})
			}
			item := ""
			if len(args) == 3 {
				item = args[2]
			}
			if off && item != "" && !strings.HasPrefix(strings.ToLower(args[1]), "armo") {
				return usagef("--off takes the weapon off; leave out the ITEM")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				_, err := s.Equip(args[0], args[1], item, off)
				if err != nil {
					return err
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&off, "off", false, "take the weapon off, or the armour ITEM (all armour without one)")
	return cmd
}

func newAttackCmd(a *app) *cobra.Command {
	var req campaign.AttackRequest
	var hit, dmg, dodge string
	cmd := &cobra.Command{
		Use:   "attack ATTACKER TARGET [HIT [DAMAGE]] [--weapon NAME] [--skill-bonus hit|damage|none] [--dice HIT --damage-dice D] [--hit-only] [--dodge a,b,c] [--grapple|--outside] [--counter]",
		Short: "Resolve an attack: hit roll, damage roll, curse, minimum, armour, damage applied — one command",
		Long: `Resolve one attack in the encounter under way, as one command of several events.

The hit is 3/DX at the attacker's adjusted DX. A combat skill's level goes
wholly to hit or to damage ("decide before attacking"): where the attacker's
standing choice says (` + "`char set NAME --skill-bonus`" + `; hit until set), or
where --skill-bonus says for this attack. The attack line says where it
went. On a hit the weapon's damage is rolled; curses lower it; editions
2020/2021 deal at least 1 (the Cutlass at least 1 before armour); the
target's armour stops its protection; the rest lands as damage (fatigue for
unarmed blows, which add 1 when the attacker is stronger).

TARGET may be a party member, whose damage is applied to his sheet, or anyone
else (--target-st for an unarmed "stronger" comparison). --dodge has a party
member who was hit try 3/DX to dodge (not against missiles, nor in edition
2010 against a thrown weapon): give his faces, or "roll" to let the program
roll them. --thrown throws a weapon marked (T), such as a dagger; grenades are
always thrown.

--grapple is the attack of a grappler who won the ST check
(` + "`contest A:ST B:ST`" + `): he rolls damage with no hit roll, bare-handed
(armour does not count) or with a weapon marked (G); in edition 2020 a
stronger grappler adds 1. Grappling, the Unarmed skill adds to ST in the
contest, not to the attack. --outside (edition 2020) is an attack into a
grappling space from outside it: it hits with no hit roll. Neither can be
dodged; --dice given with them are not a hit roll and are not used.

The faces may follow the names without the flags: HIT (a,b,c) is --dice and
DAMAGE is --damage-dice. The hit alone (HIT with no DAMAGE, or --hit-only)
records the hit and leaves its damage to come, as at the table: the target
sees the hit roll, not the damage roll, before he decides to dodge. Then
` + "`ltscamp dodge TARGET [FACES]`" + ` answers it, and ` + "`ltscamp damage dice [FACES]`" + `
rolls its damage (after a failed dodge, or when he does not dodge), as does
` + "`attack ATTACKER TARGET --damage-dice D`" + ` with the damage dice alone. A hit
waiting for its damage stays in the log until one of them settles it; the
encounter does not end while one waits.

--counter is a counterattack, a defender's reaction: ATTACKER, who survived
TARGET's latest attack on him and did not dodge it, strikes or shoots back at
once (3/DX, then damage, as any attack; HIT alone rolls the damage). It is no
action of his turn, and he loses his next turn. A defender reacts once to an
attack: a second counterattack on it, or one on an attack he dodged, is
refused.`,
		Example: `  ltscamp attack Ajax pirate 3,3,4 5,2
  ltscamp attack Pirate Hector 2,3,4        # the hit alone, then:
  ltscamp dodge Hector 3,3,3                # or: ltscamp damage dice 4
  ltscamp attack Ajax pirate --weapon handgun --dice 3,3,4 --damage-dice 5,2
  ltscamp attack Ajax Hector --weapon handgun --skill-bonus damage \
      --dice 6,5,1 --damage-dice 5,2
  ltscamp attack Hector Ajax --dice 1,2,3 --damage-dice 2 --dodge 6,6,1
  ltscamp attack Hector Ajax --dodge roll
  ltscamp attack Hector Ajax --weapon dagger --thrown \
      --dice 2,3,4 --damage-dice 3
  ltscamp contest Ajax:ST Hector:ST --dice 3,3,3 --dice 5,5,5
  ltscamp attack Ajax Hector --grapple --damage-dice 2
  ltscamp attack Hector Ajax --counter 2,2,3 4   # Hector answers Ajax`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 4 {
				return usagef("attack takes ATTACKER and TARGET, then optionally the HIT faces and the DAMAGE faces (got %d arguments); see `ltscamp attack --help`", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Attacker, req.Target = args[0], args[1]
			var hitPos, dmgPos *string
			if len(args) > 2 {
				hitPos = &args[2]
			}
			if len(args) > 3 {
				dmgPos = &args[3]
			}
			var err error
			if req.HitFaces, err = facesArg(cmd, "dice", hit, hitPos, "hit faces"); err != nil {
				return err
			}
			if req.DamageFaces, err = facesArg(cmd, "damage-dice", dmg, dmgPos, "damage faces"); err != nil {
				return err
			}
			// The hit faces alone, typed after the names, are the hit
			// alone: its damage is to come.
			// A counterattack is recorded whole: its damage is rolled when
			// not given.
			req.HitOnly = req.HitOnly || (hitPos != nil && req.DamageFaces == nil && !req.Counter)
			if req.HitOnly && req.DamageFaces != nil {
				return usagef("--hit-only leaves the damage to come: leave out the damage faces, or drop --hit-only")
			}
			req.Dodge = cmd.Flags().Changed("dodge")
			if req.Dodge && !strings.EqualFold(strings.TrimSpace(dodge), "roll") {
				if req.DodgeFaces, err = parseFacesFlag(cmd, "dodge", dodge); err != nil {
					return err
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Attack(req)
				if err != nil {
					return err
				}
				printAttack(a.out, res, req.HitFaces)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Weapon, "weapon", "", "the weapon (default: the one wielded, else unarmed)")
	f.StringVar(&req.Bonus, "skill-bonus", "", "put the weapon's combat skill level on hit, damage or none, this attack only (default: the attacker's standing choice, see char set)")
	f.StringVar(&hit, "dice", "", "faces of the hit roll (3 dice)")
	f.StringVar(&dmg, "damage-dice", "", "faces of the damage roll")
	f.StringVar(&dodge, "dodge", "", `the target dodges: the faces of his 3/DX, or "roll"`)
	f.BoolVar(&req.HitOnly, "hit-only", false, "record the hit alone: its damage waits for `dodge` or `damage dice`")
	f.IntVar(&req.TargetST, "target-st", 0, "ST of a target outside the party")
	f.BoolVar(&req.Fatigue, "fatigue", false, "an F weapon set to fatigue")
	f.BoolVar(&req.Thrown, "thrown", false, "throw a (T) weapon (2010: a throw cannot be dodged)")
	f.BoolVar(&req.Grappling, "grapple", false, "the attack of a grappler who won ST: no hit roll; bare hands (no armour) or a (G) weapon")
	f.BoolVar(&req.Outside, "outside", false, "an attack into a grappling space from outside it: no hit roll (2020)")
	f.BoolVar(&req.Counter, "counter", false, "a counterattack: ATTACKER answers TARGET's latest attack on him; he loses his next turn")
	f.StringVar(&req.Force, "force", "", "the GM's reason to let an attacker act in a turn he lost by reacting (it goes in the log)")
	return cmd
}

func printAttack(p *printer, res campaign.AttackResult, hitFaces []int) {
	am := res.Attack
	outcome := p.bad("miss")
	if am.Hit.Outcome == "hit" {
		outcome = p.good("hit")
	}
	if am.Rerolls != "" {
		p.printf("karma re-roll of the %s:\n", am.Rerolled)
	}
	if res.Completed != 0 {
		p.printf("the hit at seq %d, completed:\n", res.Completed)
	}
	if res.Countered != 0 {
		p.printf("counterattack on the attack at seq %d (%s loses his next turn):\n", res.Countered, am.Attacker)
	}
	switch am.AutoHit {
	case "":
		p.printf("%s attacks %s with %s: 3/DX %s = %d vs %d — %s\n", am.Attacker, am.Target, am.WeaponName, joinFaces(am.Hit.Faces), am.Hit.Total, am.Hit.Target, outcome)
	default:
		why := "he won the ST check"
		if am.AutoHit == "outside" {
			why = "into a grappling space"
		}
		p.printf("%s attacks %s with %s: no hit roll (%s) — %s\n", am.Attacker, am.Target, am.WeaponName, why, outcome)
		if hitFaces != nil && am.Rerolls == "" {
			p.printf("  --dice %s not used: this attack makes no hit roll\n", joinFaces(hitFaces))
		}
	}
	if sk := projections.AttackSkillText(&am); sk != "" {
		p.printf("  %s\n", sk)
	}
	if am.Dodge != nil {
		p.printf("  %s dodges: 3/DX %s = %d vs %d — %s\n", am.Target, joinFaces(am.Dodge.Faces), am.Dodge.Total, am.Dodge.Target, am.Dodge.Outcome)
	}
	if am.Damage != nil {
		kind := "damage"
		if am.Fatigue {
			kind = "fatigue"
		}
		p.printf("  %s %s = %d%s → %d; armour stops %d → %d %s\n", am.Damage.Expr, joinFaces(am.Damage.Faces), am.Damage.Total, modText(am.Damage.Modifiers), am.BeforeArmor, am.ArmorStopped, am.Taken, kind)
	}
	p.printf("  %s\n", am.Explanation)
	if am.DamageToCome() {
		next := "`ltscamp damage dice`"
		if am.Dodge == nil {
			next = fmt.Sprintf("`ltscamp dodge %s` or %s", nameArg(am.Target), next)
		}
		p.printf("  hit, damage to come: %s\n", next)
	}
	if am.SpareDamage != nil {
		seq := "SEQ"
		for _, e := range res.Events {
			if e.Type == events.TypeAttackMade {
				seq = strconv.FormatInt(e.Seq, 10)
			}
		}
		p.printf("  damage dice %s not used; kept for a karma re-roll (`ltscamp reroll %s --which hit`)\n", joinFaces(am.SpareDamage), seq)
	}
	if res.Target != nil {
		t := res.Target
		p.printf("  %s: damage %d, fatigue %d — %s\n", t.Name, t.Damage, t.Fatigue, t.Status)
	}
	for _, e := range res.Events {
		p.printf("  seq %d  %s\n", e.Seq, e.Type)
	}
}

// nameArg quotes a name with a space for a command line.
func nameArg(name string) string {
	if strings.ContainsAny(name, " \t") {
		return strconv.Quote(name)
	}
	return name
}

func newDodgeCmd(a *app) *cobra.Command {
	var req campaign.DodgeRequest
	var dice, dmg string
	cmd := &cobra.Command{
		Use:   "dodge NAME [FACES [DAMAGE]] [--dice a,b,c] [--damage-dice D]",
		Short: "Dodge the latest hit on NAME whose damage is to come (3/DX), after seeing the hit roll",
		Long: `Answer the latest hit on NAME whose damage is to come (an attack entered as
its hit alone: ` + "`ltscamp attack ATTACKER NAME a,b,c`" + `) with a dodge: 3/DX at his
adjusted DX. All editions: "He views the attacker's hit roll, but not damage
roll, before deciding to dodge. A defender cannot dodge a missile weapon";
2010 adds thrown weapons. A defender reacts to ONE attacker and loses his
next turn.

A passed dodge settles the attack: no damage is rolled. A failed one leaves
the damage to come (` + "`ltscamp damage dice`" + `), or deals it at once with the
DAMAGE faces (or --damage-dice). FACES (or --dice) are his 3/DX; without
them the program rolls. The attack is recorded again, complete so far,
pointing at the hit it answers; undo takes the dodge back and the hit waits
again.`,
		Example: `  ltscamp attack Pirate Hector 2,3,4
  ltscamp dodge Hector 3,3,3
  ltscamp dodge Hector 6,5,4 5      # fails: the pirate's d6 deals 5
  ltscamp dodge Hector              # the program rolls`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 3 {
				return usagef("dodge takes NAME, then optionally his FACES and the DAMAGE faces (got %d arguments); see `ltscamp dodge --help`", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Name = args[0]
			var pos, dmgPos *string
			if len(args) > 1 {
				pos = &args[1]
			}
			if len(args) > 2 {
				dmgPos = &args[2]
			}
			var err error
			if req.Faces, err = facesArg(cmd, "dice", dice, pos, "dodge faces"); err != nil {
				return err
			}
			if req.DamageFaces, err = facesArg(cmd, "damage-dice", dmg, dmgPos, "damage faces"); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Dodge(req)
				if err != nil {
					return err
				}
				printAttack(a.out, res, nil)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&dice, "dice", "", "faces of his 3/DX (default: the program rolls)")
	f.StringVar(&dmg, "damage-dice", "", "faces of the attacker's damage roll, dealt if the dodge fails")
	return cmd
}

// newDamageDiceCmd is `damage dice`: the damage of a hit whose damage is
// to come.
func newDamageDiceCmd(a *app) *cobra.Command {
	var req campaign.CompleteDamageRequest
	var dice string
	cmd := &cobra.Command{
		Use:   "dice [TARGET] [FACES] [--dice D]",
		Short: "Roll the damage of the latest hit whose damage is to come (on TARGET)",
		Long: `Complete the latest hit whose damage is to come (an attack entered as its hit
alone, not dodged, or whose dodge failed): its damage is rolled with the
attacker's weapon, curse and skill, the target's armour stops its part, and
the rest is dealt. TARGET picks the latest such hit on him. FACES (or --dice)
are the physical damage dice; without them the program rolls. The attack is
recorded again, complete, pointing at the hit it completes.`,
		Example: `  ltscamp attack Pirate Hector 2,3,4
  ltscamp damage dice 4
  ltscamp damage dice Hector 4
  ltscamp damage dice               # the program rolls`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 2 {
				return usagef("damage dice takes an optional TARGET and the FACES (got %d arguments)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var pos *string
			switch {
			case len(args) == 2 && !looksLikeFaces(args[1]):
				return usagef("damage dice TARGET FACES: %q are not dice faces (such as 5,2)", args[1])
			case len(args) == 2:
				req.Target, pos = args[0], &args[1]
			case len(args) == 1 && looksLikeFaces(args[0]):
				pos = &args[0]
			case len(args) == 1:
				req.Target = args[0]
			}
			var err error
			if req.Faces, err = facesArg(cmd, "dice", dice, pos, "damage faces"); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.CompleteDamage(req)
				if err != nil {
					return err
				}
				printAttack(a.out, res, nil)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dice, "dice", "", "faces of the damage roll (default: the program rolls)")
	return cmd
}

func joinFaces(fs []int) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprint(f)
	}
	return strings.Join(out, "+")
}

// withDamageDice adds ` + "`damage dice`" + ` under the damage command, which keeps
// its own arguments (NAME N) beside it.
func withDamageDice(a *app, damage *cobra.Command) {
	damage.AddCommand(newDamageDiceCmd(a))
	if damage.Annotations == nil {
		damage.Annotations = map[string]string{}
	}
	damage.Annotations[ownArgs] = "true"
}

func newDamageCmd(a *app) *cobra.Command {
	var req campaign.DamageRequest
	var party bool
	cmd := &cobra.Command{
		Use:   "damage NAME... N [--ignore-armor] [--fatigue] [--source TEXT] | damage --party N",
		Short: "Deal N points to characters (armour stops its protection unless ignored)",
		Long: `Deal N points of damage (or, with --fatigue, fatigue) to a character: a trap,
a fall, a blow whose dice were rolled elsewhere. Armour stops its protection
from damage unless --ignore-armor. Fatigue dealt to an incapacitated
character is damage instead.

Several NAMEs (party members or foes) each take N, as one command (one undo):
an area effect, a blast, a cave-in. --party deals it to every living party
member (the characters of the roster, not foes; the dead are skipped). Each
one's armour stops its share; the command is refused only if armour stops it
for everyone. The last argument is N.`,
		Example: `  ltscamp damage Ajax 6 --source "pirate's cutlass"
  ltscamp damage Ajax 2 --fatigue --source "running"
  ltscamp damage Ajax Kira "Pirate 1" 4 --source "grenade"
  ltscamp damage --party 1 --fatigue --source "the long climb"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if party {
				return exactArgs(1, "N (with --party, name nobody)")(cmd, args)
			}
			return minArgs(2, "a character NAME (or several) and N")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseCount(args[len(args)-1], "N")
			if err != nil {
				return err
			}
			req.Points = n
			return a.withCampaign(func(s *campaign.Service) error {
				outs, err := s.DamageMany(req, campaign.Who{Names: args[:len(args)-1], Party: party})
				if err != nil {
					return err
				}
				for _, o := range outs {
					sh := o.Sheet
					if o.Event.Seq == 0 {
						a.out.printf("%s: armour stopped all %d points\n", sh.Name, o.Stopped)
						continue
					}
					a.out.printf("%s: %s\n", sh.Name, projections.Describe(o.Event, nil))
					a.out.printf("%s: damage %d, fatigue %d — %s\n  seq %d\n", sh.Name, sh.Damage, sh.Fatigue, sh.Status, o.Event.Seq)
				}
				return nil
			})
		},
	}
	refuseNegative(a, cmd, func(arg string) string {
		return fmt.Sprintf("damage %s: negative numbers are not accepted here (%s; to take damage away, use `ltscamp heal`, or `ltscamp undo` for a mistake)", arg, rangeText(rules.QtyDamage))
	})
	f := cmd.Flags()
	withDamageDice(a, cmd)
	f.BoolVar(&req.IgnoreArmor, "ignore-armor", false, "armour does not reduce it")
	f.BoolVar(&req.Fatigue, "fatigue", false, "the points are fatigue")
	f.StringVar(&req.Source, "source", "", "where it came from")
	f.BoolVar(&party, "party", false, "deal it to every living party member (not foes, not the dead)")
	return cmd
}

func newHealCmd(a *app) *cobra.Command {
	var req campaign.HealRequest
	var dice string
	var party bool
	cmd := &cobra.Command{
		Use:   "heal NAME... [N] [--medic NAME --dice a,b,c] | heal --party --medic NAME",
		Short: "Heal damage: N points, or by a medic (3/IQ, a point per Medic level, this combat's damage only)",
		Long: `Heal characters' damage. Without --medic, N points are healed (a potion, a
doctor, whatever the adventure says). With --medic, the medic rolls 3/IQ
(2010: 3/IQ+Medic) and on a pass heals one point per Medic level, but only
damage taken in the current combat; each medic treats a patient once per
combat. Heal the mortally wounded before ` + "`encounter end`" + `, or they die.

Several NAMEs are one command (one undo): a medic "can be used across multiple
characters", with one check for each patient; --dice then gives each check's
faces in the order of the names (3,3,3,4,2,1 for two patients). --party treats
every living party member (the characters of the roster, not foes; the dead
are skipped) who has damage to heal (with --medic: damage of this combat that
medic has not treated yet). The last argument is N when it is a number.`,
		Example: `  ltscamp heal Hector --medic Ajax --dice 3,4,2
  ltscamp heal Kira Hector --medic Ajax --dice 3,3,3,2,4,1
  ltscamp heal --party --medic Ajax
  ltscamp heal Ajax 3 --source "healing potion"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 && !party {
				return usagef("heal takes a character NAME (or several, or --party) and, without --medic, N")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			names, haveN := args, false
			// The last argument is N when it is a number: "heal Ajax 3",
			// "heal Ajax Kira 2", "heal --party 2". "heal Ajax some" is
			// NAME and a bad N unless some is a character too (below).
			if last := len(args) - 1; last >= 0 && (last >= 1 || party) {
				if _, err := strconv.Atoi(strings.TrimSpace(args[last])); err == nil {
					n, err := parseCount(args[last], "N")
					if err != nil {
						return err
					}
					req.Points, names, haveN = n, args[:last], true
				}
			}
			if !haveN && req.Medic == "" && len(args) != 2 {
				return usagef("heal without --medic needs N, the points to heal")
			}
			if party && len(names) > 0 {
				return usagef("heal: name characters or give --party (every living party member), not both")
			}
			var err error
			if req.MedicFaces, err = parseFacesFlag(cmd, "dice", dice); err != nil {
				return err
			}
			if req.MedicFaces != nil && req.Medic == "" {
				return usagef("--dice is the medic's 3/IQ: give --medic too")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				if len(args) == 2 && !haveN && !party && req.Medic == "" {
					// The old form NAME N with a bad N, unless the second
					// word names a character too. (With --medic, two
					// words are two patients.)
					if _, err := s.Sheet(args[1]); err != nil {
						_, perr := parseCount(args[1], "N")
						return perr
					}
					return usagef("heal without --medic needs N, the points to heal")
				}
				outs, err := s.HealMany(req, campaign.Who{Names: names, Party: party})
				if err != nil {
					return err
				}
				for _, res := range outs {
					if res.Roll != nil {
						printRoll(a.out, res.RollEvent, *res.Roll)
						if res.Note != "" {
							a.out.printf("  %s\n", res.Note)
						}
					}
					sh := res.Sheet
					a.out.printf("%s: healed %d — damage %d, fatigue %d, %s\n", sh.Name, res.Healed, sh.Damage, sh.Fatigue, sh.Status)
				}
				return nil
			})
		},
	}
	refuseNegative(a, cmd, func(arg string) string {
		return fmt.Sprintf("heal %s: negative numbers are not accepted here (%s; to deal damage, use `ltscamp damage`, or `ltscamp undo` for a mistake)", arg, rangeText(rules.QtyHeal))
	})
	f := cmd.Flags()
	f.StringVar(&req.Medic, "medic", "", "the medic treating him")
	f.StringVar(&dice, "dice", "", "faces of the medic's 3/IQ")
	f.StringVar(&req.Source, "source", "", "what healed him (without --medic)")
	f.BoolVar(&party, "party", false, "heal every living party member with damage to heal (not foes, not the dead)")
	return cmd
}

// equipItems reads the words after an equip's NAME: a slot word (weapon,
// armor, armour) sets the slot of the ITEMs after it.
func equipItems(words []string) ([]campaign.EquipItem, error) {
	var items []campaign.EquipItem
	slot := ""
	for _, w := range words {
		switch strings.ToLower(strings.TrimSpace(w)) {
		case "weapon", "armor", "armour":
			if slot != "" && (len(items) == 0 || items[len(items)-1].Slot != slot) {
				return nil, usagef("equip: %s names no ITEM", slot)
			}
			slot = strings.ToLower(strings.TrimSpace(w))
			continue
		}
		if slot == "" {
			return nil, usagef("equip: say weapon or armor before %q", w)
		}
		items = append(items, campaign.EquipItem{Slot: slot, Item: w})
	}
	if len(items) == 0 || items[len(items)-1].Slot != slot {
		return nil, usagef("equip: %s names no ITEM", slot)
	}
	return items, nil
}
