package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/rules"
)

// skillJSON is a skill of `rules skills --json`.
type skillJSON struct {
	Key       string   `json:"key"`
	Name      string   `json:"name"`
	Category  string   `json:"category"`
	Attribute string   `json:"attribute"`
	Combat    bool     `json:"combat"`
	PriceXP   int      `json:"price_xp"`
	Formula   string   `json:"price_formula"`
	Aliases   []string `json:"aliases"`
}

// weaponJSON is a weapon of `rules weapons --json`.
type weaponJSON struct {
	Key      string   `json:"key"`
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Category string   `json:"category"`
	Damage   string   `json:"damage"`
	Heft     int      `json:"heft"`
	Flags    []string `json:"flags"`
	Skill    string   `json:"skill,omitempty"`
	Bullets  bool     `json:"bullets"`
}

// armorJSON is an armour of `rules armor --json`.
type armorJSON struct {
	Key         string `json:"key"`
	Name        string `json:"name"`
	Label       string `json:"label"`
	Protection  int    `json:"protection"`
	Restriction int    `json:"restriction"`
	NoBullets   bool   `json:"no_bullets"`
	SpaceSuit   bool   `json:"space_suit"`
}

// catalogueOptions are the flags of every `rules` listing.
type catalogueOptions struct {
	edition string
	json    bool
}

func newRulesCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List an edition's skills, weapons and armour: what char new, equip and xp spend take",
		Long: `List the tables of an edition's rule book, as ltscamp applies them: the
skills (with their category, attribute and price), the weapons (damage, heft,
flags, the combat skill that adds to them) and the armour (protection,
restriction). These are the names char new --skill, equip and xp spend take.

The edition is --edition, else the campaign's (--db), else the default.`,
		Example: `  ltscamp rules skills
  ltscamp rules weapons --edition 2010
  ltscamp rules armor --json | jq '.[].name'
  ltscamp rules equipment`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("list what? choose skills, weapons, armor or equipment; see `ltscamp rules --help`")
		},
	}
	var opts catalogueOptions
	for _, c := range []*cobra.Command{
		{Use: "skills", Short: "List the edition's skills with their category, attribute and price",
			Example: "  ltscamp rules skills\n  ltscamp rules skills --edition 2010 --json"},
		{Use: "weapons", Short: "List the edition's weapons with damage, heft and flags",
			Example: "  ltscamp rules weapons\n  ltscamp rules weapons --json | jq '.[] | select(.heft > 10)'"},
		{Use: "armor", Aliases: []string{"armour"}, Short: "List the edition's armour with protection and restriction",
			Example: "  ltscamp rules armor"},
		{Use: "equipment", Short: "List everything equip takes: the weapons, then the armour",
			Example: "  ltscamp rules equipment --edition 2020"},
	} {
		c.Args = exactArgs(0, "no arguments")
		c.RunE = func(cmd *cobra.Command, args []string) error { return catalogueRun(a, cmd.Name(), opts) }
		c.Flags().StringVar(&opts.edition, "edition", "", "2010, 2020 or 2021 (default: the campaign's, else "+string(rules.DefaultEdition)+")")
		c.Flags().BoolVar(&opts.json, "json", false, "print the table as JSON")
		cmd.AddCommand(c)
	}
	return cmd
}

// catalogueEdition is --edition, else the campaign's when there is one,
// else the default edition.
func (a *app) catalogueEdition(flag string) (rules.Edition, error) {
	if flag != "" {
		ed, err := rules.ParseEdition(flag)
		if err != nil {
			return "", usageError{err}
		}
		return ed, nil
	}
	s, err := a.open()
	if rules.CodeOf(err) == rules.CodeNotCampaign {
		return rules.DefaultEdition, nil
	}
	if err != nil {
		return "", err
	}
	defer a.close(s)
	return s.Edition()
}

func catalogueRun(a *app, what string, opts catalogueOptions) error {
	ed, err := a.catalogueEdition(opts.edition)
	if err != nil {
		return err
	}
	switch what {
	case "skills":
		return printSkills(a, ed, opts.json)
	case "weapons":
		return printWeapons(a, ed, opts.json)
	case "armor":
		return printArmor(a, ed, opts.json)
	}
	if opts.json {
		return a.out.json(struct {
			Weapons []weaponJSON `json:"weapons"`
			Armor   []armorJSON  `json:"armor"`
		}{weaponsOf(ed), armorOf(ed)})
	}
	if err := printWeapons(a, ed, false); err != nil {
		return err
	}
	a.out.printf("\n")
	return printArmor(a, ed, false)
}

