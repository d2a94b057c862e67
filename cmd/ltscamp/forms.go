package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"charm.land/huh/v2"
	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// Forms ask, on a terminal, for what a command was not given. They run only
// when stdin and stdout are terminals and --no-input is not set, and they
// talk to the terminal only once shown. ACCESSIBLE=1 asks line by line.

// canAsk reports whether a form may be shown, and if not, why.
func (a *app) canAsk() (bool, string) {
	switch {
	case a.noInput:
		return false, "--no-input is set"
	case a.env.formsOff != "":
		return false, a.env.formsOff
	case !a.env.StdinTTY || !a.env.StdoutTTY:
		return false, "there is no terminal to ask in"
	}
	return true, ""
}

// form wraps fields in a form on the app's streams.
func (a *app) form(groups ...*huh.Group) *huh.Form {
	return huh.NewForm(groups...).WithInput(a.env.Stdin).WithOutput(a.env.Stdout).WithAccessible(a.env.Getenv("ACCESSIBLE") != "")
}

// maxCreationAttribute is the most any attribute of a new character can be:
// the others at their minimum.
const maxCreationAttribute = rules.CreationPoints - 2*rules.MinAttribute

// charValues are the char new form's fields as typed.
type charValues struct {
	Name, ST, DX, IQ string
	Skills           []string
}

// charForm asks for the missing values of a new character: empty fields
// with placeholders, each attribute within its bounds, a live count of the
// 32 points, then the skills picked from the edition's catalogue and their
// levels.
func charForm(a *app, ed rules.Edition, cmd *cobra.Command, o *charNewOptions) error {
	v := &charValues{Name: o.name}
	for _, f := range []struct {
		flag string
		dst  *string
		val  int
	}{{"st", &v.ST, o.st}, {"dx", &v.DX, o.dx}, {"iq", &v.IQ, o.iq}} {
		if cmd.Flags().Changed(f.flag) {
			*f.dst = strconv.Itoa(f.val)
		}
	}
	accessible := a.env.Getenv("ACCESSIBLE") != ""
	name, attrs, skills := charFields(ed, v, !accessible)
	if !accessible {
		// One form: Shift+Tab on the skills page goes back to the
		// attributes, which cannot be left with the points misplaced.
		if err := a.form(attrPage(ed, append([]huh.Field{name}, attrs...)...), huh.NewGroup(skills)).Run(); err != nil {
			return usagef("the form was not completed: %v", err)
		}
	} else {
		// Line by line there is no going back: the attributes are asked
		// again until their points add up, or until a round changes
		// nothing (the input has ended).
		page := append([]huh.Field{name}, attrs...)
		for {
			before := *v
			if err := a.form(attrPage(ed, page...)).Run(); err != nil {
				return usagef("the form was not completed: %v", err)
			}
			if rules.CreationPointsLeft(v.attributes()) == 0 {
				break
			}
			if v.ST == before.ST && v.DX == before.DX && v.IQ == before.IQ {
				return usagef("the form was not completed: %s", pointBudget(v.attributes()))
			}
			fmt.Fprintf(a.env.Stdout, "Points: %s; give ST, DX and IQ again\n", pointBudget(v.attributes()))
			page = attrs
		}
		if err := a.form(huh.NewGroup(skills)).Run(); err != nil {
			return usagef("the form was not completed: %v", err)
		}
	}
	levels, err := skillLevelsForm(a, ed, v, v.attributes())
	if err != nil {
		return err
	}
	o.name = strings.TrimSpace(v.Name)
	at := v.attributes()
	o.st, o.dx, o.iq = at.ST, at.DX, at.IQ
	o.skills = levels
	return nil
}

// attributes are the attributes as typed, 0 for one not a number.
func (v *charValues) attributes() rules.Attributes {
	st, _ := strconv.Atoi(strings.TrimSpace(v.ST))
	dx, _ := strconv.Atoi(strings.TrimSpace(v.DX))
	iq, _ := strconv.Atoi(strings.TrimSpace(v.IQ))
	return rules.Attributes{ST: st, DX: dx, IQ: iq}
}

