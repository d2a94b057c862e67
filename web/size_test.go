package web_test

import (
	"fmt"
	"math/rand"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

// htMaxPage is the most a page may weigh: a phone on the table's Wi-Fi.
const htMaxPage = 50 << 10

// htHostile are names and texts that try to get out of the page's text.
const (
	htScriptName = `<script>alert(1)</script>`
	htQuoteName  = `"Quote" 'Mark' & <b>`
	htFoeName    = `<img src=x onerror=alert(2)>`
	htNoteText   = `</td></tr></table><script>alert("note")</script><a href="javascript:alert(3)">x</a>`
)

// htLong builds a campaign of a long evening: hundreds of XP awards and
// spends for characters with names that are markup, a foe named like an
// image, notes and reasons full of markup and quotes.
func htLong(t *testing.T) *htCampaign {
	t.Helper()
	c := htCreate(t, `<script>alert("campaign")</script> «long»`, 11)
	c.char(htScriptName, 10, 12, 10, "Pistol:1", "Medic:2")
	c.char(htQuoteName, 14, 10, 8, "Unarmed:2")
	c.char("Plain", 11, 11, 10)
	rng := rand.New(rand.NewSource(11))
	words := []string{"the", "airlock", `"door"`, "<held>", "&", "'tight'", "for", "a", "while", "</td>", "long", "night", "of", "watch", "Ωmega", "李"}
	reason := func(i int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "#%d", i)
		for range 3 + rng.Intn(10) {
			b.WriteString(" " + words[rng.Intn(len(words))])
		}
		return b.String()
	}
	for i := range 260 {
		_, err := c.svc.AwardXP([]string{htScriptName, htQuoteName}, 1+rng.Intn(6), reason(i))
		c.must(err)
		if i%10 == 9 {
			_, err = c.svc.SpendXP(campaign.Spend{Character: htScriptName, Target: "Medic", Levels: 1})
			if err != nil {
				_, err = c.svc.SpendXP(campaign.Spend{Character: htScriptName, Target: "IQ", Levels: 1})
			}
			c.must(err)
		}
	}
	_, err := c.svc.AdventureStart(`<i>Act</i> "one"`)
	c.must(err)
	_, err = c.svc.EncounterStart(`<b>ambush</b>`)
	c.must(err)
	c.foe(htFoeName, 12, 12, 12, "Interrogator:1")
	for i := range 60 {
		_, err := c.svc.Roll(campaign.RollRequest{Expr: "3/DX", Character: htScriptName, Reason: reason(1000 + i)})
		c.must(err)
	}
	_, err = c.svc.Contest(campaign.ContestRequest{Sides: [2]string{htScriptName + ":IQ", htFoeName + ":IQ"}})
	c.must(err)
	_, _, err = c.svc.Note(htNoteText)
	c.must(err)
	c.shareGM()
	c.sharePlayer(htScriptName)
	c.sharePlayer(htQuoteName)
	return c
}

