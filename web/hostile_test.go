package web_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/web"
)

// htFileState is what the server must leave as it found: the campaign
// file's bytes and its -wal's size.
type htFileState struct {
	sum [32]byte
	wal int64
}

func htStateOf(t *testing.T, path string) htFileState {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st := htFileState{sum: sha256.Sum256(b), wal: -1}
	if fi, err := os.Stat(path + "-wal"); err == nil {
		st.wal = fi.Size()
	}
	return st
}

// htEvents counts the events of the campaign at path, read as another
// process would.
func htEvents(t *testing.T, path string) int64 {
	t.Helper()
	s, err := campaign.OpenReadOnly(path, campaign.Options{Now: htTicking(), Actor: "check"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.EventCount()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// htRaw sends a request as written, on a connection of its own, and
// returns the answer (the client normalises nothing).
func htRaw(t *testing.T, addr, request string) (*http.Response, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%q: %v", htShort(request), err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res, b.String()
}

// htListen serves h as `ltscamp serve` does (web.Listen), on a free port
// of the loopback, until the test ends.
func htListen(t *testing.T, h http.Handler) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- web.Listen(ctx, "127.0.0.1:0", h, func(a net.Addr) { ready <- a.String() }) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("web.Listen: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("web.Listen: %v", err)
		}
	})
	return addr
}