// charFields are the char new form's fields: the name, the attributes
// with the live count of the points, and the skills. With total, IQ (the
// last attribute) is refused until the points add up to the budget, so
// that the attributes page cannot be left with points misplaced; Shift+Tab
// still goes back from IQ to fix ST or DX. The skills field checks nothing
// of the attributes: a check there would stop Shift+Tab too (huh validates
// a multi-select before going back), and leave only Ctrl-C.
func charFields(ed rules.Edition, v *charValues, total bool) (name huh.Field, attrs []huh.Field, skills huh.Field) {
	budget := func() string { return pointBudget(v.attributes()) }
	attr := func(name, what string, dst *string, last bool) *huh.Input {
		return huh.NewInput().Key(strings.ToLower(name)).Title(name).Description(what).Value(dst).
			Placeholder(fmt.Sprintf("%d–%d", rules.MinAttribute, maxCreationAttribute)).
			Validate(func(s string) error {
				n, err := rules.ParseAttributeValue(strings.TrimSpace(s))
				if err != nil {
					return err
				}
				if n > maxCreationAttribute {
					return fmt.Errorf("%s %d: at most %d, with the others at %d", name, n, maxCreationAttribute, rules.MinAttribute)
				}
				if at := v.attributes(); last && total {
					at.IQ = n // the value being checked, whether or not stored yet
					if rules.CreationPointsLeft(at) != 0 {
						return fmt.Errorf("%s: shift+tab goes back to ST and DX", pointBudget(at))
					}
				}
				return nil
			})
	}
	var options []huh.Option[string]
	for _, sk := range rules.SkillCatalogue(ed) {
		label := fmt.Sprintf("%s (%s)", sk.NameIn(ed), sk.Category)
		options = append(options, huh.NewOption(label, sk.NameIn(ed)))
	}
	name = huh.NewInput().Key("name").Title("Name").Value(&v.Name).Placeholder("a name, spaces allowed").Validate(func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("a character needs a name")
		}
		if strings.ContainsAny(s, ":,") {
			return fmt.Errorf("a name may not contain ':' or ','")
		}
		return nil
	})
	attrs = []huh.Field{
		attr("ST", "strength: damage dealt and survived", &v.ST, false),
		attr("DX", "dexterity: hitting and dodging", &v.DX, false),
		attr("IQ", "intelligence: applying skills", &v.IQ, true),
		liveNote{huh.NewNote().Title("Points").DescriptionFunc(budget, v), "Points", budget},
	}
	skills = huh.NewMultiSelect[string]().Key("skills").Title("Skills").
		Description(fmt.Sprintf("Up to %d skill points in all, at most %d in combat skills; space picks, enter goes on, shift+tab goes back.", rules.CreationSkillPoints, rules.CreationCombatSkillPoints)).
		Options(options...).Value(&v.Skills).Limit(rules.CreationSkillPoints)
	return name, attrs, skills
}

// attrPage is the form's first page, titled with the edition and the
// points budget.
func attrPage(ed rules.Edition, fields ...huh.Field) *huh.Group {
	return huh.NewGroup(fields...).Title(fmt.Sprintf("New character (edition %s)", ed)).
		Description(fmt.Sprintf("ST, DX and IQ are each %d or more and add up to %d.", rules.MinAttribute, rules.CreationPoints))
}

// liveNote is a note whose text follows the fields before it, in the
// accessible mode too: huh's accessible note prints only a text computed
// by the interactive form, so this one computes it when it is reached.
type liveNote struct {
	*huh.Note
	title string
	text  func() string
}

// RunAccessible prints the note's title and its text as it is now.
func (n liveNote) RunAccessible(w io.Writer, _ io.Reader) error {
	_, err := fmt.Fprintf(w, "%s: %s\n", n.title, n.text())
	return err
}

// pointBudget is the live count of the creation points.
func pointBudget(a rules.Attributes) string {
	left := rules.CreationPointsLeft(a)
	switch {
	case left > 0:
		return fmt.Sprintf("%d of %d points placed, %d left", rules.CreationPoints-left, rules.CreationPoints, left)
	case left < 0:
		return fmt.Sprintf("%d of %d points placed: %d too many", rules.CreationPoints-left, rules.CreationPoints, -left)
	}
	return fmt.Sprintf("all %d points placed", rules.CreationPoints)
}

