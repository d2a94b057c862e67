package web_test

import (
	"fmt"
	"math/rand"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// The property: whatever the campaign, no page a player's link reaches
// shows what only the GM may see (a foe's attributes or skills, another
// player's skills, XP or karma, the GM's notes, the log), and the GM's link
// shows all of it. Campaigns are drawn at random from seeds: names of every
// script, foes of any attributes and skills, awards, spends, karma, rolls,
// contests and attacks between everyone, notes.

// htNames are the beginnings of the names drawn: unusual Unicode, markup,
// quotes, scripts written right to left, astral letters.
var htNames = []string{
	"Kira", "Zoë", "Þórr", "Ñandú", "李雷", "Кира", "O'Brien", `"Ace"`, "<b>Bold</b>",
	"Jean-Luc", "ʻIolani", "𝔊𝔯𝔢𝔤", "🚀 Rex", "A&B", "عمر", "Ævar Ødegård", "<script>x</script>",
	"Ἀχιλλεύς", "Ṩtella", "ﬁne", "Dr. No", "Ünal", "Ω", "ß-Bär", "Ǆemal", "नमस्ते",
}

// htTags tell names apart: each name ends with three of these letters,
// which no template or skill holds.
const htTags = "ⴰⴱⴳⴷⴹⴻⴼⴽⵀⵃⵄⵅⵇⵉⵊⵍⵎⵏⵓⵔⵕⵖⵙⵚⵛⵜⵟⵡⵢⵣⵥ"

// htWorld is a random campaign and what each one in it owns.
type htWorld struct {
	c       *htCampaign
	players []string
	foes    []string
	// skills are the skill names of each player and foe.
	skills map[string][]string
	// marks are the texts only the GM and the character they name may
	// see (his XP's and karma's reasons); notes only the GM.
	marks map[string][]string
	notes []string
	// foeStats are the foes' stat lines, as the log writes them.
	foeStats map[string]string
	// done counts the commands of each kind that were recorded.
	done map[string]int
}

// htRandomWorld draws a campaign from seed.
func htRandomWorld(t *testing.T, seed int64) *htWorld {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	tags := []rune(htTags)
	tagged := 0
	used := map[string]bool{}
	var names []string
	name := func() string {
		for {
			tagged++
			tag := string([]rune{tags[tagged%len(tags)], tags[(tagged/len(tags))%len(tags)], tags[rng.Intn(len(tags))]})
			n := htNames[rng.Intn(len(htNames))] + " " + tag
			ok := !used[n]
			for _, o := range names {
				if strings.Contains(o, n) || strings.Contains(n, o) {
					ok = false
				}
			}
			if ok {
				used[n] = true
				names = append(names, n)
				return n
			}
		}
	}
	marks := 0
	mark := func(what string) string {
		marks++
		// A sentence with a marker no other text holds.
		return fmt.Sprintf("%s «%s» ⁂%dⵣ%d", what, htNames[rng.Intn(len(htNames))], seed, marks)
	}
	c := htCreate(t, htNames[rng.Intn(len(htNames))]+" campaign", seed)
	w := &htWorld{c: c, skills: map[string][]string{}, marks: map[string][]string{}, foeStats: map[string]string{}, done: map[string]int{}}
	catalogue := rules.SkillCatalogue(rules.Edition2021)
	try := func(kind string, err error) {
		if err == nil {
			w.done[kind]++
			return
		}
		if code := rules.CodeOf(err); code == rules.CodeInternal || code == "" {
			t.Fatalf("seed %d: %s: %v", seed, kind, err)
		}
		// The rules refused it (not enough XP, a dead attacker...):
		// the campaign goes on, as at the table.
		t.Logf("seed %d: %s refused: %v", seed, kind, err)
	}

	// The party: attributes of 32 points, 8 to 16 each; up to 4 skill
	// points, 2 of them in combat skills.
	for range 2 + rng.Intn(3) {
		n := name()
		a := [3]int{8, 8, 8}
		for left := 8; left > 0; {
			i := rng.Intn(3)
			if a[i] < 16 {
				a[i]++
				left--
			}
		}
		var specs []string
		points, combat := 0, 0
		for _, i := range rng.Perm(len(catalogue))[:rng.Intn(4)] {
			sk := catalogue[i]
			lvl := 1 + rng.Intn(2)
			if points+lvl > rules.CreationSkillPoints || sk.Combat() && combat+lvl > rules.CreationCombatSkillPoints {
				continue
			}
			points += lvl
			if sk.Combat() {
				combat += lvl
			}
			specs = append(specs, fmt.Sprintf("%s:%d", sk.Name, lvl))
			w.skills[n] = append(w.skills[n], sk.Name)
		}
		c.char(n, a[0], a[1], a[2], specs...)
		w.players = append(w.players, n)
	}
	// Some wield a weapon and wear armour (the party's public parts).
	weapons, armors := rules.Weapons(rules.Edition2021), rules.Armors(rules.Edition2021)
	for _, p := range w.players {
		if rng.Intn(2) == 0 {
			_, err := c.svc.Equip(p, campaign.SlotWeapon, weapons[rng.Intn(len(weapons))].Name, false)
			try("equip", err)
		}
		if rng.Intn(2) == 0 {
			_, err := c.svc.Equip(p, campaign.SlotArmor, armors[rng.Intn(len(armors))].Name, false)
			try("equip", err)
		}
	}
	// XP awarded, spent, karma: each reason marked.
	for _, p := range w.players {
		for range 1 + rng.Intn(3) {
			m := mark("xp for " + p)
			w.marks[p] = append(w.marks[p], m)
			_, err := c.svc.AwardXP([]string{p}, 5+rng.Intn(40), m)
			try("award", err)
		}
		if rng.Intn(2) == 0 {
			m := mark("karma for " + p)
			w.marks[p] = append(w.marks[p], m)
			_, err := c.svc.GrantKarma(p, 1+rng.Intn(3), m)
			try("karma", err)
		}
		targets := []string{"ST", "DX", "IQ"}
		targets = append(targets, w.skills[p]...)
		for range rng.Intn(3) {
			_, err := c.svc.SpendXP(campaign.Spend{Character: p, Target: targets[rng.Intn(len(targets))], Levels: 1})
			try("spend", err)
		}
	}
	_, err := c.svc.AdventureStart(mark("adventure"))
	c.must(err)
	_, err = c.svc.EncounterStart("")
	c.must(err)
	// Foes: any attributes, any skills of the catalogue.
	for range 1 + rng.Intn(3) {
		n := name()
		st, dx, iq := 1+rng.Intn(99), 1+rng.Intn(99), 1+rng.Intn(99)
		var specs []string
		for _, i := range rng.Perm(len(catalogue))[:1+rng.Intn(3)] {
			lvl := 1 + rng.Intn(5)
			specs = append(specs, fmt.Sprintf("%s:%d", catalogue[i].Name, lvl))
			w.skills[n] = append(w.skills[n], catalogue[i].Name)
		}
		nf := campaign.NewFoe{Name: n, Attributes: rules.Attributes{ST: st, DX: dx, IQ: iq}, Skills: specs}
		if rng.Intn(2) == 0 {
			nf.Weapon = weapons[rng.Intn(len(weapons))].Name
		}
		if rng.Intn(2) == 0 {
			nf.Armor = []string{armors[rng.Intn(len(armors))].Name}
		}
		sh, err := c.svc.AddFoe(nf)
		if try("foe's gear", err); err != nil {
			nf.Weapon, nf.Armor = "", nil // too heavy for him
			sh, err = c.svc.AddFoe(nf)
			c.must(err)
		}
		c.ids[sh.Name] = sh.ID
		w.foes = append(w.foes, n)
		w.foeStats[n] = fmt.Sprintf("ST%d DX%d IQ%d", st, dx, iq)
	}
	everyone := append(append([]string{}, w.players...), w.foes...)
	attr := func() string { return []string{"ST", "DX", "IQ"}[rng.Intn(3)] }
	side := func(who string) string {
		s := who + ":" + attr()
		if sk := w.skills[who]; len(sk) > 0 && rng.Intn(2) == 0 {
			s += "+" + sk[rng.Intn(len(sk))]
		}
		return s
	}
	// Rolls, contests, attacks and tackles, between anyone.
	for range 4 + rng.Intn(8) {
		a := everyone[rng.Intn(len(everyone))]
		b := everyone[rng.Intn(len(everyone))]
		switch rng.Intn(4) {
		case 0:
			expr := "3/" + attr()
			if sk := w.skills[a]; len(sk) > 0 && rng.Intn(2) == 0 {
				expr += "+" + sk[rng.Intn(len(sk))]
			}
			_, err := c.svc.Roll(campaign.RollRequest{Expr: expr, Character: a, Reason: mark("roll")})
			try("roll", err)
		case 1:
			if a == b {
				continue
			}
			_, err := c.svc.Contest(campaign.ContestRequest{Sides: [2]string{side(a), side(b)}})
			try("contest", err)
		case 2:
			if a == b {
				continue
			}
			_, err := c.svc.Attack(campaign.AttackRequest{Attacker: a, Target: b})
			try("attack", err)
		case 3:
			if a == b {
				continue
			}
			_, err := c.svc.Tackle(campaign.TackleRequest{Tackler: a, Foe: b})
			try("tackle", err)
		}
	}
	for range 1 + rng.Intn(3) {
		m := mark("note")
		w.notes = append(w.notes, m)
		_, _, err := c.svc.Note(m)
		c.must(err)
	}
	c.shareGM()
	for _, p := range w.players {
		c.sharePlayer(p)
	}
	return w
}

// TestNoPlayerLinkReachesWhatIsTheGMs draws campaigns and, for every
// player's link, reads every page reachable from its index and every path
// of the GM or of another character tried directly; none shows what the
// GM alone may see. The GM's link shows it all.
func TestNoPlayerLinkReachesWhatIsTheGMs(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	if testing.Short() {
		seeds = seeds[:3]
	}
	done := map[string]int{}
	for _, seed := range seeds {
		w := htRandomWorld(t, seed)
		for k, n := range w.done {
			done[k] += n
		}
		srv := htServe(t, &htClock{t: htStart}, w.c.path)
		for _, p := range w.players {
			htCheckPlayer(t, srv, w, p)
		}
		htCheckGM(t, srv, w)
	}
	// The campaigns held every kind of command.
	for _, kind := range []string{"award", "karma", "spend", "roll", "contest", "attack", "tackle", "equip"} {
		if done[kind] == 0 {
			t.Errorf("no %s was recorded in the campaigns drawn: the property did not meet one", kind)
		}
	}
	t.Logf("commands recorded: %v", done)
}

// htCheckPlayer checks what player p's link shows.
func htCheckPlayer(t *testing.T, srv http.Handler, w *htWorld, p string) {
	t.Helper()
	base := htBase(w.c.players[p])
	pages := htCrawl(t, srv, base)
	// The GM's paths and the other characters' pages, tried directly.
	direct := []string{"log", "timeline", "timeline?rolls=1", "log?page=1", "sheet/", "audit/", "rolls/", "sheet", "live/x",
		"audit/" + w.c.ids[p] + "/x", "sheet/" + w.c.ids[p] + "/" + w.c.ids[p], "sheet/" + strings.ToLower(w.c.ids[p])}
	for _, o := range append(append([]string{}, w.players...), w.foes...) {
		if o == p {
			continue
		}
		id := w.c.ids[o]
		direct = append(direct, "sheet/"+id, "audit/"+id, "rolls/"+id, "audit/"+id+"?page=1", "sheet/"+id+"?gm=1")
	}
	for _, d := range direct {
		u := base + d
		r := htGet(srv, u)
		if r.Status != http.StatusNotFound {
			t.Errorf("%s's link: GET %s: %d, want 404", p, d, r.Status)
		}
		pages[u] = r
	}
	for _, want := range []string{"", "sheet/" + w.c.ids[p], "audit/" + w.c.ids[p], "rolls/" + w.c.ids[p]} {
		if r, ok := pages[base+want]; !ok || r.Status != http.StatusOK {
			t.Errorf("%s's link does not reach its own %q", p, want)
		}
	}
	// A skill of another is not to be seen, unless its name is in what p
	// may see: his own skills, the party's gear.
	own := strings.Join(w.skills[p], "\n")
	for _, o := range w.players {
		own += "\n" + strings.Join(htPublicRow(t, w, o), "\n")
	}
	for u, r := range pages {
		where := fmt.Sprintf("%s's link, %s", p, strings.TrimPrefix(u, base))
		text := htText(r.Body)
		htNoGoText(t, where, r.Body)
		for _, n := range w.notes {
			if strings.Contains(text, n) {
				t.Errorf("%s: shows the GM's note %q", where, n)
			}
		}
		if strings.Contains(u, "/log") || strings.Contains(text, "<h1>The log</h1>") || strings.Contains(text, "<h1>Timeline</h1>") {
			if r.Status == http.StatusOK {
				t.Errorf("%s: a page of the GM's", where)
			}
		}
		for _, o := range append(append([]string{}, w.players...), w.foes...) {
			if o == p {
				continue
			}
			for _, m := range w.marks[o] {
				if strings.Contains(text, m) {
					t.Errorf("%s: shows %s's %q", where, o, m)
				}
			}
			// "with Unarmed" names p's own bare hands in his attacks.
			bare := strings.ReplaceAll(text, " with Unarmed: ", " ")
			for _, sk := range w.skills[o] {
				if !strings.Contains(own, sk) && strings.Contains(bare, sk) {
					t.Errorf("%s: shows %s's skill %s", where, o, sk)
				}
			}
		}
		for _, f := range w.foes {
			if strings.Contains(text, w.foeStats[f]) {
				t.Errorf("%s: shows the foe %s's attributes %s", where, f, w.foeStats[f])
			}
		}
		htCheckNamed(t, where, text, strings.Contains(u, "/rolls/"), w, p)
	}
}

// htCheckNamed checks where a page of p's link names the others: a foe in
// the list of foes with his condition, another player in the party's
// table, and either in p's own rolls (on his rolls page), where only p's
// side of a roll shows its target: the other side's would tell a foe's
// attributes and skills or another player's skill levels.
func htCheckNamed(t *testing.T, where, text string, rolls bool, w *htWorld, p string) {
	t.Helper()
	var segments []string
	for _, tr := range strings.Split(text, "<tr") {
		segments = append(segments, strings.Split(tr, "<li")...)
	}
	for _, o := range append(append([]string{}, w.players...), w.foes...) {
		if o == p {
			continue
		}
		_, foe := w.foeStats[o]
		leak := regexp.MustCompile(regexp.QuoteMeta(o) + ` (rolled \d+ on|attacks .* vs \d)|DX \d+ vs \d`)
		for _, seg := range segments {
			if !strings.Contains(seg, o) {
				continue
			}
			switch {
			case foe && (strings.HasPrefix(seg, ">"+o+": <strong>ok</strong></li>") || strings.HasPrefix(seg, ">"+o+": <strong>hurt</strong></li>") || strings.HasPrefix(seg, ">"+o+": <strong>down</strong></li>")):
			case !foe && strings.HasPrefix(seg, ">\n<td>"+o+"</td>"):
				// His row in the party's table: his public parts and
				// nothing else.
				var cells []string
				for _, m := range htCellRE.FindAllStringSubmatch(seg, -1) {
					cells = append(cells, m[1])
				}
				if want := htPublicRow(t, w, o); !slices.Equal(cells, want) {
					t.Errorf("%s: the party's row of %s is %q, want his public parts %q", where, o, cells, want)
				}
			case rolls && strings.Contains(seg, p):
				if m := leak.FindString(seg); m != "" {
					t.Errorf("%s: tells the target of %s's side (%q):\n\t%s", where, o, m, seg)
				}
			default:
				t.Errorf("%s: names %s outside the party, the foes and %s's own rolls:\n\t%s", where, o, p, htCut(seg, o))
			}
		}
	}
}

// htCheckGM checks that the GM's link shows all that players' links hide.
func htCheckGM(t *testing.T, srv http.Handler, w *htWorld) {
	t.Helper()
	base := htBase(w.c.gm)
	pages := htCrawl(t, srv, base)
	var all strings.Builder
	for _, r := range pages {
		all.WriteString(htText(r.Body))
	}
	text := all.String()
	for _, want := range []string{"log", "timeline", "timeline?rolls=1"} {
		if r, ok := pages[base+want]; !ok || r.Status != http.StatusOK {
			t.Errorf("the GM's link does not reach %s", want)
		}
	}
	for _, o := range append(append([]string{}, w.players...), w.foes...) {
		for _, p := range []string{"sheet/"} {
			if r, ok := pages[base+p+w.c.ids[o]]; !ok || r.Status != http.StatusOK {
				t.Errorf("the GM's link does not reach %s%s (%s)", p, w.c.ids[o], o)
			}
		}
		for _, m := range w.marks[o] {
			if !strings.Contains(text, m) {
				t.Errorf("the GM's link does not show %s's %q", o, m)
			}
		}
		for _, sk := range w.skills[o] {
			if !strings.Contains(htText(pages[base+"sheet/"+w.c.ids[o]].Body), sk) {
				t.Errorf("the GM's sheet of %s does not show his skill %s", o, sk)
			}
		}
	}
	for _, f := range w.foes {
		if !strings.Contains(text, w.foeStats[f]) {
			t.Errorf("the GM's link does not show the foe %s's %s", f, w.foeStats[f])
		}
	}
	for _, n := range w.notes {
		if !strings.Contains(text, n) {
			t.Errorf("the GM's link does not show the note %q", n)
		}
	}
}

var htCellRE = regexp.MustCompile(`<td[^>]*>(.*?)</td>`)

// htPublicRow is what the party's table may show of player o: his name,
// attributes, armour, weapon, damage, fatigue and status.
func htPublicRow(t *testing.T, w *htWorld, o string) []string {
	t.Helper()
	sh, err := w.c.svc.Sheet(o)
	w.c.must(err)
	dx := fmt.Sprint(sh.Attributes.DX)
	if sh.Adjusted.DX != sh.Attributes.DX {
		dx += fmt.Sprintf(" (%d)", sh.Adjusted.DX)
	}
	armor, weapon := "none", "unarmed"
	if sh.Armor != nil {
		armor = fmt.Sprintf("%s (%d)", sh.Armor.Name, sh.Armor.Protection)
	}
	if sh.Weapon != nil {
		weapon = sh.Weapon.Name
	}
	st := sh.Attributes.ST
	// In the order of `ltscamp party` and the Markdown export.
	return []string{sh.Name, sh.Status, fmt.Sprint(st), dx, fmt.Sprint(sh.Attributes.IQ),
		fmt.Sprintf("%d/%d", sh.Damage, st), fmt.Sprintf("%d/%d", sh.Fatigue, st), armor, weapon}
}

// htCut cuts a long text around s, for a message.
func htCut(text, s string) string {
	if utf8.RuneCountInString(text) <= 400 {
		return text
	}
	i := max(strings.Index(text, s), 0)
	return strings.ToValidUTF8(text[max(0, i-200):min(len(text), i+200)], "…")
}