// TestHostileRequests sends the server what no page asks: wrong, short,
// long, revoked and expired tokens, paths that climb out of a link or
// into another character, headers too large, methods that write. Each
// gets a plain page with a clear status, no Go error and no stack, and
// the campaign file is left as it was: its bytes, its events, its -wal.
func TestHostileRequests(t *testing.T) {
	c := htTable(t)
	// A link that expires in an hour, one of two uses, one revoked.
	short, err := c.svc.Share(campaign.ShareRequest{Character: "Kira", For: time.Hour})
	c.must(err)
	two, err := c.svc.Share(campaign.ShareRequest{Character: "Brann", Uses: 2})
	c.must(err)
	gone, err := c.svc.Share(campaign.ShareRequest{GM: true})
	c.must(err)
	_, _, err = c.svc.RevokeShare(gone.Share.ID, "lost the phone")
	c.must(err)
	// The writer goes away: what follows only reads.
	c.must(c.svc.Close())
	before, events := htStateOf(t, c.path), htEvents(t, c.path)

	clk := &htClock{t: htStart.Add(time.Hour)} // the links were granted a minute after htStart
	srv := htServe(t, clk, c.path)
	addr := htListen(t, srv)
	kira, brann, foe := c.players["Kira"], c.players["Brann"], c.ids["Pirate Captain"]
	check := func(what string, status int, r htResp) {
		t.Helper()
		if r.Status != status {
			t.Errorf("%s: %d, want %d", what, r.Status, status)
		}
		htCheckHeaders(t, what, r.Header)
		htNoGoText(t, what, r.Body)
		for _, tok := range []string{kira, brann, c.gm, short.Token, two.Token, gone.Token} {
			if r.Status != http.StatusOK && strings.Contains(r.Body, tok) {
				t.Errorf("%s: the answer holds a token", what)
			}
		}
	}
	// Each probe comes from an address of its own, so that the limiter
	// of wrong tokens (tested below) does not answer for the server.
	probe := 0
	get := func(target string) htResp {
		probe++
		return htDo(srv, http.MethodGet, target, fmt.Sprintf("192.0.2.%d:4000", probe%250+1))
	}

	t.Run("bad tokens", func(t *testing.T) {
		wrong := strings.Repeat("A", 43)
		for _, u := range []string{
			"/s/" + wrong + "/", "/s/" + wrong + "/log",
			"/s/" + kira[:42] + "/", "/s/" + kira[:20] + "/", "/s/" + kira + "A/", "/s/" + strings.ToLower(kira) + "/",
			"/s/" + kira[:42] + "%25/", "/s/" + kira[:42] + "=/", "/s/" + kira[:42] + "./",
			"/s/", "/s//", "/s", "/s/%00/", "/s/" + strings.Repeat("x", 5000) + "/",
			"/s/" + gone.Token + "/", "/s/" + gone.Token + "/log", "/s/" + gone.Token + "/live",
			"/" + kira + "/", "/s/" + c.path + "/",
		} {
			check("GET "+htShort(u), http.StatusNotFound, get(u))
		}
		// A path that is no URL is refused by net/http itself.
		res, body := htRaw(t, addr, "GET /s/"+kira[:42]+"%/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("GET a path with a bad escape: %d, want 400", res.StatusCode)
		}
		htNoGoText(t, "bad escape", body)
		// The page says what to do.
		if r := get("/s/" + wrong + "/"); !strings.Contains(r.Body, "ltscamp share") {
			t.Errorf("the page of a wrong link does not say where links come from:\n%s", r.Body)
		}
	})

	t.Run("expired", func(t *testing.T) {
		u := "/s/" + short.Token + "/"
		check("GET the link before it expires", http.StatusOK, get(u))
		clk.Add(time.Hour)
		check("GET the link once expired", http.StatusNotFound, get(u))
		check("GET the live page once expired", http.StatusNotFound, get(u+"live"))
		clk.Add(-time.Hour)
		check("GET the link with the clock put back", http.StatusOK, get(u))
	})

	t.Run("uses", func(t *testing.T) {
		u := "/s/" + two.Token + "/"
		check("GET a link of 2 uses, once", http.StatusOK, get(u))
		check("GET a link of 2 uses, twice", http.StatusOK, get(u+"sheet/"+c.ids["Brann"]))
		check("GET a link of 2 uses, thrice", http.StatusNotFound, get(u))
	})

	t.Run("traversal", func(t *testing.T) {
		base := "/s/" + kira + "/"
		for _, u := range []string{
			base + "..", base + "../..", base + "../../", base + "../" + c.gm + "/log",
			base + "%2e%2e", base + "%2e%2e/%2e%2e/etc/passwd", base + "%2E%2E%2F%2E%2E%2F", base + "..%2f..%2f",
			base + "sheet/" + c.ids["Brann"], base + "sheet/../sheet/" + c.ids["Brann"], base + "sheet/" + c.ids["Kira"] + "/../" + c.ids["Brann"],
			base + "sheet/" + c.ids["Kira"] + "%2f..%2f" + c.ids["Brann"], base + "sheet/" + foe, base + "audit/" + c.ids["Brann"],
			base + "sheet//" + c.ids["Brann"], base + "/sheet/" + c.ids["Brann"], base + "./log", base + "log/", base + "log/..",
			base + "rolls/" + c.ids["Brann"] + "?char=Kira", base + "sheet/" + c.ids["Kira"] + "/", base + "static/../log",
			"/s/" + kira + "/../" + c.gm + "/log", "/s/../s/" + c.gm + "/log", "//s/" + kira + "/", "/s/" + kira + "%2flog",
			"/static/../../go.mod", "/static/%2e%2e/server.go", "/static/style.css/..", "/static/", "/static/templates/layout.html",
		} {
			r := get(u)
			check("GET "+u, http.StatusNotFound, r)
			for _, secret := range []string{"Unarmed", "Locks", "held the airlock door", "Interrogator", "The log", "module "} {
				if strings.Contains(r.Body, secret) {
					t.Errorf("GET %s shows %q", u, secret)
				}
			}
		}
		// The same, through a real server, sent as written: no client
		// cleans the paths.
		for _, p := range []string{base + "../" + c.gm + "/log", base + "%2e%2e/%2e%2e/", base + "sheet/..%2f..%2f" + c.ids["Brann"], "/s/" + kira + "/sheet/" + c.ids["Kira"] + "/../" + c.ids["Brann"]} {
			res, body := htRaw(t, addr, "GET "+p+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			check("GET (raw) "+p, http.StatusNotFound, htResp{Status: res.StatusCode, Header: res.Header, Body: body})
		}
	})

	t.Run("methods", func(t *testing.T) {
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "MKCOL"} {
			for _, u := range []string{"/s/" + kira + "/", "/s/" + c.gm + "/log", "/", "/static/style.css", "/s/" + kira + "/live"} {
				probe++
				r := htDo(srv, m, u, fmt.Sprintf("198.51.100.%d:1", probe%250+1))
				check(m+" "+u, http.StatusMethodNotAllowed, r)
				if a := r.Header.Get("Allow"); a != "GET, HEAD" {
					t.Errorf("%s %s: Allow %q", m, u, a)
				}
			}
		}
		// A POST with a body, through the real server.
		res, body := htRaw(t, addr, "POST /s/"+kira+"/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\nConnection: close\r\n\r\nxp=100000")
		check("POST (raw) with a body", http.StatusMethodNotAllowed, htResp{Status: res.StatusCode, Header: res.Header, Body: body})
		// HEAD answers as GET does, without the body.
		res, body = htRaw(t, addr, "HEAD /s/"+kira+"/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		if res.StatusCode != http.StatusOK || body != "" || res.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD: %d, body %q, Content-Length %q", res.StatusCode, body, res.Header.Get("Content-Length"))
		}
	})

	t.Run("oversized headers", func(t *testing.T) {
		big := strings.Repeat("a", 64<<10)
		for _, req := range []string{
			"GET /s/" + kira + "/ HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\nConnection: close\r\n\r\n",
			"GET /s/" + kira + "/ HTTP/1.1\r\nHost: x\r\nCookie: " + big + "\r\nConnection: close\r\n\r\n",
			"GET /s/" + kira + "/" + big + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		} {
			res, body := htRaw(t, addr, req)
			if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
				t.Errorf("a request of %d bytes of headers: %d, want 431", len(req), res.StatusCode)
			}
			htNoGoText(t, "431", body)
		}
		// Headers within the bound are read.
		res, _ := htRaw(t, addr, "GET /s/"+kira+"/ HTTP/1.1\r\nHost: x\r\nX-Some: "+strings.Repeat("a", 8<<10)+"\r\nConnection: close\r\n\r\n")
		if res.StatusCode != http.StatusOK {
			t.Errorf("8 KB of headers: %d, want 200", res.StatusCode)
		}
	})

	t.Run("slowed", func(t *testing.T) {
		const from = "203.0.113.9:5555"
		wrong := "/s/" + strings.Repeat("B", 43) + "/"
		var first429 int
		for i := 1; i <= 40 && first429 == 0; i++ {
			r := htDo(srv, http.MethodGet, wrong, from)
			switch r.Status {
			case http.StatusNotFound:
			case http.StatusTooManyRequests:
				first429 = i
				check("the address that kept trying", http.StatusTooManyRequests, r)
				if r.Header.Get("Retry-After") == "" {
					t.Error("429 without Retry-After")
				}
			default:
				t.Fatalf("wrong token %d: %d", i, r.Status)
			}
		}
		if first429 == 0 || first429 > 30 {
			t.Fatalf("40 wrong tokens from one address: the first 429 came at %d", first429)
		}
		// That address is refused even a good link meanwhile; another
		// address is not slowed.
		if r := htDo(srv, http.MethodGet, "/s/"+kira+"/", from); r.Status != http.StatusTooManyRequests {
			t.Errorf("a good link from the slowed address: %d, want 429", r.Status)
		}
		if r := htDo(srv, http.MethodGet, "/s/"+kira+"/", "203.0.113.10:5555"); r.Status != http.StatusOK {
			t.Errorf("a good link from another address: %d, want 200", r.Status)
		}
		// Good links do not count: a player reading his pages all
		// evening is never slowed.
		for i := 0; i < 100; i++ {
			if r := htDo(srv, http.MethodGet, "/s/"+kira+"/", "203.0.113.11:1"); r.Status != http.StatusOK {
				t.Fatalf("good link %d: %d", i, r.Status)
			}
		}
		// After the window, the address is heard again.
		clk.Add(2 * time.Minute)
		defer clk.Add(-2 * time.Minute)
		if r := htDo(srv, http.MethodGet, "/s/"+kira+"/", from); r.Status != http.StatusOK {
			t.Errorf("a good link from the address two minutes later: %d, want 200", r.Status)
		}
	})

	t.Run("nothing written", func(t *testing.T) {
		after := htStateOf(t, c.path)
		if after.sum != before.sum {
			t.Error("the campaign file's bytes changed while the server answered")
		}
		if after.wal > max(before.wal, 0) {
			t.Errorf("the -wal grew from %d to %d bytes", before.wal, after.wal)
		}
		if n := htEvents(t, c.path); n != events {
			t.Errorf("%d events, %d before", n, events)
		}
	})
}