// skillLevelsForm asks the level of each skill picked, and checks the
// whole character by the rules; it returns the skills as Name:Level.
func skillLevelsForm(a *app, ed rules.Edition, v *charValues, at rules.Attributes) ([]string, error) {
	if len(v.Skills) == 0 {
		return nil, nil
	}
	levels := make([]string, len(v.Skills))
	var fields []huh.Field
	specs := func() []string {
		out := make([]string, len(v.Skills))
		for i, name := range v.Skills {
			out[i] = name + ":" + levels[i]
		}
		return out
	}
	check := func() error {
		skills, err := campaign.ParseSkills(ed, specs())
		if err != nil {
			return err
		}
		return rules.ValidateNewCharacter(ed, v.Name, at, skills)
	}
	for i, name := range v.Skills {
		levels[i] = "1"
		fields = append(fields, huh.NewSelect[string]().Title(name).
			Options(huh.NewOptions("1", "2", "3", "4")...).Value(&levels[i]).
			Validate(func(string) error { return check() }))
	}
	placed := func() string {
		total := 0
		for _, l := range levels {
			n, _ := strconv.Atoi(l)
			total += n
		}
		return fmt.Sprintf("%d of %d placed", total, rules.CreationSkillPoints)
	}
	fields = append(fields, liveNote{huh.NewNote().Title("Skill points").DescriptionFunc(placed, &levels), "Skill points", placed})
	if err := a.form(huh.NewGroup(fields...).Title("Skill levels")).Run(); err != nil {
		return nil, usagef("the form was not completed: %v", err)
	}
	return specs(), check()
}

// spendForm asks what to raise with XP: only what the character can
// afford, each with its price and the balance after.
func spendForm(a *app, s *campaign.Service, name string) (string, error) {
	buys, sh, err := s.Purchases(name)
	if err != nil {
		return "", err
	}
	var options []huh.Option[string]
	cheapest := -1
	for i, b := range buys {
		if cheapest < 0 || b.Price < buys[cheapest].Price {
			cheapest = i
		}
		if !b.Affordable {
			continue
		}
		label := fmt.Sprintf("%-22s %d→%d for %d XP, %d left", strings.TrimPrefix(b.Target, "skill:"), b.From, b.To, b.Price, sh.XP.Unspent-b.Price)
		options = append(options, huh.NewOption(label, b.Target))
	}
	if len(options) == 0 {
		if cheapest < 0 {
			return "", rules.Errorf(rules.CodeRule, "%s can raise nothing now", sh.Name)
		}
		c := buys[cheapest]
		return "", rules.Errorf(rules.CodeRule, "%s has %d XP unspent, and nothing costs so little: the cheapest is %s for %d", sh.Name, sh.XP.Unspent, c.Target, c.Price)
	}
	var target string
	err = a.form(huh.NewGroup(huh.NewSelect[string]().
		Title(fmt.Sprintf("Raise what? %s has %d XP unspent (edition %s)", sh.Name, sh.XP.Unspent, sh.Edition)).
		Options(options...).Value(&target))).Run()
	if err != nil {
		return "", usagef("the form was not completed: %v", err)
	}
	return target, nil
}

// encounterEndForm asks how the encounter ended, and a plotword the party
// acquired in it, if any.
func encounterEndForm(a *app, outcome, plotword *string) error {
	err := a.form(huh.NewGroup(
		huh.NewSelect[string]().Title("How did the encounter end?").Options(
			huh.NewOption("victory: each contributor gets 1 XP", campaign.OutcomeVictory),
			huh.NewOption("fled: no XP", campaign.OutcomeFled),
			huh.NewOption("other", campaign.OutcomeOther),
		).Value(outcome),
		huh.NewInput().Title("Plotword").Description("a plotword the party acquired, if any (+1 XP each)").Placeholder("none").Value(plotword),
	)).Run()
	if err != nil {
		return usagef("the form was not completed: %v", err)
	}
	*plotword = strings.TrimSpace(*plotword)
	return nil
}
