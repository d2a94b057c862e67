package web_test

// Helpers of the handler tests (server_test.go, scope_test.go,
// hostile_test.go, live_test.go, size_test.go): campaigns built on a temp
// file through campaign, links granted through campaign.Service.Share, and
// the pages of web.New asked through net/http/httptest. Their names start
// with ht, so that other tests of the package can add theirs.

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/web"
)

// htStart is when the test campaigns begin.
var htStart = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// htClock is a clock the test sets: the server's Config.Now.
type htClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *htClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *htClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// htTicking is the writers' clock: a second later at every call.
func htTicking() func() time.Time {
	var mu sync.Mutex
	t := htStart
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// htRoller rolls dice from a seeded generator, so that a seed makes the
// same campaign.
type htRoller struct {
	mu sync.Mutex
	r  *rand.Rand
}

func (h *htRoller) Roll(count, sides int) ([]int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]int, count)
	for i := range out {
		out[i] = 1 + h.r.Intn(sides)
	}
	return out, nil
}

// htOptions are a writer's options, repeatable by seed.
func htOptions(seed int64) campaign.Options {
	return campaign.Options{
		Now:     htTicking(),
		Actor:   "gm",
		Entropy: rand.New(rand.NewSource(seed)),
		Roller:  &htRoller{r: rand.New(rand.NewSource(seed + 1))},
	}
}

// htCampaign is a campaign file with its writer and its links.
type htCampaign struct {
	t    *testing.T
	path string
	svc  *campaign.Service
	// gm is the GM's token; players maps a character's name to his
	// player's token, ids a character's or foe's name to his ID.
	gm      string
	players map[string]string
	ids     map[string]string
}

// htCreate makes a campaign file in a temp folder.
func htCreate(t *testing.T, name string, seed int64) *htCampaign {
	t.Helper()
	return htCreateAt(t, filepath.Join(t.TempDir(), "c.ltscamp"), name, seed)
}

