package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/web"
)

// htLive is a live page's stream of events, read in the background.
type htLive struct {
	res    *http.Response
	events chan htEvent
	// ended is closed when the stream ends.
	ended  chan struct{}
	cancel func()
}

// htOpenLive opens the live stream at url, with Last-Event-ID last when
// it is not "". It fails unless the answer's headers come within 1 s.
func htOpenLive(t *testing.T, url, last string) *htLive {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	type answer struct {
		res *http.Response
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		got <- answer{res, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-time.After(time.Second):
		cancel()
		t.Fatalf("GET %s: no answer within 1 s", url)
	}
	if a.err != nil {
		cancel()
		t.Fatal(a.err)
	}
	l := &htLive{res: a.res, events: make(chan htEvent, 100), ended: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(l.ended)
		r := bufio.NewReader(a.res.Body)
		for {
			ev, err := htNextEvent(r)
			if err != nil {
				return
			}
			l.events <- ev
		}
	}()
	t.Cleanup(l.close)
	return l
}

func (l *htLive) close() {
	l.cancel()
	l.res.Body.Close()
}

// next returns the next event within d, or false.
func (l *htLive) next(d time.Duration) (htEvent, bool) {
	select {
	case ev := <-l.events:
		return ev, true
	case <-time.After(d):
		return htEvent{}, false
	}
}

// htLiveServer serves c's file as `ltscamp serve` does: the head read
// every 250 ms (Config.Poll left to its default).
func htLiveServer(t *testing.T, c *htCampaign) *httptest.Server {
	t.Helper()
	clk := &htClock{t: htStart.Add(time.Hour)}
	srv, err := web.New(web.Config{
		Files: []string{c.path},
		Open: func(p string) (*campaign.Service, error) {
			return campaign.OpenReadOnly(p, campaign.Options{Now: clk.Now, Actor: "serve"})
		},
		Now:  clk.Now,
		Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		srv.Close()
	})
	return ts
}

// TestLiveHearsAWriteWithinASecond writes with another service on the
// file while a player's live page listens: the event, keyed by the new
// seq, comes within 1 s, and the page then shows the new head. It runs
// on a campaign file and on a campaign in PostgreSQL.
func TestLiveHearsAWriteWithinASecond(t *testing.T) { htOnEveryStore(t, liveHearsAWrite) }

func liveHearsAWrite(t *testing.T, path string) {
	c := htTableAt(t, path)
	ts := htLiveServer(t, c)
	for round, who := range []string{"Kira", "gm"} {
		token := c.players["Kira"]
		if who == "gm" {
			token = c.gm
		}
		l := htOpenLive(t, ts.URL+htBase(token)+"live", "")
		if ev, ok := l.next(300 * time.Millisecond); ok {
			t.Fatalf("%s: an event before any write: %+v", who, ev)
		}
		for i := range 3 {
			before, _ := c.head()
			// Another process's service writes (with entropy of its
			// own: the same IDs would be taken for the same command).
			w, err := campaign.Open(c.path, htOptions(int64(100+10*round+i)))
			c.must(err)
			_, err = w.AwardXP([]string{"Kira"}, 1, fmt.Sprintf("live %s %d", who, i))
			c.must(err)
			wrote := time.Now()
			seq, short := c.head()
			c.must(w.Close())
			if seq != before+1 {
				t.Fatalf("%s: the write took the head from %d to %d", who, before, seq)
			}
			ev, ok := l.next(time.Second)
			if !ok {
				t.Fatalf("%s: no event within 1 s of the write of seq %d", who, seq)
			}
			t.Logf("%s: write %d heard after %v", who, i, time.Since(wrote).Round(time.Millisecond))
			if ev.name != "head" || ev.id != htItoa(seq) || !strings.HasPrefix(ev.data, fmt.Sprintf("%d %s", seq, short)) {
				t.Errorf("%s: event %+v, want head %d %s…", who, ev, seq, short)
			}
			page := htReal(t, ts, http.MethodGet, htBase(token))
			if !strings.Contains(page.Body, fmt.Sprintf("seq %d, hash <code>%s</code>", seq, short)) {
				t.Errorf("%s: after the event, the page does not show the head %d %s", who, seq, short)
			}
		}
		l.close()
	}
}

// TestLiveReconnectHearsTheHeadAtOnce reconnects as EventSource does,
// with the seq it last heard: an older seq hears the current head at
// once, the current one hears nothing until the next write.
func TestLiveReconnectHearsTheHeadAtOnce(t *testing.T) {
	c := htTable(t)
	ts := htLiveServer(t, c)
	seq, short := c.head()
	url := ts.URL + htBase(c.players["Brann"]) + "live"
	for _, last := range []int64{0, 1, seq - 1} {
		l := htOpenLive(t, url, htItoa(last))
		ev, ok := l.next(500 * time.Millisecond)
		if !ok {
			t.Errorf("Last-Event-ID %d: no event at once", last)
		} else if ev.id != htItoa(seq) || !strings.HasPrefix(ev.data, fmt.Sprintf("%d %s", seq, short)) {
			t.Errorf("Last-Event-ID %d: event %+v, want the head %d %s…", last, ev, seq, short)
		}
		l.close()
	}
	l := htOpenLive(t, url, htItoa(seq))
	if ev, ok := l.next(500 * time.Millisecond); ok {
		t.Errorf("Last-Event-ID of the head: an event %+v", ev)
	}
	c.award("Brann", 1, "after the reconnect")
	if ev, ok := l.next(time.Second); !ok || ev.id != htItoa(seq+1) {
		t.Errorf("after a write: %+v %v, want seq %d", ev, ok, seq+1)
	}
	if ct := l.res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
}

// TestLiveOfARevokedLinkEnds revokes a link while its live page listens:
// the stream ends, and the link opens nothing more; another link's stream
// goes on.
func TestLiveOfARevokedLinkEnds(t *testing.T) {
	c := htTable(t)
	ts := htLiveServer(t, c)
	kira := htOpenLive(t, ts.URL+htBase(c.players["Kira"])+"live", "")
	brann := htOpenLive(t, ts.URL+htBase(c.players["Brann"])+"live", "")
	shares, err := c.svc.Shares()
	c.must(err)
	var id string
	for _, sh := range shares {
		if sh.Character == "Kira" {
			id = sh.ID
		}
	}
	_, _, err = c.svc.RevokeShare(id, "the phone was lost")
	c.must(err)
	seq, _ := c.head()
	select {
	case <-kira.ended:
	case <-time.After(2 * time.Second):
		t.Error("the revoked link's stream still runs 2 s after the revocation")
	}
	for ev := range htDrain(kira.events) {
		if ev.id == htItoa(seq) {
			t.Errorf("the revoked link heard of its own revocation: %+v", ev)
		}
	}
	if ev, ok := brann.next(time.Second); !ok || ev.id != htItoa(seq) {
		t.Errorf("Brann's stream: %+v %v, want the head %d", ev, ok, seq)
	}
	if r := htReal(t, ts, http.MethodGet, htBase(c.players["Kira"])+"live"); r.Status != http.StatusNotFound {
		t.Errorf("the revoked link's live page: %d, want 404", r.Status)
	}
}

// htDrain yields what a channel holds now.
func htDrain(ch chan htEvent) func(func(htEvent) bool) {
	return func(yield func(htEvent) bool) {
		for {
			select {
			case ev := <-ch:
				if !yield(ev) {
					return
				}
			default:
				return
			}
		}
	}
}
