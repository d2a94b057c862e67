package web_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
)

// TestIndexListsTheBrowsersLinks: one server holds two campaigns; a browser
// that opened a player's link of one and the GM's link of the other finds
// both at /, by campaign, and nothing else; a link revoked drops out; a
// browser with no link, or a forged cookie, sees only the page asking for
// one.
func TestIndexListsTheBrowsersLinks(t *testing.T) {
	a := htCreate(t, "Kit-Kat", 1)
	a.char("Kira", 10, 12, 10)
	kira, err := a.svc.Share(campaign.ShareRequest{Character: "Kira"})
	a.must(err)
	b := htCreate(t, "Derelict", 2)
	b.char("Brann", 14, 10, 8)
	gm, err := b.svc.Share(campaign.ShareRequest{GM: true})
	b.must(err)
	c := htCreate(t, "Elsewhere", 3)
	c.char("Zed", 10, 12, 10)
	srv := htServe(t, &htClock{t: htStart.Add(time.Hour)}, a.path, b.path, c.path)
	hs := httptest.NewServer(srv)
	defer hs.Close()

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	get := func(cl *http.Client, path string) (int, string) {
		t.Helper()
		resp, err := cl.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if _, body := get(browser, "/"); strings.Contains(body, "Your campaigns") {
		t.Fatal("an index before any link was opened")
	}
	for _, token := range []string{kira.Token, gm.Token} {
		if code, _ := get(browser, "/s/"+token+"/"); code != http.StatusOK {
			t.Fatalf("link: %d", code)
		}
	}
	_, body := get(browser, "/")
	for _, want := range []string{"Your campaigns", "Kit-Kat", "Kira&#39;s link", "Derelict", "the GM&#39;s link", "/s/" + kira.Token + "/", "/s/" + gm.Token + "/"} {
		if !strings.Contains(body, want) {
			t.Errorf("the index lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Elsewhere") {
		t.Error("the index names a campaign the browser holds no link to")
	}
	// Revoked: it drops out of the index.
	_, _, err = a.svc.RevokeShare(kira.Share.ID, "")
	a.must(err)
	if _, body := get(browser, "/"); strings.Contains(body, "Kit-Kat") || !strings.Contains(body, "Derelict") {
		t.Errorf("after Kira's link was revoked, the index:\n%s", body)
	}
	// Another browser, and a forged cookie: the page asking for a link.
	forged := &http.Client{}
	req, _ := http.NewRequest(http.MethodGet, hs.URL+"/", nil)
	req.AddCookie(&http.Cookie{Name: "ltscamp_links", Value: strings.Repeat("A", 43) + " x"})
	resp, err := forged.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	forgedBody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, b := range []string{string(forgedBody), func() string { _, b := get(&http.Client{}, "/"); return b }()} {
		if strings.Contains(b, "Your campaigns") || strings.Contains(b, "Derelict") || !strings.Contains(b, "Open the link your GM gave you") {
			t.Errorf("a browser with no link of its own sees:\n%s", b)
		}
	}
}