// htCreateAt makes a campaign at path: a file, or a postgres:// address.
func htCreateAt(t *testing.T, path, name string, seed int64) *htCampaign {
	t.Helper()
	svc, err := campaign.Create(path, name, rules.Edition2021, htOptions(seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return &htCampaign{t: t, path: path, svc: svc, players: map[string]string{}, ids: map[string]string{}}
}

func (c *htCampaign) must(err error) {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
}

func (c *htCampaign) char(name string, st, dx, iq int, skills ...string) {
	c.t.Helper()
	sh, err := c.svc.CreateCharacter(campaign.NewCharacter{Name: name, Attributes: rules.Attributes{ST: st, DX: dx, IQ: iq}, Skills: skills})
	c.must(err)
	c.ids[sh.Name] = sh.ID
}

func (c *htCampaign) foe(name string, st, dx, iq int, skills ...string) {
	c.t.Helper()
	sh, err := c.svc.AddFoe(campaign.NewFoe{Name: name, Attributes: rules.Attributes{ST: st, DX: dx, IQ: iq}, Skills: skills})
	c.must(err)
	c.ids[sh.Name] = sh.ID
}

func (c *htCampaign) award(name string, n int, reason string) {
	c.t.Helper()
	_, err := c.svc.AwardXP([]string{name}, n, reason)
	c.must(err)
}

// shareGM and sharePlayer grant links and keep their tokens.
func (c *htCampaign) shareGM() string {
	c.t.Helper()
	res, err := c.svc.Share(campaign.ShareRequest{GM: true})
	c.must(err)
	c.gm = res.Token
	return res.Token
}

func (c *htCampaign) sharePlayer(name string) string {
	c.t.Helper()
	res, err := c.svc.Share(campaign.ShareRequest{Character: name})
	c.must(err)
	c.players[name] = res.Token
	return res.Token
}

// head is the campaign's head: its seq and the first 12 digits of its
// hash, as pages show it.
func (c *htCampaign) head() (int64, string) {
	c.t.Helper()
	seq, hash, err := c.svc.Store().Head()
	c.must(err)
	return seq, hex.EncodeToString(hash)[:12]
}

func (c *htCampaign) count() int64 {
	c.t.Helper()
	n, err := c.svc.EventCount()
	c.must(err)
	return n
}

// htServe starts web.New on files, with the clock clk, and closes it at
// the end of the test.
func htServe(t *testing.T, clk *htClock, files ...string) *web.Server {
	t.Helper()
	srv, err := web.New(web.Config{
		Files: files,
		Open: func(p string) (*campaign.Service, error) {
			return campaign.OpenReadOnly(p, campaign.Options{Now: clk.Now, Actor: "serve"})
		},
		Now:  clk.Now,
		Poll: 20 * time.Millisecond,
		Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// htResp is an answer of the handler.
type htResp struct {
	Status int
	Header http.Header
	Body   string
}

// htDo asks h for target with method, from the address remote.
func htDo(h http.Handler, method, target, remote string) htResp {
	r := httptest.NewRequest(method, target, nil)
	if remote != "" {
		r.RemoteAddr = remote
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return htResp{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func htGet(h http.Handler, target string) htResp { return htDo(h, http.MethodGet, target, "") }

// htText is a page's body with its character references decoded: the text
// a reader sees, where names are looked for.
func htText(body string) string { return html.UnescapeString(body) }

var htHrefRE = regexp.MustCompile(`href="([^"]*)"`)

// htLinks returns the hrefs of a page that stay on the server, decoded.
func htLinks(body string) []string {
	var out []string
	for _, m := range htHrefRE.FindAllStringSubmatch(body, -1) {
		u := html.UnescapeString(m[1])
		if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
			out = append(out, u)
		}
	}
	return out
}

// htCrawl reads every page reachable from start by the links of the pages
// (the static files aside), and returns them by path.
func htCrawl(t *testing.T, h http.Handler, start string) map[string]htResp {
	t.Helper()
	seen := map[string]htResp{}
	queue := []string{start}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if _, ok := seen[u]; ok || strings.HasPrefix(u, "/static/") {
			continue
		}
		r := htGet(h, u)
		seen[u] = r
		if r.Status != http.StatusOK {
			t.Errorf("GET %s (a link on a page): %d", u, r.Status)
			continue
		}
		queue = append(queue, htLinks(r.Body)...)
		if len(seen) > 500 {
			t.Fatalf("crawling from %s: more than 500 pages", start)
		}
	}
	return seen
}

// htBase is the start of a link's paths.
func htBase(token string) string { return "/s/" + token + "/" }

// htNoGoText fails when body holds Go's or the runtime's words: a stack
// trace, an error of the standard library, a file path of the program.
func htNoGoText(t *testing.T, what string, body string) {
	t.Helper()
	for _, bad := range []string{"goroutine ", "panic", "runtime error", ".go:", "sqlite", "SQL", "no such file", "invalid memory", "%!", "<nil>", "/tmp/", "ltscamp/web"} {
		if strings.Contains(body, bad) {
			t.Errorf("%s: the body holds %q:\n%s", what, bad, htShort(body))
		}
	}
}

// htShort cuts a body for a message.
func htShort(s string) string {
	if len(s) > 600 {
		return s[:600] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

func htItoa(n int64) string { return fmt.Sprint(n) }

// htEvent is a server-sent event.
type htEvent struct{ id, name, data string }

// htNextEvent reads the next event of a stream (comments and blocks that
// only set retry skipped).
func htNextEvent(r *bufio.Reader) (htEvent, error) {
	var ev htEvent
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if ev.name != "" || ev.data != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[len("id: "):]
		case strings.HasPrefix(line, "event: "):
			ev.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		}
	}
}

// htReal asks a real server (httptest.Server) for path.
func htReal(t *testing.T, ts *httptest.Server, method, path string) htResp {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return htResp{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

// htStore is where a test's campaign is kept: a file, or a campaign of a
// PostgreSQL database (pgtest).
type htStore struct {
	name string
	path func(t *testing.T) string
}

// htStores are the stores the tests that read a campaign through serve
// run on: what serve shows must not depend on where the log is kept.
var htStores = []htStore{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "c.ltscamp") }},
	{"postgres", func(t *testing.T) string {
		db := pgtest.Database(t)
		if strings.Contains(db, "?") {
			return db + "&campaign=serve"
		}
		return db + "?campaign=serve"
	}},
}

// htOnEveryStore runs test as a subtest on each of htStores.
func htOnEveryStore(t *testing.T, test func(t *testing.T, path string)) {
	for _, st := range htStores {
		t.Run(st.name, func(t *testing.T) { test(t, st.path(t)) })
	}
}

// TestMain stops the PostgreSQL cluster the tests started, if any.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
