package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// What a positional argument or a flag completes to.
type completion int

const (
	compNone       completion = iota
	compParty                 // a party member's name
	compCombatant             // a party member's or a foe's name
	compFoe                   // a foe's name
	compShip                  // a ship's name
	compSpend                 // what xp spend NAME can buy
	compSlot                  // weapon or armor
	compItem                  // an item of the slot the previous argument named
	compCommandSeq            // a command in effect, for undo
	compRollSeq               // a roll karma may re-roll
	compEdition               // 2010, 2020, 2021
	compSkill                 // a skill of the edition, as Name:
	compWeapon                // a weapon of the edition
	compArmor                 // an armour of the edition
	compSection               // a section of the ship the first argument names
)

// argCompletions says, per command path below the root, what each
// positional argument completes to; a command whose last entry repeats
// (variadic) completes every later argument as that.
var argCompletions = map[string]struct {
	args     []completion
	variadic bool
}{
	"sheet":             {args: []completion{compCombatant}},
	"xp award":          {args: []completion{compParty}, variadic: true},
	"xp spend":          {args: []completion{compParty, compSpend}},
	"karma grant":       {args: []completion{compParty}, variadic: true},
	"karma storytell":   {args: []completion{compParty}},
	"karma to-xp":       {args: []completion{compParty}},
	"wish grant":        {args: []completion{compParty}},
	"wish use":          {args: []completion{compParty}},
	"curse add":         {args: []completion{compParty}},
	"curse lift":        {args: []completion{compParty}},
	"audit xp":          {args: []completion{compParty}},
	"rest":              {args: []completion{compParty}, variadic: true},
	"equip":             {args: []completion{compCombatant, compSlot, compItem}},
	"char set":          {args: []completion{compCombatant}},
	"attack":            {args: []completion{compCombatant, compCombatant}},
	"dodge":             {args: []completion{compCombatant}},
	"tackle":            {args: []completion{compCombatant, compCombatant}},
	"damage dice":       {args: []completion{compCombatant}},
	"damage":            {args: []completion{compCombatant}, variadic: true},
	"heal":              {args: []completion{compCombatant}, variadic: true},
	"foe show":          {args: []completion{compFoe}},
	"foe remove":        {args: []completion{compFoe}},
	"ship show":         {args: []completion{compShip}},
	"ship crew":         {args: []completion{compShip, compSection, compCombatant}, variadic: true},
	"ship hit":          {args: []completion{compShip}},
	"ship repair":       {args: []completion{compShip, compSection}},
	"ship fire":         {args: []completion{compShip, compShip}},
	"dogfight start":    {args: []completion{compShip}, variadic: true},
	"dogfight maneuver": {args: []completion{compShip}},
	"dogfight exit":     {args: []completion{compShip}},
	"export sheet":      {args: []completion{compCombatant}},
	"export audit":      {args: []completion{compParty}},
	"export ship":       {args: []completion{compShip}},
	"undo":              {args: []completion{compCommandSeq}},
	"reroll":            {args: []completion{compRollSeq}},
}

// flagCompletions says what a flag's value completes to, by flag name,
// wherever the flag is.
var flagCompletions = map[string]completion{
	"edition": compEdition, "skill": compSkill, "weapon": compWeapon, "armor": compArmor,
	"char": compCombatant, "medic": compCombatant, "gunner": compCombatant, "target-gunner": compCombatant,
	"pilot": compCombatant, "opponent-pilot": compCombatant, "against": compShip, "owner": compParty,
	"to": compParty, "contributors": compParty,
}

