package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
)

// htTable is the campaign most handler tests read: two characters with
// skills, XP awarded and spent, karma, rolls, an adventure with an
// encounter and a foe with a skill, a note; a GM link and a link for each
// player.
func htTable(t *testing.T) *htCampaign {
	t.Helper()
	return htTableAt(t, filepath.Join(t.TempDir(), "c.ltscamp"))
}

// htTableAt is htTable at path: a file or a postgres:// address.
func htTableAt(t *testing.T, path string) *htCampaign {
	t.Helper()
	c := htCreateAt(t, path, "Serve «test»", 1)
	c.char("Kira", 10, 12, 10, "Pistol:1", "Medic:2")
	c.char("Brann", 14, 10, 8, "Unarmed:2", "Locks:1")
	c.award("Kira", 30, "found the star map")
	c.award("Brann", 25, "held the airlock door")
	_, err := c.svc.SpendXP(campaign.Spend{Character: "Kira", Target: "Medic", Levels: 1})
	c.must(err)
	_, err = c.svc.GrantKarma("Brann", 2, "took the blame for the crew")
	c.must(err)
	_, err = c.svc.AdventureStart("The Derelict")
	c.must(err)
	_, err = c.svc.EncounterStart("Boarding party")
	c.must(err)
	c.foe("Pirate Captain", 13, 12, 11, "Interrogator:2", "Axe:3")
	_, err = c.svc.Roll(campaign.RollRequest{Expr: "3/DX", Character: "Kira", Reason: "the jump"})
	c.must(err)
	_, err = c.svc.Roll(campaign.RollRequest{Expr: "3/ST+Unarmed", Character: "Brann", Reason: "the hatch"})
	c.must(err)
	_, err = c.svc.Contest(campaign.ContestRequest{Sides: [2]string{"Kira:IQ", "Pirate Captain:IQ+Interrogator"}, Faces: [2][]int{{1, 2, 3}, {4, 4, 4}}})
	c.must(err)
	_, _, err = c.svc.Note("the captain hides the codes in his left boot")
	c.must(err)
	c.shareGM()
	c.sharePlayer("Kira")
	c.sharePlayer("Brann")
	return c
}

// htPage is a page of a link and what it must answer.
type htPage struct {
	path   string
	status int
	// has and hasNot are texts the page holds and does not hold.
	has, hasNot []string
}

// TestEveryPageOfEveryScope asks every page of the campaign for every
// link: the GM's sees everything, a player's his own character in full,
// the party's public parts, foes by name and condition, and 404 for the
// rest. Every page names the head and carries the security headers. It
// runs on a campaign file and on a campaign in PostgreSQL.
func TestEveryPageOfEveryScope(t *testing.T) { htOnEveryStore(t, everyPageOfEveryScope) }