// TestPagesAreSmallAndEscaped reads every page of a long campaign for
// every link: each weighs at most 50 KB, the XP audit pages back through
// every row by its links, and every text from the log is escaped: no
// name, reason or note becomes markup.
func TestPagesAreSmallAndEscaped(t *testing.T) {
	c := htLong(t)
	srv := htServe(t, &htClock{t: htStart}, c.path)
	audit, err := c.svc.AuditXP(htScriptName)
	c.must(err)
	if len(audit.Rows) < 250 {
		t.Fatalf("the audit has %d rows: the campaign is not long enough", len(audit.Rows))
	}
	tags := regexp.MustCompile(`<([a-zA-Z]+)[\s>]`)
	allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "link": true, "script": true, "noscript": true,
		"body": true, "header": true, "p": true, "span": true, "nav": true, "a": true, "main": true, "h1": true, "h2": true, "h3": true,
		"section": true, "div": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "ul": true, "li": true,
		"strong": true, "code": true, "footer": true, "del": true}
	for name, token := range map[string]string{"the GM": c.gm, htScriptName: c.players[htScriptName], htQuoteName: c.players[htQuoteName]} {
		pages := htCrawl(t, srv, htBase(token))
		if name == "the GM" {
			for _, p := range []string{"log", "timeline", "timeline?rolls=1"} {
				if _, ok := pages[htBase(token)+p]; !ok {
					t.Errorf("the GM's crawl did not reach %s", p)
				}
			}
		}
		biggest, at := 0, ""
		for u, r := range pages {
			where := name + "'s " + strings.TrimPrefix(u, htBase(token))
			if len(r.Body) > htMaxPage {
				t.Errorf("%s weighs %d bytes, more than %d", where, len(r.Body), htMaxPage)
			}
			if len(r.Body) > biggest {
				biggest, at = len(r.Body), where
			}
			// The markup is the templates' own: one script tag, the
			// server's, and no tag a name or a text brought.
			for _, m := range tags.FindAllStringSubmatch(r.Body, -1) {
				if !allowed[strings.ToLower(m[1])] {
					t.Errorf("%s holds a <%s> tag", where, m[1])
				}
			}
			if n := strings.Count(r.Body, "<script"); n != 1 || !strings.Contains(r.Body, `<script src="/static/live.js" defer></script>`) {
				t.Errorf("%s holds %d script tags", where, n)
			}
			for _, tag := range htTagRE.FindAllString(r.Body, -1) {
				for _, bad := range []string{"alert", "onerror", "javascript:", "Act", "ambush", "quot", "Quote"} {
					if strings.Contains(tag, bad) {
						t.Errorf("%s: the tag %s holds %q", where, tag, bad)
					}
				}
			}
			for _, raw := range []string{htScriptName, htFoeName, htNoteText, "<held>", `<i>Act</i>`, `<b>ambush</b>`} {
				if strings.Contains(r.Body, raw) {
					t.Errorf("%s holds %q unescaped", where, raw)
				}
			}
		}
		t.Logf("%s: %d pages, the biggest %s: %d bytes", name, len(pages), at, biggest)
	}

	// The timeline shows its newest entries, and says where the rest are.
	tl := htText(htGet(srv, htBase(c.gm)+"timeline").Body)
	if !strings.Contains(tl, htNoteText) || !regexp.MustCompile(`The last \d+ of \d+ entries are shown; <code>ltscamp timeline</code> prints them all`).MatchString(tl) {
		t.Errorf("the GM's timeline does not show its newest entries or where the rest are:\n%s", htShort(tl))
	}
	// The escaped texts are there, as text.
	gmLog := htText(htGet(srv, htBase(c.gm)+"log").Body)
	for _, s := range []string{htNoteText, htScriptName, htQuoteName, htFoeName} {
		if !strings.Contains(gmLog, s) {
			t.Errorf("the GM's log does not show %q as text", s)
		}
	}
	idx := htText(htGet(srv, htBase(c.players[htQuoteName])).Body)
	for _, s := range []string{htScriptName, htQuoteName, htFoeName + ": <strong>ok</strong>"} {
		if !strings.Contains(idx, s) {
			t.Errorf("%s's index does not show %q", htQuoteName, s)
		}
	}
}

// htTagRE finds the tags of a page.
var htTagRE = regexp.MustCompile(`<[^>]*>`)

// TestAuditPagesBackThroughEveryRow follows the audit's "page before"
// links from the newest page: together the pages hold every row of the
// audit once, each page at most 100 rows.
func TestAuditPagesBackThroughEveryRow(t *testing.T) {
	c := htLong(t)
	srv := htServe(t, &htClock{t: htStart}, c.path)
	audit, err := c.svc.AuditXP(htScriptName)
	c.must(err)
	base := htBase(c.players[htScriptName])
	htWalkAudit(t, srv, base, c.ids[htScriptName], audit.Rows)
	// A page past the first row is not there.
	if r := htGet(srv, base+"audit/"+c.ids[htScriptName]+"?page=99"); r.Status != http.StatusNotFound {
		t.Errorf("page 99: %d, want 404", r.Status)
	}
	for _, q := range []string{"?page=-1", "?page=x", "?page=99999999999999999999", "?page=1&page=2"} {
		if r := htGet(srv, base+"audit/"+c.ids[htScriptName]+q); r.Status != http.StatusOK && r.Status != http.StatusNotFound {
			t.Errorf("%s: %d", q, r.Status)
		}
	}
}

