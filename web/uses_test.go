package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/web"
)

// TestUsesCountPagesOpened: a link of N uses opens N pages; a live page
// fetching itself again after a write (Sec-Fetch-Mode: same-origin, as
// live.js asks) uses none of them. On PostgreSQL, where there is no
// folder beside the campaign, the count is kept in memory.
func TestUsesCountPagesOpened(t *testing.T) { htOnEveryStore(t, usesCountPagesOpened) }

func usesCountPagesOpened(t *testing.T, path string) {
	c := htCreateAt(t, path, "Uses", 1)
	c.char("Kira", 10, 12, 10)
	two, err := c.svc.Share(campaign.ShareRequest{Character: "Kira", Uses: 2})
	c.must(err)
	srv := htServe(t, &htClock{t: htStart.Add(time.Minute)}, c.path)
	page := htBase(two.Token)
	refresh := func() int {
		r := httptest.NewRequest(http.MethodGet, page, nil)
		r.Header.Set("Sec-Fetch-Mode", "same-origin")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w.Code
	}
	if got := htGet(srv, page).Status; got != http.StatusOK {
		t.Fatalf("the first use: %d", got)
	}
	for i := range 5 {
		if got := refresh(); got != http.StatusOK {
			t.Fatalf("live refresh %d: %d", i+1, got)
		}
	}
	if got := htGet(srv, page).Status; got != http.StatusOK {
		t.Fatalf("the second use, after five live refreshes: %d", got)
	}
	if got := htGet(srv, page).Status; got != http.StatusNotFound {
		t.Errorf("a third page of a link of two uses: %d, want 404", got)
	}
}

// TestUsesOutliveTheServer: the pages a link of N uses opened are counted
// beside the campaign file, so a server started again goes on from them,
// and ReadUses (what `share list` reads) tells them.
func TestUsesOutliveTheServer(t *testing.T) {
	c := htCreate(t, "Uses", 1)
	c.char("Kira", 10, 12, 10)
	two, err := c.svc.Share(campaign.ShareRequest{Character: "Kira", Uses: 2})
	c.must(err)
	clk := &htClock{t: htStart.Add(time.Minute)}
	first := htServe(t, clk, c.path)
	if got := htGet(first, htBase(two.Token)).Status; got != http.StatusOK {
		t.Fatalf("the first use: %d", got)
	}
	first.Close()
	used, err := web.ReadUses(c.path)
	if err != nil || used[two.Share.ID] != 1 {
		t.Fatalf("uses counted beside the file: %v (%v), want 1 for %s", used, err, two.Share.ID)
	}
	again := htServe(t, clk, c.path)
	if got := htGet(again, htBase(two.Token)).Status; got != http.StatusOK {
		t.Fatalf("the second use, on a server started again: %d", got)
	}
	if got := htGet(again, htBase(two.Token)).Status; got != http.StatusNotFound {
		t.Errorf("a third page, the count carried over a restart: %d, want 404", got)
	}
}