func printSkills(a *app, ed rules.Edition, asJSON bool) error {
	price := rules.SkillPrice(ed, 0)
	var out []skillJSON
	for _, s := range rules.SkillCatalogue(ed) {
		aliases := []string{}
		for _, al := range s.Aliases {
			if !strings.EqualFold(al, s.NameIn(ed)) {
				aliases = append(aliases, al)
			}
		}
		if ed != rules.Edition2010 && s.Name2010 != "" {
			aliases = append(aliases, s.Name2010)
		} else if ed == rules.Edition2010 && s.Name2010 != "" {
			aliases = append(aliases, s.Name)
		}
		out = append(out, skillJSON{Key: s.Key, Name: s.NameIn(ed), Category: string(s.Category), Attribute: string(s.Attribute),
			Combat: s.Combat(), PriceXP: price.XP, Formula: price.Formula, Aliases: aliases})
	}
	if asJSON {
		return a.out.json(out)
	}
	a.out.printf("%s\n", a.out.heading(fmt.Sprintf("Skills, edition %s: %s; at most %d combat points at creation", ed, price.Formula, rules.CreationCombatSkillPoints)))
	rows := make([][]string, 0, len(out))
	for _, s := range out {
		rows = append(rows, []string{s.Name, s.Category, s.Attribute, strings.Join(s.Aliases, ", ")})
	}
	a.out.table([]string{"SKILL", "CATEGORY", "ATTR", "ALSO"}, rows)
	return nil
}

func weaponsOf(ed rules.Edition) []weaponJSON {
	var out []weaponJSON
	for _, w := range rules.Weapons(ed) {
		dmg := "none"
		if w.Damage != nil {
			dmg = w.Damage.String()
		}
		flags := []string{}
		for _, f := range w.Flags {
			flags = append(flags, string(f))
		}
		out = append(out, weaponJSON{Key: w.Key, Name: w.Name, Label: w.Label, Category: w.Category, Damage: dmg, Heft: w.Heft,
			Flags: flags, Skill: w.SkillKey, Bullets: w.Missile})
	}
	return out
}

func printWeapons(a *app, ed rules.Edition, asJSON bool) error {
	out := weaponsOf(ed)
	if asJSON {
		return a.out.json(out)
	}
	a.out.printf("%s\n", a.out.heading(fmt.Sprintf("Weapons, edition %s", ed)))
	rows := make([][]string, 0, len(out))
	for _, w := range out {
		heft := "-"
		if w.Heft > 0 {
			heft = strconv.Itoa(w.Heft)
		}
		rows = append(rows, []string{w.Label, w.Category, w.Damage, heft, w.Skill})
	}
	a.out.table([]string{"WEAPON", "KIND", "DAMAGE", "HEFT", "SKILL"}, rows)
	return nil
}

func armorOf(ed rules.Edition) []armorJSON {
	var out []armorJSON
	for _, r := range rules.Armors(ed) {
		out = append(out, armorJSON{Key: r.Key, Name: r.Name, Label: r.Label, Protection: r.Protection, Restriction: r.Restriction, NoBullets: r.NoBullets, SpaceSuit: r.SpaceSuit})
	}
	return out
}

func printArmor(a *app, ed rules.Edition, asJSON bool) error {
	out := armorOf(ed)
	if asJSON {
		return a.out.json(out)
	}
	a.out.printf("%s\n", a.out.heading(fmt.Sprintf("Armour, edition %s", ed)))
	rows := make([][]string, 0, len(out))
	for _, r := range out {
		var notes []string
		if r.NoBullets {
			notes = append(notes, "no protection from bullets")
		}
		if r.SpaceSuit {
			notes = append(notes, "space suit: fails on all sixes")
		}
		rows = append(rows, []string{r.Label, strconv.Itoa(r.Protection), strconv.Itoa(r.Restriction), strings.Join(notes, "; ")})
	}
	a.out.table([]string{"ARMOUR", "PROTECTION", "RESTRICTION", "NOTES"}, rows)
	return nil
}