func everyPageOfEveryScope(t *testing.T, path string) {
	c := htTableAt(t, path)
	clk := &htClock{t: htStart}
	srv := htServe(t, clk, c.path)
	// HEAD goes through a real server, which sends no body with it.
	ts := httptest.NewServer(srv)
	defer ts.Close()
	seq, short := c.head()
	kira, brann, foe := c.ids["Kira"], c.ids["Brann"], c.ids["Pirate Captain"]
	note := "the captain hides the codes in his left boot"
	foeSecrets := []string{"Interrogator", "Axe"}
	kiraSecrets := []string{"Pistol", "Medic", "found the star map"}
	brannSecrets := []string{"Unarmed", "Locks", "held the airlock door", "took the blame"}
	everyPlayer := append(append([]string{note}, foeSecrets...), "Timeline", "The log")

	scopes := []struct {
		name  string
		token string
		pages []htPage
	}{
		{"gm", c.gm, []htPage{
			{"", 200, []string{"Kira", "Brann", "Pirate Captain", "Interrogator 2", "Axe 3", "the GM's link"}, nil},
			{"sheet/" + kira, 200, []string{"Kira", "Pistol", "Medic", "XP audit"}, nil},
			{"sheet/" + brann, 200, []string{"Brann", "Unarmed", "Locks"}, nil},
			{"sheet/" + foe, 200, []string{"Pirate Captain", "Interrogator", "Axe", "Foe"}, nil},
			{"audit/" + kira, 200, []string{"found the star map", "Medic"}, nil},
			{"audit/" + brann, 200, []string{"held the airlock door"}, nil},
			{"audit/" + foe, 404, nil, nil},
			{"rolls/" + kira, 200, []string{"Kira: 3/DX", "contest: Kira rolled 6 on IQ 10, Pirate Captain rolled 12 on IQ 13: Pirate Captain wins"}, []string{"Brann: 3/ST"}},
			{"rolls/" + brann, 200, []string{"Brann: 3/ST"}, []string{"Kira: 3/DX"}},
			{"log", 200, []string{note, "Kira: 3/DX", "Brann: 3/ST", "foe Pirate Captain added", "Interrogator 2"}, nil},
			{"timeline", 200, []string{"The Derelict", note, "Kira: +30 XP: found the star map"}, []string{"Kira: Kira:"}},
			{"timeline?rolls=1", 200, []string{"The Derelict", note, "Without the rolls"}, nil},
			{"sheet/NOSUCHID", 404, nil, nil},
			{"nothing-here", 404, nil, nil},
		}},
		{"Kira", c.players["Kira"], []htPage{
			{"", 200, []string{"Kira", "Brann", "Pirate Captain", "ok", "Kira's link"}, append(brannSecrets, everyPlayer...)},
			{"sheet/" + kira, 200, []string{"Kira", "Pistol", "Medic", "XP audit"}, append(brannSecrets, everyPlayer...)},
			{"audit/" + kira, 200, []string{"found the star map", "Medic"}, append(brannSecrets, everyPlayer...)},
			{"rolls/" + kira, 200, []string{"Kira: 3/DX", "contest: Kira rolled 6 on IQ 10, Pirate Captain rolled 12: Pirate Captain wins"},
				append(append(brannSecrets, everyPlayer...), "Brann: 3/ST", "IQ 13")},
			{"sheet/" + brann, 404, nil, brannSecrets},
			{"audit/" + brann, 404, nil, brannSecrets},
			{"rolls/" + brann, 404, nil, brannSecrets},
			{"sheet/" + foe, 404, nil, foeSecrets},
			{"audit/" + foe, 404, nil, foeSecrets},
			{"rolls/" + foe, 404, nil, foeSecrets},
			{"log", 404, nil, everyPlayer},
			{"timeline", 404, nil, everyPlayer},
			{"timeline?rolls=1", 404, nil, everyPlayer},
		}},
		{"Brann", c.players["Brann"], []htPage{
			{"", 200, []string{"Kira", "Brann", "Pirate Captain", "Brann's link"}, append(kiraSecrets, everyPlayer...)},
			{"sheet/" + brann, 200, []string{"Brann", "Unarmed", "Locks", "Karma"}, append(kiraSecrets, everyPlayer...)},
			{"audit/" + brann, 200, []string{"held the airlock door"}, append(kiraSecrets, everyPlayer...)},
			{"rolls/" + brann, 200, []string{"Brann: 3/ST"}, append(append(kiraSecrets, everyPlayer...), "Kira: 3/DX")},
			{"sheet/" + kira, 404, nil, kiraSecrets},
			{"audit/" + kira, 404, nil, kiraSecrets},
			{"rolls/" + kira, 404, nil, kiraSecrets},
			{"sheet/" + foe, 404, nil, foeSecrets},
			{"log", 404, nil, everyPlayer},
			{"timeline", 404, nil, everyPlayer},
		}},
	}
	for _, sc := range scopes {
		for _, p := range sc.pages {
			u := htBase(sc.token) + p.path
			name := sc.name + " " + p.path
			head := htReal(t, ts, http.MethodHead, u)
			if head.Status != p.status {
				t.Errorf("HEAD %s: %d, want %d", name, head.Status, p.status)
			}
			htCheckHeaders(t, "HEAD "+name, head.Header)
			if head.Body != "" {
				t.Errorf("HEAD %s: a body of %d bytes", name, len(head.Body))
			}
			for _, method := range []string{http.MethodGet} {
				r := htDo(srv, method, u, "")
				if r.Status != p.status {
					t.Errorf("%s %s: %d, want %d", method, name, r.Status, p.status)
				}
				htCheckHeaders(t, method+" "+name, r.Header)
				if r.Status == http.StatusOK && head.Header.Get("Content-Length") != fmt.Sprint(len(r.Body)) {
					t.Errorf("HEAD %s: Content-Length %q, GET's body is %d bytes", name, head.Header.Get("Content-Length"), len(r.Body))
				}
				text := htText(r.Body)
				for _, s := range p.has {
					if !strings.Contains(text, s) {
						t.Errorf("GET %s: %q missing:\n%s", name, s, htShort(r.Body))
					}
				}
				for _, s := range p.hasNot {
					if strings.Contains(text, s) {
						t.Errorf("GET %s: %q shown", name, s)
					}
				}
				htNoGoText(t, "GET "+name, r.Body)
				if r.Status != http.StatusOK {
					continue
				}
				if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("GET %s: Content-Type %q", name, ct)
				}
				if want := "seq " + htItoa(seq) + ", hash <code>" + short + "</code>"; !strings.Contains(r.Body, want) {
					t.Errorf("GET %s: the head %q is not shown", name, want)
				}
				if want := "ltscamp verify --head " + short; !strings.Contains(r.Body, want) {
					t.Errorf("GET %s: %q is not shown", name, want)
				}
			}
		}
	}
}

