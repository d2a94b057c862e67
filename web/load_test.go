package web

import (
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/rules"
)

// benchSite serves the campaign file LTSCAMP_SERVE_BENCH_DB (a copy of
// bench/serve.sh's 1M campaign: the benchmark grants links in it) to a
// player's link and the GM's, in process.
func benchSite(b *testing.B) (srv *Server, player, gm, id string) {
	b.Helper()
	path := os.Getenv("LTSCAMP_SERVE_BENCH_DB")
	if path == "" {
		b.Skip("LTSCAMP_SERVE_BENCH_DB names no campaign file")
	}
	opts := campaign.Options{Now: time.Now, Actor: "bench"}
	s, err := campaign.Open(path, opts)
	if err != nil {
		b.Fatal(err)
	}
	party, err := s.Sheets()
	if err != nil || len(party) == 0 {
		b.Fatalf("no party: %v", err)
	}
	pl, err := s.Share(campaign.ShareRequest{Character: party[0].Name})
	if err != nil {
		b.Fatal(err)
	}
	g, err := s.Share(campaign.ShareRequest{GM: true})
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	srv, err = New(Config{
		Files: []string{path},
		Open:  func(p string) (*campaign.Service, error) { return campaign.OpenReadOnly(p, opts) },
		Now:   time.Now,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	return srv, pl.Token, g.Token, party[0].ID
}

func benchGet(b *testing.B, h http.Handler, path string) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		b.Errorf("%s: %d", path, rec.Code)
	}
}

// BenchmarkServePages: one page of a player's link, rendered afresh
// (the cache dropped, as after a write) and from the cache.
//
//	LTSCAMP_SERVE_BENCH_DB=/tmp/copy.ltscamp go test ./web -run '^$' -bench ServePages
func BenchmarkServePages(b *testing.B) {
	srv, player, _, id := benchSite(b)
	for _, page := range []string{"", "sheet/" + id, "audit/" + id, "rolls/" + id} {
		path := "/s/" + player + "/" + page
		name := strings.TrimSuffix(page, "/"+id)
		if name == "" {
			name = "party"
		}
		b.Run(name+"/fresh", func(b *testing.B) {
			for b.Loop() {
				st := srv.sites[0]
				st.mu.Lock()
				st.cache = map[string]cached{}
				st.mu.Unlock()
				benchGet(b, srv, path)
			}
		})
		b.Run(name+"/cached", func(b *testing.B) {
			benchGet(b, srv, path)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					benchGet(b, srv, path)
				}
			})
		})
	}
}

// gate holds the reads of the stores it guards while it is shut: every
// read but the head's, or those naming one stream.
type gate struct {
	mu      sync.Mutex
	shut    chan struct{} // nil: open
	entered chan struct{} // hears a read that waits
	// only, when set, is the one stream whose reads wait.
	only string
}

func (g *gate) wait(streams ...string) {
	g.mu.Lock()
	shut := g.shut
	g.mu.Unlock()
	if shut != nil && (g.only == "" || slices.Contains(streams, g.only)) {
		select {
		case g.entered <- struct{}{}:
		default:
		}
		<-shut
	}
}

func (g *gate) close() {
	g.mu.Lock()
	g.shut = make(chan struct{})
	g.mu.Unlock()
}

func (g *gate) open() {
	g.mu.Lock()
	close(g.shut)
	g.shut = nil
	g.mu.Unlock()
}

// gatedStore is a campaign's store whose reads, but for the head, wait
// while its gate is shut: a page being rendered then stays in its render
// for as long as the test wants.
type gatedStore struct {
	events.Store
	g *gate
}

func (s gatedStore) ReadStream(stream string, after int64) ([]events.Event, error) {
	s.g.wait(stream)
	return s.Store.ReadStream(stream, after)
}

func (s gatedStore) StreamVersion(stream string) (int64, error) {
	s.g.wait(stream)
	return s.Store.StreamVersion(stream)
}

func (s gatedStore) Read(q events.Query) ([]events.Event, error) {
	s.g.wait(q.Streams...)
	return s.Store.Read(q)
}

func (s gatedStore) Iter(q events.Query) iter.Seq2[events.Event, error] {
	s.g.wait(q.Streams...)
	return s.Store.Iter(q)
}