// htWalkAudit follows the audit's "page before" links from the newest
// page of character id: together the pages hold every row once, in order,
// each page at most 100 rows and 50 KB.
func htWalkAudit(t *testing.T, srv http.Handler, base, id string, want []projections.XPAuditRow) {
	t.Helper()
	u := base + "audit/" + id
	rowRE := regexp.MustCompile(`<tr(?: class="reverted")?><td class="n">(\d+)</td>`)
	earlierRE := regexp.MustCompile(`<a href="([^"]*)">the page before</a>`)
	var seqs []string
	for pages := 0; u != ""; pages++ {
		if pages > 100 {
			t.Fatal("more than 100 pages of audit")
		}
		r := htGet(srv, u)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d", u, r.Status)
		}
		if len(r.Body) > htMaxPage {
			t.Errorf("GET %s: %d bytes", u, len(r.Body))
		}
		rows := rowRE.FindAllStringSubmatch(r.Body, -1)
		if len(rows) == 0 || len(rows) > 100 {
			t.Errorf("%s: %d rows", u, len(rows))
		}
		var page []string
		for _, m := range rows {
			page = append(page, m[1])
		}
		seqs = append(page, seqs...)
		u = ""
		if m := earlierRE.FindStringSubmatch(r.Body); m != nil {
			u = htText(m[1])
			if !strings.HasPrefix(u, base+"audit/") {
				t.Fatalf("the page before leaves the link: %s", u)
			}
		}
	}
	if len(seqs) != len(want) {
		t.Fatalf("the pages hold %d rows, the audit %d", len(seqs), len(want))
	}
	for i, row := range want {
		if seqs[i] != htItoa(row.Seq) {
			t.Fatalf("row %d: seq %s on the pages, %d in the audit", i, seqs[i], row.Seq)
		}
	}
}

// TestPagesOfLongTextsAreSmall fills a campaign with the longest texts the
// limits allow (reasons of 500 characters, notes of 2000), many of them
// quotes that escaping lengthens: every page still weighs at most 50 KB,
// and shows the newest.
func TestPagesOfLongTextsAreSmall(t *testing.T) {
	c := htCreate(t, "Long texts", 12)
	c.char("Kira", 10, 12, 10, "Medic:2")
	long := func(i int, n int) string {
		s := fmt.Sprintf("#%d ", i) + strings.Repeat(`"<&>' `, n)
		return string([]rune(s)[:n])
	}
	for i := range 150 {
		c.award("Kira", 1, long(i, 500))
	}
	_, err := c.svc.AdventureStart(long(999, 500))
	c.must(err)
	for i := range 30 {
		_, _, err := c.svc.Note(long(2000+i, 2000))
		c.must(err)
		_, err = c.svc.Roll(campaign.RollRequest{Expr: "3/DX", Character: "Kira", Reason: long(3000+i, 500)})
		c.must(err)
	}
	c.shareGM()
	c.sharePlayer("Kira")
	srv := htServe(t, &htClock{t: htStart}, c.path)
	audit, err := c.svc.AuditXP("Kira")
	c.must(err)
	htWalkAudit(t, srv, htBase(c.players["Kira"]), c.ids["Kira"], audit.Rows)
	newestNote := htText(long(2029, 2000))
	for name, token := range map[string]string{"the GM": c.gm, "Kira": c.players["Kira"]} {
		for u, r := range htCrawl(t, srv, htBase(token)) {
			where := name + "'s " + strings.TrimPrefix(u, htBase(token))
			if len(r.Body) > htMaxPage {
				t.Errorf("%s weighs %d bytes, more than %d", where, len(r.Body), htMaxPage)
			}
			if strings.HasSuffix(u, "/log") || strings.Contains(u, "/timeline") {
				if !strings.Contains(htText(r.Body), newestNote) {
					t.Errorf("%s does not show the newest note", where)
				}
			}
		}
	}
}
