package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// pages holds the parsed templates: one set per page, each with the
// layout.
type pages struct {
	byName map[string]*template.Template
	plainT *template.Template
	// audits are the XP audits folded, by what they depend on (auditKey):
	// a write to another stream leaves an audit as it was, and it is not
	// folded again (a long character's takes a tenth of a second).
	auditsMu sync.Mutex
	audits   map[string]keptAudit
}

// keptAudit is a character's audit as last folded, and the key of what it
// was folded from: one a character, the latest.
type keptAudit struct {
	key   string
	audit projections.XPAudit
}

func newPages() (*pages, error) {
	funcs := template.FuncMap{
		"join":   func(sep string, list []string) string { return strings.Join(list, sep) },
		"time":   func(t time.Time) string { return t.UTC().Format(time.DateTime) },
		"signed": func(n int) string { return fmt.Sprintf("%+d", n) },
	}
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	p := &pages{byName: map[string]*template.Template{}, plainT: layout}
	for _, name := range []string{"index", "sheet", "audit", "events", "timeline", "ships"} {
		t, err := template.Must(layout.Clone()).ParseFS(templateFiles, "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		p.byName[name] = t
	}
	return p, nil
}

// plain writes a page of one sentence.
func (p *pages) plain(w io.Writer, status int, msg string) {
	title := http.StatusText(status)
	if status == http.StatusOK {
		title = "A campaign's pages"
	}
	_ = p.plainT.ExecuteTemplate(w, "plain", struct{ Title, Message string }{title, msg})
}

// campaigns writes the campaign index of a browser's links.
func (p *pages) campaigns(w io.Writer, entries []indexEntry) {
	_ = p.plainT.ExecuteTemplate(w, "campaigns", entries)
}

// static serves the style sheet and the live script.
func (p *pages) static(w http.ResponseWriter, r *http.Request, name string) {
	if name != "style.css" && name != "live.js" {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(staticFiles, "static/"+name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ct := "text/css; charset=utf-8"
	if path.Ext(name) == ".js" {
		ct = "text/javascript; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	if r.Method == http.MethodGet {
		w.Write(b)
	}
}

// link is a link on a page.
type link struct {
	Href, Text string
	Here       bool
}

// frame is what the layout shows around a page's content.
type frame struct {
	Title string
	Trace exports.Trace
	Clock string
	Base  string
	Nav   []link
	GM    bool
	// Scope says whose link it is, in the footer.
	Scope string
	Data  any
}

// errNotFound is a page the viewer may not see, or that is not there:
// both answer 404, so that a link tells nothing of what it cannot open.
var errNotFound = errors.New("no such page")

// page renders the page at p (below the link's path) for viewer v.
func (p *pages) page(s *campaign.Service, v viewer, at string, q url.Values, now time.Time) ([]byte, int, error) {
	point, err := s.Point("")
	if err != nil {
		return nil, 0, err
	}
	f := frame{
		Trace: exports.Trace{Campaign: point.Campaign.Name, CampaignID: point.CampaignID, Edition: point.Campaign.Edition,
			Seq: point.Seq, Hash: point.HashHex()},
		Clock: clockText(point.Campaign),
		Base:  v.base,
		GM:    v.gm(),
		Scope: "the GM's link",
	}
	if !v.gm() {
		f.Scope = v.share.Character + "'s link"
	}
	name, err := p.fill(s, v, &f, at, q)
	if errors.Is(err, errNotFound) || rules.CodeOf(err) == rules.CodeNotFound {
		return nil, http.StatusNotFound, nil
	}
	if err != nil {
		return nil, 0, err
	}
	f.Nav = nav(v, at)
	var b bytes.Buffer
	if err := p.byName[name].ExecuteTemplate(&b, "layout", f); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), http.StatusOK, nil
}

// nav is the links every page of a viewer starts with.
func nav(v viewer, at string) []link {
	ls := []link{{Href: v.base, Text: "Party"}}
	if v.gm() {
		ls = append(ls, link{Href: v.base + "timeline", Text: "Timeline"}, link{Href: v.base + "log", Text: "Log"},
			link{Href: v.base + "ships", Text: "Ships"})
	} else {
		id := v.share.CharacterID
		ls = append(ls, link{Href: v.base + "sheet/" + id, Text: v.share.Character},
			link{Href: v.base + "audit/" + id, Text: "XP audit"},
			link{Href: v.base + "rolls/" + id, Text: "Rolls"})
	}
	for i := range ls {
		ls[i].Here = ls[i].Href == v.base+at
	}
	return ls
}

// fill fills the frame of the page at `at` and returns its template's
// name; errNotFound when the viewer may not see it.
func (p *pages) fill(s *campaign.Service, v viewer, f *frame, at string, q url.Values) (string, error) {
	kind, id, _ := strings.Cut(at, "/")
	if strings.Contains(id, "/") {
		return "", errNotFound
	}
	switch {
	case at == "":
		return "index", p.index(s, v, f)
	case kind == "sheet" && id != "":
		return "sheet", p.sheet(s, v, f, id)
	case kind == "audit" && id != "":
		return "audit", p.audit(s, v, f, id, q)
	case kind == "rolls" && id != "":
		return "events", p.rolls(s, v, f, id)
	case at == "log" && v.gm():
		return "events", p.log(s, v, f)
	case at == "timeline" && v.gm():
		return "timeline", p.timeline(s, v, f, q)
	case at == "ships" && v.gm():
		return "ships", p.ships(s, v, f)
	case kind == "ship" && id != "" && v.gm():
		return "ships", p.ship(s, f, id)
	}
	return "", errNotFound
}

// member is a party member or foe on the index page: what the viewer may
// see of him.
type member struct {
	Name, Href, Status string
	ST, DX, AdjDX, IQ  int
	Armor, Weapon      string
	Damage, Fatigue    int
	Skills, Condition  string
	Own                bool
}

func (p *pages) index(s *campaign.Service, v viewer, f *frame) error {
	party, err := s.Sheets()
	if err != nil {
		return err
	}
	foes, err := s.FoeSheets()
	if err != nil {
		return err
	}
	data := struct {
		Party, Foes []member
		FoeStats    bool
	}{FoeStats: v.gm()}
	for _, sh := range party {
		m := member{Name: sh.Name, Status: sh.Status, ST: sh.Attributes.ST, DX: sh.Attributes.DX, AdjDX: sh.Adjusted.DX,
			IQ: sh.Attributes.IQ, Armor: armorText(sh), Weapon: weaponText(sh), Damage: sh.Damage, Fatigue: sh.Fatigue, Own: v.own(sh.ID)}
		if v.full(sh.ID) {
			m.Href = v.base + "sheet/" + sh.ID
		}
		data.Party = append(data.Party, m)
	}
	for _, sh := range foes {
		if v.gm() {
			data.Foes = append(data.Foes, member{Name: sh.Name, Href: v.base + "sheet/" + sh.ID, Status: sh.Status,
				ST: sh.Attributes.ST, DX: sh.Attributes.DX, IQ: sh.Attributes.IQ, Skills: skillsText(sh), Damage: sh.Damage})
			continue
		}
		data.Foes = append(data.Foes, member{Name: sh.Name, Condition: condition(sh)})
	}
	f.Title, f.Data = "The party", data
	return nil
}

func (p *pages) sheet(s *campaign.Service, v viewer, f *frame, id string) error {
	if !v.full(id) {
		return errNotFound
	}
	sh, err := s.SheetByID(id)
	if err != nil {
		return err
	}
	data := struct {
		exports.SheetDoc
		Links []link
	}{SheetDoc: exports.SheetDoc{Trace: f.Trace, Sheet: sh}}
	if !sh.Foe {
		data.Links = []link{{Href: v.base + "audit/" + id, Text: "XP audit"}, {Href: v.base + "rolls/" + id, Text: "Rolls"}}
	}
	f.Title, f.Data = sh.Name, data
	return nil
}

// auditRowsPerPage is how many rows of an XP audit a page shows, the
// newest: a page stays small on a phone whatever the campaign's length.
const auditRowsPerPage = 100

func (p *pages) audit(s *campaign.Service, v viewer, f *frame, id string, q url.Values) error {
	if !v.full(id) {
		return errNotFound
	}
	sh, err := s.SheetByID(id)
	if err != nil {
		return err
	}
	if sh.Foe {
		return errNotFound
	}
	au, err := p.auditOf(s, f.Trace.CampaignID, sh)
	if err != nil {
		return err
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 0)
	// Pages are counted from the newest row back, each the rows that
	// fit it (newest).
	size := func(i int) int {
		r := au.Rows[i]
		n := escapedLen(r.What) + escapedLen(r.Formula) + escapedLen(r.Actor)
		if r.Rules != nil {
			n += escapedLen(r.Rules.Problem)
		}
		return n
	}
	end := len(au.Rows)
	for p := 0; p < page && end > 0; p++ {
		end -= newest(end, auditRowsPerPage, size)
	}
	if end <= 0 && page > 0 {
		return errNotFound
	}
	start := end - newest(end, auditRowsPerPage, size)
	data := struct {
		exports.AuditDoc
		Rows        []projections.XPAuditRow
		Earlier     int
		EarlierHref string
	}{AuditDoc: exports.AuditDoc{Trace: f.Trace, Audit: au}, Rows: au.Rows[start:max(end, 0)], Earlier: start}
	if start > 0 {
		data.EarlierHref = fmt.Sprintf("%saudit/%s?page=%d", v.base, id, page+1)
	}
	f.Title, f.Data = "XP audit of "+sh.Name, data
	return nil
}

// line is an event on a page of events.
type line struct {
	Seq               int64
	Recorded, At, Who string
	Text              string
	Reverted          int64
}

// eventsData is the content of a page of events.
type eventsData struct {
	Intro, Earlier string
	Lines          []line
}

// logLines is how many of the last events the log page shows, at most.
const logLines = 300

// pageBudget bounds the bytes the lines of a page of events or of the
// timeline take, their markup counted: a page shows the newest lines that
// fit, and stays within 50 KB whatever the campaign's length and texts
// (the CLI prints the rest).
const pageBudget = 40 << 10

// lineMarkup is about what a line's markup adds to its texts.
const lineMarkup = 120

// newest returns how many of the last n lines fit a page: at most limit,
// within pageBudget by size, and at least one.
func newest(n, limit int, size func(i int) int) int {
	k, total := 0, 0
	for i := n - 1; i >= 0 && k < limit; i-- {
		total += size(i) + lineMarkup
		if total > pageBudget && k > 0 {
			break
		}
		k++
	}
	return k
}

// escapedLen is the length of s escaped in a page's text.
func escapedLen(s string) int { return len(template.HTMLEscapeString(s)) + 4*strings.Count(s, "+") }

// newestLines keeps the last lines that fit a page.
func newestLines(ls []line) []line {
	return ls[len(ls)-newest(len(ls), logLines, func(i int) int {
		return escapedLen(ls[i].Text) + len(ls[i].At) + len(ls[i].Who)
	}):]
}

func (p *pages) rolls(s *campaign.Service, v viewer, f *frame, id string) error {
	if !v.full(id) {
		return errNotFound
	}
	sh, err := s.SheetByID(id)
	if err != nil {
		return err
	}
	if sh.Foe {
		return errNotFound // his rolls are in the GM's log
	}
	entries, err := s.Log(campaign.LogFilter{Character: sh.Name, Limit: logLines})
	if err != nil {
		return err
	}
	var kept []campaign.LogEntry
	for _, e := range entries {
		if strings.HasPrefix(e.Type, "roll.") || strings.HasPrefix(e.Type, "contest.") || strings.HasPrefix(e.Type, "attack.") {
			kept = append(kept, e)
		}
	}
	f.Title = "Rolls of " + sh.Name
	f.Data = eventsData{Intro: "His rolls, newest last, with their dice, targets and outcomes.", Lines: newestLines(lines(s, v, kept)),
		Earlier: "ltscamp log --char " + strconv.Quote(sh.Name)}
	return nil
}

func (p *pages) log(s *campaign.Service, v viewer, f *frame) error {
	entries, err := s.Log(campaign.LogFilter{Limit: logLines})
	if err != nil {
		return err
	}
	f.Title = "The log"
	f.Data = eventsData{Intro: "Every event, newest last, with the dice of every roll.", Lines: newestLines(lines(s, v, entries)), Earlier: "ltscamp log"}
	return nil
}

func (p *pages) timeline(s *campaign.Service, v viewer, f *frame, q url.Values) error {
	rolls := q.Get("rolls") == "1"
	// The timeline is told a day at a time, and the page holds the
	// latest entries only (a page shows at most logLines): the whole of
	// it, at 1M events, is hundreds of megabytes.
	var tl projections.Timeline
	held, all := 0, 0
	err := s.TimelineStreamOf(campaign.TimelineQuery{Rolls: rolls}, func(pd projections.TimelinePeriod, d projections.TimelineDay) error {
		if n := len(tl.Periods); n == 0 || tl.Periods[n-1].Adventure != pd.Adventure {
			pd.Days = nil
			tl.Periods = append(tl.Periods, pd)
		}
		last := &tl.Periods[len(tl.Periods)-1]
		last.Days = append(last.Days, d)
		held += len(d.Entries)
		all += len(d.Entries)
		if held >= 2*logLines {
			keepLast(&tl, logLines)
			held = logLines
		}
		return nil
	})
	if err != nil {
		return err
	}
	toggle := v.base + "timeline?rolls=1"
	if rolls {
		toggle = v.base + "timeline"
	}
	command := "ltscamp timeline"
	if rolls {
		command += " --rolls"
	}
	shown, _ := newestEntries(&tl)
	f.Title = "Timeline"
	f.Data = struct {
		exports.TimelineDoc
		Rolls      bool
		Toggle     string
		Shown, All int
		Command    string
	}{exports.TimelineDoc{Trace: f.Trace, Timeline: tl}, rolls, toggle, shown, all, command}
	return nil
}

// newestEntries keeps the last entries of tl that fit a page, in their
// periods and days, and returns how many it kept of how many.
func newestEntries(tl *projections.Timeline) (int, int) {
	type at struct{ p, d, e int }
	var all []at
	for p, period := range tl.Periods {
		for d, day := range period.Days {
			for e := range day.Entries {
				all = append(all, at{p, d, e})
			}
		}
	}
	k := newest(len(all), logLines, func(i int) int {
		a := all[i]
		return escapedLen(tl.Periods[a.p].Days[a.d].Entries[a.e].Text)
	})
	if k == len(all) {
		return k, k
	}
	first := all[len(all)-k]
	periods := tl.Periods[first.p:]
	periods[0].Days = periods[0].Days[first.d:]
	periods[0].Days[0].Entries = periods[0].Days[0].Entries[first.e:]
	tl.Periods = periods
	return k, len(all)
}

// keepLast keeps the last n entries of tl, in their periods and days,
// copied so that the earlier ones can go.
func keepLast(tl *projections.Timeline, n int) {
	var periods []projections.TimelinePeriod
	for i := len(tl.Periods) - 1; i >= 0 && n > 0; i-- {
		per := tl.Periods[i]
		var days []projections.TimelineDay
		for j := len(per.Days) - 1; j >= 0 && n > 0; j-- {
			d := per.Days[j]
			if k := len(d.Entries); k > n {
				d.Entries = slices.Clone(d.Entries[k-n:])
			}
			n -= len(d.Entries)
			days = append(days, d)
		}
		slices.Reverse(days)
		per.Days = days
		periods = append(periods, per)
	}
	slices.Reverse(periods)
	tl.Periods = periods
}

// lines describes events for a page, as viewer v may read them.
func lines(s *campaign.Service, v viewer, entries []campaign.LogEntry) []line {
	seqs := make(map[string]int64, len(entries))
	for _, e := range entries {
		seqs[e.ID] = e.Seq
	}
	seqOf := func(id string) (int64, bool) {
		if seq, ok := seqs[id]; ok {
			return seq, true
		}
		return s.SeqOf(id)
	}
	out := make([]line, 0, len(entries))
	for _, e := range entries {
		l := line{Seq: e.Seq, Recorded: e.RecordedAt.UTC().Format(time.DateTime), Text: v.lineText(e.Event, seqOf)}
		if at, ok := gameTime(e.Event); ok {
			l.At = at.String()
		}
		if e.Reverted != nil {
			l.Reverted = e.Reverted.Seq
		}
		out = append(out, l)
	}
	return out
}

func armorText(sh projections.Sheet) string {
	if sh.Armor == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%d)", sh.Armor.Name, sh.Armor.Protection)
}

func weaponText(sh projections.Sheet) string {
	if sh.Weapon == nil {
		return "unarmed"
	}
	return sh.Weapon.Name
}

func skillsText(sh projections.Sheet) string {
	parts := make([]string, 0, len(sh.Skills))
	for _, k := range sh.Skills {
		parts = append(parts, fmt.Sprintf("%s %d", k.Name, k.Level))
	}
	return strings.Join(parts, ", ")
}

// clockText is where the campaign stands in game time.
func clockText(c projections.Campaign) string {
	if !c.InAdventure {
		return "between adventures"
	}
	s := fmt.Sprintf("adventure %d, day %d", c.Adventure, c.Day)
	if c.InEncounter {
		s += fmt.Sprintf(", encounter %d", c.Encounter)
	}
	return s
}

// gameTime returns the game time an event is stamped with.
func gameTime(e events.Event) (events.GameTime, bool) {
	p, err := events.Decode(e)
	if err != nil {
		return events.GameTime{}, false
	}
	return events.GameTimeOf(p)
}

// shipsData is the content of the ships' pages: the list, or one record.
type shipsData struct {
	List     []link
	Section  *exports.ShipDoc
	Detailed *exports.DetailedShipDoc
}

func (p *pages) ships(s *campaign.Service, v viewer, f *frame) error {
	ships, err := s.Ships()
	if err != nil {
		return err
	}
	detailed, err := s.DetailedShips()
	if err != nil {
		return err
	}
	var data shipsData
	for _, sh := range ships {
		data.List = append(data.List, link{Href: v.base + "ship/" + url.PathEscape(sh.Name), Text: sh.Name + " (" + sh.Record + ")"})
	}
	for _, sh := range detailed {
		view := sh.View()
		data.List = append(data.List, link{Href: v.base + "ship/" + url.PathEscape(view.Name), Text: view.Name + " (" + view.Kind + ", detailed)"})
	}
	f.Title, f.Data = "Ships", data
	return nil
}

func (p *pages) ship(s *campaign.Service, f *frame, name string) error {
	detailed, found, err := s.ShipKind(name, "")
	if err != nil {
		return err
	}
	if !found {
		return errNotFound
	}
	if detailed {
		sh, err := s.DetailedShip(name, "")
		if err != nil {
			return err
		}
		doc := exports.NewDetailedShipDoc(f.Trace, sh)
		f.Title, f.Data = doc.Ship.Name, shipsData{Detailed: &doc}
		return nil
	}
	sh, err := s.Ship(name, "")
	if err != nil {
		return err
	}
	f.Title, f.Data = sh.Name, shipsData{Section: &exports.ShipDoc{Trace: f.Trace, Ship: sh}}
	return nil
}

// maxAudits bounds the characters whose audit is kept; past it they are
// all let go.
const maxAudits = 64

// auditOf returns the XP audit of the party member sh, folded once for
// each state of what it depends on.
func (p *pages) auditOf(s *campaign.Service, campaignID string, sh projections.Sheet) (projections.XPAudit, error) {
	key, err := auditKey(s, campaignID, sh.ID)
	if err != nil {
		return projections.XPAudit{}, err
	}
	who := campaignID + "|" + sh.ID
	p.auditsMu.Lock()
	kept, ok := p.audits[who]
	p.auditsMu.Unlock()
	if ok && kept.key == key {
		return kept.audit, nil
	}
	au, err := s.AuditXP(sh.Name)
	if err != nil {
		return au, err
	}
	p.auditsMu.Lock()
	if p.audits == nil || len(p.audits) >= maxAudits {
		p.audits = map[string]keptAudit{}
	}
	p.audits[who] = keptAudit{key: key, audit: au}
	p.auditsMu.Unlock()
	return au, nil
}

// auditKey names what a character's audit depends on: the campaign, his
// stream and the commands stream (undo and redo), each by its last event's
// seq and hash, so that any event appended to either, or another file put
// in the campaign's place, names another audit.
func auditKey(s *campaign.Service, campaignID, id string) (string, error) {
	var b strings.Builder
	b.WriteString(campaignID + "|" + id)
	for _, stream := range []string{events.CharacterStream(id), events.CommandsStream} {
		last, err := s.Store().Read(events.Query{Streams: []string{stream}, Limit: 1, Last: true})
		if err != nil {
			return "", err
		}
		for _, e := range last {
			fmt.Fprintf(&b, "|%d:%x", e.Seq, e.Hash)
		}
	}
	return b.String(), nil
}