func (s gatedStore) Snapshot(q events.SnapshotQuery) (events.Snapshot, bool, error) {
	s.g.wait(q.Stream)
	return s.Store.Snapshot(q)
}

// TestSlowRenderHoldsNoOneElse: while one page is being rendered (a
// character's audit at 1M events takes a quarter of a second, and every
// page is rendered again after each write), a page rendered already at
// this head is answered, and the head can be read (the live streams read
// it): the render does not hold the whole campaign.
// gatedCampaign makes a campaign of the named characters with a GM link,
// and returns its file, the characters' IDs and the link's token.
func gatedCampaign(t *testing.T, names ...string) (path string, ids []string, token string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "gated.ltscamp")
	s, err := campaign.Create(path, "Gated", rules.Edition("2021"), campaign.Options{Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range names {
		sh, err := s.CreateCharacter(campaign.NewCharacter{Name: name, Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sh.ID)
	}
	res, err := s.Share(campaign.ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	return path, ids, res.Token
}

// gatedServer serves the campaign at path through a store that waits at
// the gate g, with no watcher (nothing moves the head here), and returns
// the server, the start of the link token's pages and a GET of one that
// wants a 200.
func gatedServer(t *testing.T, path, token string, g *gate) (*Server, string, func(u string) error) {
	t.Helper()
	opts := campaign.Options{Now: time.Now, Actor: "gm"}
	srv, err := New(Config{
		Files: []string{path},
		Open: func(p string) (*campaign.Service, error) {
			st, err := sqlitestore.OpenReadOnly(p)
			if err != nil {
				return nil, err
			}
			return campaign.New(gatedStore{Store: st, g: g}, opts)
		},
		Now:  time.Now,
		Poll: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	get := func(u string) error {
		resp, err := hs.Client().Get(u)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", u, resp.Status)
		}
		return nil
	}
	return srv, hs.URL + "/s/" + token + "/", get
}

func TestSlowRenderHoldsNoOneElse(t *testing.T) {
	path, ids, token := gatedCampaign(t, "Ajax")
	g := &gate{entered: make(chan struct{}, 1)}
	srv, base, get := gatedServer(t, path, token, g)
	if err := get(base); err != nil { // the party page, rendered at this head
		t.Fatal(err)
	}
	g.close()
	sheet := make(chan error, 1)
	go func() { sheet <- get(base + "sheet/" + ids[0]) }()
	select {
	case <-g.entered: // the sheet's render waits in a read
	case <-time.After(5 * time.Second):
		t.Fatal("the sheet's render never read the campaign")
	}
	party := make(chan error, 1)
	go func() { party <- get(base) }()
	select {
	case err := <-party:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(2 * time.Second):
		t.Error("a page rendered already was not answered while another page was being rendered")
	}
	head := make(chan struct{})
	go func() { srv.sites[0].head(); close(head) }()
	select {
	case <-head:
	case <-time.After(2 * time.Second):
		t.Error("the head could not be read while a page was being rendered")
	}
	g.open()
	if err := <-sheet; err != nil {
		t.Error(err)
	}
}

// countedStore counts the reads of the log's head.
type countedStore struct {
	events.Store
	heads *atomic.Int64
}

func (s countedStore) Head() (int64, []byte, error) {
	s.heads.Add(1)
	return s.Store.Head()
}

// TestCachedPageReadsTheHeadOnce: a page rendered already at the head
// costs one read of the head (is it still the head?), not one for the
// link and one more for the page: at 200 clients, the head's read is
// most of a cached page's time.
func TestCachedPageReadsTheHeadOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counted.ltscamp")
	opts := campaign.Options{Now: time.Now, Actor: "gm"}
	s, err := campaign.Create(path, "Counted", rules.Edition("2021"), opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Share(campaign.ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var heads atomic.Int64
	srv, err := New(Config{
		Files: []string{path},
		Open: func(p string) (*campaign.Service, error) {
			st, err := sqlitestore.OpenReadOnly(p)
			if err != nil {
				return nil, err
			}
			return campaign.New(countedStore{Store: st, heads: &heads}, opts)
		},
		Now:  time.Now,
		Poll: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func() {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/s/"+res.Token+"/", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("the party page: %d", rec.Code)
		}
	}
	get() // rendered, and kept
	before := heads.Load()
	get()
	if n := heads.Load() - before; n != 1 {
		t.Errorf("a cached page read the head %d times, want once", n)
	}
}

// liveHeap is the Go heap the last GC found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestTimelinePageHoldsOnlyWhatItShows: the GM's timeline page shows the
// latest entries, and its render holds about those, not the whole
// campaign's timeline (hundreds of megabytes at 1M events: the server's
// RSS went past its 256 MB).
func TestTimelinePageHoldsOnlyWhatItShows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.ltscamp")
	st, err := sqlitestore.Create(path, sqlitestore.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := campaign.Generate(st, campaign.GenerateOptions{Characters: 2, EventsPerCharacter: 20000, EventsPerCommand: 100,
		Seed: 1, Start: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Edition: rules.Edition("2021")}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	opts := campaign.Options{Now: time.Now, Actor: "gm"}
	s, err := campaign.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Share(campaign.ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	srv, err := New(Config{
		Files: []string{path},
		Open:  func(p string) (*campaign.Service, error) { return campaign.OpenReadOnly(p, opts) },
		Now:   time.Now,
		Poll:  time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func(page string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/s/"+res.Token+"/"+page, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", page, rec.Code)
		}
		return rec
	}
	get("") // the party page: the services open, their caches warm
	defer debug.SetGCPercent(debug.SetGCPercent(2))
	runtime.GC()
	base := liveHeap()
	stop, peak := make(chan struct{}), make(chan uint64)
	go func() {
		top := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				peak <- top
				return
			case <-tick.C:
				top = max(top, liveHeap())
			}
		}
	}()
	page := get("timeline?rolls=1").Body.String()
	close(stop)
	grew := <-peak - base
	t.Logf("live heap grew by %d kB rendering the timeline of %d bytes", grew>>10, len(page))
	if !strings.Contains(page, "entries are shown") {
		t.Fatal("the timeline page shows every entry: the campaign is too short for this test")
	}
	if grew > 2<<20 {
		t.Errorf("rendering the timeline page held %d kB more: it holds the whole timeline", grew>>10)
	}
	// And it shows what the whole timeline, trimmed, shows.
	ro, err := campaign.OpenReadOnly(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	whole, err := ro.TimelineOf(campaign.TimelineQuery{Rolls: true})
	if err != nil {
		t.Fatal(err)
	}
	shown, all := newestEntries(&whole)
	var want []string
	for _, p := range whole.Periods {
		for _, d := range p.Days {
			for _, e := range d.Entries {
				want = append(want, fmt.Sprint(e.Seq))
			}
		}
	}
	var got []string
	for _, m := range regexp.MustCompile(`<li><span class="faint">(\d+)</span>`).FindAllStringSubmatch(page, -1) {
		got = append(got, m[1])
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the page shows the entries %v\nwant the whole timeline's last %d: %v", got, shown, want)
	}
	if !strings.Contains(page, fmt.Sprintf("The last %d of %d entries are shown", shown, all)) {
		t.Errorf("the page does not say it shows the last %d of %d entries", shown, all)
	}
}

// TestSlowRenderHoldsNoOtherRender: while one page is being rendered
// (the GM's timeline takes seconds at 1M events, an audit a quarter of
// one), a page of another character is rendered beside it, not after it.
func TestSlowRenderHoldsNoOtherRender(t *testing.T) {
	path, ids, token := gatedCampaign(t, "Ajax", "Hector")
	g := &gate{entered: make(chan struct{}, 1), only: events.CharacterStream(ids[0])}
	_, base, get := gatedServer(t, path, token, g)
	g.close()
	ajax := make(chan error, 1)
	go func() { ajax <- get(base + "sheet/" + ids[0]) }()
	select {
	case <-g.entered: // Ajax's sheet waits in a read of his stream
	case <-time.After(5 * time.Second):
		t.Fatal("Ajax's sheet never read his stream")
	}
	hector := make(chan error, 1)
	go func() { hector <- get(base + "sheet/" + ids[1]) }()
	select {
	case err := <-hector:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(3 * time.Second):
		t.Error("Hector's sheet waited for Ajax's to be rendered")
	}
	g.open()
	if err := <-ajax; err != nil {
		t.Error(err)
	}
}
