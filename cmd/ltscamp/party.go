package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// partyMemberJSON is one member of `party --json`: what the table needs to
// see at a glance during play.
type partyMemberJSON struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	ST     int    `json:"st"`
	DX     int    `json:"dx"`
	// AdjustedDX is DX after armour restriction.
	AdjustedDX int     `json:"adjusted_dx"`
	IQ         int     `json:"iq"`
	MA         int     `json:"ma"`
	Damage     int     `json:"damage"`
	Fatigue    int     `json:"fatigue"`
	Karma      int     `json:"karma"`
	Wishes     int     `json:"wishes"`
	Curses     int     `json:"curses"`
	XPUnspent  int     `json:"xp_unspent"`
	Weapon     *string `json:"weapon"`
	Armor      *string `json:"armor"`
	// Turn is where the member stands in the turn under way, once the
	// encounter's initiative is rolled: "acted", "to act" (his side's
	// turn), "waits" (the other side's), "loses this turn" or "loses next
	// turn" (he reacted); LosesNextTurn is true for the last two.
	Turn          string `json:"turn,omitempty"`
	LosesNextTurn bool   `json:"loses_next_turn,omitempty"`
}

func newPartyCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "party",
		Short: "Show every member's condition on one screen: damage, fatigue, karma, XP, gear",
		Long: `Show the party as the table needs it during play: every member's status,
damage and fatigue against ST, karma, wishes, curses, unspent XP, weapon and
armour, and where the campaign is in game time. In an encounter, the foes on
the roster follow, with their damage and fatigue. With --json, one object per
member (the foes are in ltscamp foe list --json).`,
		Example: `  ltscamp party
  ltscamp party --json | jq '.[] | select(.damage > 0) | .name'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				p, err := s.Point("")
				if err != nil {
					return err
				}
				sheets, err := s.SheetsAsOf(p.At())
				if err != nil {
					return err
				}
				var turns projections.Turns
				if p.Campaign.InEncounter {
					if turns, err = s.Turns(); err != nil {
						return err
					}
				}
				if asJSON {
					out := make([]partyMemberJSON, 0, len(sheets))
					for _, sh := range sheets {
						m := partyMember(sh)
						m.Turn, m.LosesNextTurn = turns.StateOf(sh.ID, events.SideParty)
						out = append(out, m)
					}
					return a.out.json(out)
				}
				a.out.printf("%s\n", a.out.heading(fmt.Sprintf("%s — %s", p.Campaign.Name, clockText(p.Campaign))))
				if turns.Active || len(turns.Free) > 0 {
					a.out.printf("%s\n", turns.TurnText())
				}
				if len(sheets) == 0 {
					a.out.note("the party is empty; create a character with `ltscamp char new`")
					return nil
				}
				rows := make([][]string, 0, len(sheets))
				for _, sh := range sheets {
					m := partyMember(sh)
					gear := gearText(m)
					row := []string{m.Name, m.Status, fmt.Sprintf("%d/%d", m.Damage, m.ST), fmt.Sprintf("%d/%d", m.Fatigue, m.ST),
						strconv.Itoa(m.Karma), strconv.Itoa(m.Wishes), strconv.Itoa(m.Curses), strconv.Itoa(m.XPUnspent), gear}
					if turns.Active {
						state, _ := turns.StateOf(sh.ID, events.SideParty)
						row = append(row[:2:2], append([]string{state}, row[2:]...)...)
					}
					rows = append(rows, row)
				}
				// A narrow terminal loses the columns least looked at in
				// play first; the gear is never left out.
				headers := []string{"NAME", "STATUS", "DAMAGE", "FATIGUE", "KARMA", "WISH", "CURSE", "XP", "GEAR"}
				if turns.Active {
					headers = []string{"NAME", "STATUS", "TURN", "DAMAGE", "FATIGUE", "KARMA", "WISH", "CURSE", "XP", "GEAR"}
				}
				a.out.table(headers, rows, "CURSE", "WISH", "XP", "KARMA")
				if !p.Campaign.InEncounter {
					return nil
				}
				// In an encounter, the foes the party faces.
				foes, err := s.FoeSheetsAsOf(p.At())
				if err != nil || len(foes) == 0 {
					return err
				}
				printEncounterFoes(a.out, foes)
				if turns.Active {
					a.out.printf("%s\n", foeTurnsText(&turns, foes))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one object per member")
	return cmd
}

// foeElide are the columns of the foe table a narrow terminal loses
// first: IQ matters least in a fight.
var foeElide = []string{"IQ"}

// gearText is a member's weapon and armour, "-" for none.
func gearText(m partyMemberJSON) string {
	var items []string
	for _, it := range []*string{m.Weapon, m.Armor} {
		if it != nil {
			items = append(items, *it)
		}
	}
	if len(items) == 0 {
		return "-"
	}
	return strings.Join(items, ", ")
}

// partyMember is a sheet as the party screen shows it.
func partyMember(sh projections.Sheet) partyMemberJSON {
	m := partyMemberJSON{ID: sh.ID, Name: sh.Name, Status: sh.Status, ST: sh.Attributes.ST, DX: sh.Attributes.DX, AdjustedDX: sh.Adjusted.DX, IQ: sh.Attributes.IQ, MA: sh.Adjusted.MA,
		Damage: sh.Damage, Fatigue: sh.Fatigue, Karma: sh.Karma, Wishes: sh.Wishes, Curses: sh.Curses, XPUnspent: sh.XP.Unspent}
	if sh.Weapon != nil {
		m.Weapon = &sh.Weapon.Name
	}
	if sh.Armor != nil {
		m.Armor = &sh.Armor.Name
	}
	return m
}

// foeTurnsText says where each foe stands in the turn, wrapped to 80
// columns: "Foes' turn: Pirate 1 acted, Pirate 2 to act, ...".
func foeTurnsText(t *projections.Turns, foes []projections.Sheet) string {
	parts := make([]string, 0, len(foes))
	for _, f := range foes {
		if !f.Alive() {
			continue
		}
		state, _ := t.StateOf(f.ID, events.SideFoes)
		parts = append(parts, f.Name+" "+state)
	}
	return wrapCell("Foes: "+strings.Join(parts, ", "), 80, false)
}