// htCheckHeaders checks the security headers of an answer.
func htCheckHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("%s: Content-Security-Policy %q lacks %q", what, csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("%s: Content-Security-Policy %q allows inline script", what, csp)
	}
	for k, want := range map[string]string{"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %s %q, want %q", what, k, got, want)
		}
	}
}

// TestPagesHoldNoInlineScript checks what the CSP relies on: the pages
// load their script and style from the server, none inline, and the
// static files answer with the same headers.
func TestPagesHoldNoInlineScript(t *testing.T) {
	c := htTable(t)
	srv := htServe(t, &htClock{t: htStart}, c.path)
	for _, u := range []string{htBase(c.gm), htBase(c.gm) + "log", htBase(c.players["Kira"]) + "sheet/" + c.ids["Kira"]} {
		body := htGet(srv, u).Body
		for _, bad := range []string{"<script>", "style=", "onload=", "onclick=", "<style", "javascript:"} {
			if strings.Contains(body, bad) {
				t.Errorf("GET %s holds %q", u, bad)
			}
		}
	}
	for _, u := range []string{"/static/style.css", "/static/live.js", "/", "/robots.txt", "/nothing"} {
		r := htGet(srv, u)
		htCheckHeaders(t, "GET "+u, r.Header)
	}
	if r := htGet(srv, "/static/live.js"); r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET /static/live.js: %d %q", r.Status, r.Header.Get("Content-Type"))
	}
	if r := htGet(srv, "/static/../server.go"); r.Status != 404 {
		t.Errorf("GET /static/../server.go: %d", r.Status)
	}
}

// TestLivePageOfEveryScope opens the live stream of each link: it answers
// as a stream of events with the headers, and names the head.
func TestLivePageOfEveryScope(t *testing.T) {
	c := htTable(t)
	srv := htServe(t, &htClock{t: htStart}, c.path)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	seq, _ := c.head()
	for name, token := range map[string]string{"gm": c.gm, "Kira": c.players["Kira"], "Brann": c.players["Brann"]} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+htBase(token)+"live", nil)
		req.Header.Set("Last-Event-ID", "0")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("%s live: %d %q", name, res.StatusCode, res.Header.Get("Content-Type"))
		}
		htCheckHeaders(t, name+" live", res.Header)
		ev, err := htNextEvent(bufio.NewReader(res.Body))
		if err != nil {
			t.Errorf("%s live: %v", name, err)
		} else if ev.id != htItoa(seq) {
			t.Errorf("%s live: event id %q, want the head %d", name, ev.id, seq)
		}
		cancel()
		res.Body.Close()
	}
}
