package web

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
	"github.com/ltscamp/ltscamp/rules"
)

// TestLiveHearsAWriteMadeBeforeItsStreamOpened: a page names the seq it
// shows in its live stream's address, and a write that lands after the
// page was made but before its stream opened is heard at once. Before,
// the stream started from the head it found when it opened, and such a
// page stayed behind the log until the next write.
func TestLiveHearsAWriteMadeBeforeItsStreamOpened(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	opts := campaign.Options{Now: now, Actor: "gm"}
	s, err := campaign.Create(path, "Live", rules.DefaultEdition, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gm, err := s.Share(campaign.ShareRequest{GM: true})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Files: []string{path}, Now: now,
		Open: func(p string) (*campaign.Service, error) { return campaign.OpenReadOnly(p, opts) }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close()

	// The page, at the head of the log.
	resp, err := http.Get(ts.URL + "/s/" + gm.Token + "/")
	if err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	bufio.NewReader(resp.Body).WriteTo(&page)
	resp.Body.Close()
	seq, _, err := s.Store().Head()
	if err != nil {
		t.Fatal(err)
	}
	live := fmt.Sprintf("/s/%s/live?seq=%d", gm.Token, seq)
	if !strings.Contains(page.String(), `content="`+live+`"`) {
		t.Fatalf("the page does not name its seq in its live stream's address %s:\n%s", live, page.String())
	}

	// A write, then the stream opens.
	if _, err := s.Share(campaign.ShareRequest{GM: true}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+live, nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	want := fmt.Sprintf("id: %d", seq+1)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if sc.Text() == want {
			return
		}
	}
	t.Fatalf("the stream opened after the write at seq %d never said so (%v)", seq+1, sc.Err())
}