// fixedFlagValues are flags with a closed set of values.
var fixedFlagValues = map[string][]string{
	"which":       {"hit\tthe attacker's hit roll, or a gunner's check", "damage\tthe damage dice, or a shot's weapon dice", "dodge\tthe target's dodge"},
	"outcome":     {"victory", "fled", "other"},
	"paper":       {"a4", "letter"},
	"format":      {"md\tMarkdown", "pdf\tPDF", "json\tJSON", "ndjson\tthe backup log (export log)"},
	"by":          {"wish", "attribute", "karma", "xp"},
	"choose":      {"disengage", "turn", "pursue", "maintain"},
	"skill-bonus": {"hit", "damage"},
}

// completeCommands attaches the completions to the whole tree.
func (a *app) completeCommands(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), root.Name()), " ")
		if spec, ok := argCompletions[path]; ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
				i := len(args)
				if i >= len(spec.args) {
					if !spec.variadic {
						return nil, cobra.ShellCompDirectiveNoFileComp
					}
					i = len(spec.args) - 1
				}
				return a.complete(cmd, spec.args[i], args, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if kind, ok := flagCompletions[f.Name]; ok {
				_ = c.RegisterFlagCompletionFunc(f.Name, func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
					return a.complete(cmd, kind, args, toComplete), cobra.ShellCompDirectiveNoFileComp
				})
			} else if vals, ok := fixedFlagValues[f.Name]; ok {
				_ = c.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp))
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// complete lists the values of one kind, each with a short description
// after a tab, as cobra's completions take them. Without a campaign, only
// the edition's catalogue (and the editions) complete.
func (a *app) complete(cmd *cobra.Command, kind completion, args []string, toComplete string) []cobra.Completion {
	if kind == compEdition {
		var out []cobra.Completion
		for _, ed := range rules.Editions() {
			out = append(out, string(ed))
		}
		return out
	}
	s := a.completionCampaign(cmd)
	if s != nil {
		defer a.close(s)
	}
	ed := a.completionEdition(cmd, s)
	switch kind {
	case compSkill:
		var out []cobra.Completion
		for _, sk := range rules.SkillCatalogue(ed) {
			out = append(out, cobra.CompletionWithDesc(sk.NameIn(ed)+":", string(sk.Category)))
		}
		return out
	case compWeapon:
		return weaponNames(ed)
	case compArmor:
		return armorNames(ed)
	case compSlot:
		return []cobra.Completion{"weapon", "armor"}
	case compItem:
		if len(args) >= 2 && strings.HasPrefix(strings.ToLower(args[1]), "armo") {
			return armorNames(ed)
		}
		return weaponNames(ed)
	}
	if s == nil {
		return nil
	}
	var out []cobra.Completion
	switch kind {
	case compParty, compCombatant:
		sheets, _ := s.Sheets()
		for _, sh := range sheets {
			out = append(out, cobra.CompletionWithDesc(sh.Name, fmt.Sprintf("%s, %d XP unspent", sh.Status, sh.XP.Unspent)))
		}
		if kind == compCombatant {
			out = append(out, foeNames(s)...)
		}
	case compFoe:
		out = foeNames(s)
	case compShip:
		ships, _ := s.Ships()
		for _, sh := range ships {
			out = append(out, cobra.CompletionWithDesc(sh.Name, sh.Record))
		}
		if !sectionShipsOnly(cmd) {
			detailed, _ := s.DetailedShips()
			for _, sh := range detailed {
				out = append(out, cobra.CompletionWithDesc(sh.Name, "detailed record (INTERCEPTOR)"))
			}
		}
	case compSection:
		if len(args) > 0 {
			if sh, err := s.Ship(args[0], ""); err == nil {
				for _, sec := range sh.Sections {
					out = append(out, cobra.CompletionWithDesc(sec.Name, fmt.Sprintf("%d of %d points left", sec.Points-sec.Damage, sec.Points)))
				}
			}
		}
	case compSpend:
		if len(args) > 0 {
			buys, sh, err := s.Purchases(args[0])
			if err == nil {
				for _, b := range buys {
					desc := fmt.Sprintf("%d XP, %d → %d; %d left after", b.Price, b.From, b.To, sh.XP.Unspent-b.Price)
					if !b.Affordable {
						desc = fmt.Sprintf("%d XP, %d → %d; %d unspent is not enough", b.Price, b.From, b.To, sh.XP.Unspent)
					}
					out = append(out, cobra.CompletionWithDesc(b.Target, desc))
				}
			}
		}
	case compCommandSeq, compRollSeq:
		list := s.RecentCommands
		if kind == compRollSeq {
			list = s.RecentRolls
		}
		recent, _ := list(20)
		for _, r := range recent {
			out = append(out, cobra.CompletionWithDesc(strconv.FormatInt(r.Seq, 10), fmt.Sprintf("%s (%s)", r.Summary, r.Actor)))
		}
	}
	return out
}