// TestCampaignSwappedUnderneath puts another campaign file in the place
// of the one served (a restore, a copy): the old file's links stop
// opening, the new file's links open its pages, and neither file is
// written.
func TestCampaignSwappedUnderneath(t *testing.T) {
	a := htTable(t)
	b := htCreate(t, "The other «campaign»", 7)
	b.char("Ysolde", 8, 8, 16, "Diplomacy:2")
	b.award("Ysolde", 12, "brokered the truce")
	b.shareGM()
	b.sharePlayer("Ysolde")
	a.must(a.svc.Close())
	b.must(b.svc.Close())
	clk := &htClock{t: htStart.Add(time.Hour)}
	srv := htServe(t, clk, a.path)
	ts := httptest.NewServer(srv)
	defer ts.Close()

	if r := htGet(srv, htBase(a.players["Kira"])); r.Status != 200 || !strings.Contains(r.Body, "Serve «test»") {
		t.Fatalf("before the swap, Kira's link: %d", r.Status)
	}
	if r := htGet(srv, htBase(b.players["Ysolde"])); r.Status != 404 {
		t.Fatalf("before the swap, the other campaign's link: %d", r.Status)
	}
	// A live page of the old file is open meanwhile.
	stream, err := http.Get(ts.URL + htBase(a.players["Kira"]) + "live")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	sr := bufio.NewReader(stream.Body)

	for _, suffix := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(b.path + suffix); err == nil && fi.Size() > 0 && suffix == "-wal" {
			t.Fatalf("the other campaign left %d bytes in its -wal: the swap would lose them", fi.Size())
		}
	}
	swapped := htStateOf(t, b.path)
	if err := os.Rename(b.path, a.path); err != nil {
		t.Fatal(err)
	}
	for name, token := range map[string]string{"the GM": a.gm, "Kira": a.players["Kira"], "Brann": a.players["Brann"]} {
		for _, p := range []string{"", "sheet/" + a.ids["Kira"], "log", "live"} {
			r := htGet(srv, htBase(token)+p)
			if r.Status != http.StatusNotFound {
				t.Errorf("after the swap, %s's old link, %q: %d, want 404", name, p, r.Status)
			}
			htNoGoText(t, "old link after the swap", r.Body)
		}
	}
	r := htGet(srv, htBase(b.players["Ysolde"]))
	if r.Status != 200 || !strings.Contains(r.Body, "The other «campaign»") || !strings.Contains(r.Body, "Ysolde") {
		t.Errorf("after the swap, Ysolde's link: %d\n%s", r.Status, htShort(r.Body))
	}
	if r := htGet(srv, htBase(b.players["Ysolde"])+"audit/"+b.ids["Ysolde"]); r.Status != 200 || !strings.Contains(r.Body, "brokered the truce") {
		t.Errorf("after the swap, Ysolde's audit: %d", r.Status)
	}
	if r := htGet(srv, htBase(b.gm)+"log"); r.Status != 200 || strings.Contains(r.Body, "Kira") {
		t.Errorf("after the swap, the new GM's log: %d (or it names Kira)", r.Status)
	}
	seq, hash := htHeadOf(t, a.path)
	if !strings.Contains(r.Body, fmt.Sprintf("seq %d, hash <code>%s</code>", seq, hash)) {
		t.Errorf("after the swap, the page does not name the new file's head %d %s", seq, hash)
	}
	// The old file's live page ends: its link opens no more.
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := htNextEvent(sr); err != nil {
				done <- err
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Error("the live page of the old file still streams 3 s after the swap")
	}
	if after := htStateOf(t, a.path); after.sum != swapped.sum || after.wal > max(swapped.wal, 0) {
		t.Error("the server wrote the campaign put in place")
	}
}

// htHeadOf reads the head of the campaign at path as another process
// would: its seq and the first 12 digits of its hash.
func htHeadOf(t *testing.T, path string) (int64, string) {
	t.Helper()
	s, err := campaign.OpenReadOnly(path, campaign.Options{Now: htTicking(), Actor: "check"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seq, hash, err := s.Store().Head()
	if err != nil {
		t.Fatal(err)
	}
	return seq, fmt.Sprintf("%x", hash)[:12]
}