// completionCampaign opens the campaign --db or $LTSCAMP_DB names, if
// there is one; a completion never creates or fails.
func (a *app) completionCampaign(cmd *cobra.Command) *campaign.Service {
	path := DefaultDB
	if f := cmd.Flag("db"); f != nil && f.Changed {
		path = f.Value.String()
	} else if v := a.env.Getenv("LTSCAMP_DB"); v != "" {
		path = v
	}
	if s := a.session.serves(path); s != nil {
		return s
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !campaign.IsServerAddress(path) {
		return nil
	}
	s, err := campaign.OpenReadOnly(path, campaign.Options{Now: a.env.Now, Actor: "completion"})
	if err != nil {
		return nil
	}
	return s
}

// completionEdition is the edition the catalogues complete from: --edition,
// else the campaign's, else 2021.
func (a *app) completionEdition(cmd *cobra.Command, s *campaign.Service) rules.Edition {
	if f := cmd.Flag("edition"); f != nil && f.Changed {
		if ed, err := rules.ParseEdition(f.Value.String()); err == nil {
			return ed
		}
	}
	if s != nil {
		if ed, err := s.Edition(); err == nil {
			return ed
		}
	}
	return rules.Edition2021
}

func foeNames(s *campaign.Service) []cobra.Completion {
	var out []cobra.Completion
	foes, _ := s.FoeSheets()
	for _, f := range foes {
		if !f.Alive() {
			continue // dead foes no longer clutter completion
		}
		out = append(out, cobra.CompletionWithDesc(f.Name, fmt.Sprintf("foe, %s", f.Status)))
	}
	return out
}

func weaponNames(ed rules.Edition) []cobra.Completion {
	var out []cobra.Completion
	ws := rules.Weapons(ed)
	count := map[string]int{}
	for _, w := range ws {
		count[w.Name]++
	}
	for _, w := range ws {
		desc := w.Label
		if w.Damage != nil {
			desc += ", " + w.Damage.String()
		}
		if w.Heft > 0 {
			desc += fmt.Sprintf(", heft %d", w.Heft)
		}
		// A name two weapons share (the 2021 club held in one hand or
		// two), or a long one, completes to the weapon's key.
		value := w.Name
		if count[w.Name] > 1 || strings.Contains(w.Name, " ") && len(w.Name) > 20 {
			value = w.Key
		}
		out = append(out, cobra.CompletionWithDesc(value, desc))
	}
	return out
}

func armorNames(ed rules.Edition) []cobra.Completion {
	var out []cobra.Completion
	for _, ar := range rules.Armors(ed) {
		out = append(out, cobra.CompletionWithDesc(ar.Name, fmt.Sprintf("%d/%d", ar.Protection, ar.Restriction)))
	}
	return out
}

// sectionShipsOnly reports whether cmd works on section ships only (crew,
// fire, dogfights), so that completion offers no detailed record to it.
func sectionShipsOnly(cmd *cobra.Command) bool {
	switch cmd.CommandPath() {
	case "ltscamp ship crew", "ltscamp ship fire":
		return true
	}
	return cmd.Parent() != nil && cmd.Parent().Name() == "dogfight"
}
