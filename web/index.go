package web

import (
	"net/http"
	"slices"
	"strings"
)

// The campaign index: a browser that opened links of this server (a
// player in two campaigns, a GM of several tables served by one `serve`)
// finds them again at /. Each link whose party page it opened is kept in
// a cookie of the browser's own (HttpOnly, SameSite=Strict, for this
// server only), so that / lists the campaigns it holds an open link to,
// and nothing else: a browser with none, or whose links were revoked or
// expired, sees only the page asking for a link. The server keeps nothing.

// linksCookie holds the tokens of the links a browser opened, newest
// first, separated by spaces.
const linksCookie = "ltscamp_links"

// maxRemembered bounds the links a browser's index keeps.
const maxRemembered = 12

// remembered returns the tokens of the links the browser opened.
func remembered(r *http.Request) []string {
	c, err := r.Cookie(linksCookie)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range strings.Fields(c.Value) {
		if plausibleToken(t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// remember keeps token first among the links the browser opened.
func (s *Server) remember(w http.ResponseWriter, r *http.Request, token string) {
	tokens := append([]string{token}, slices.DeleteFunc(remembered(r), func(t string) bool { return t == token })...)
	if len(tokens) > maxRemembered {
		tokens = tokens[:maxRemembered]
	}
	http.SetCookie(w, &http.Cookie{
		Name: linksCookie, Value: strings.Join(tokens, " "), Path: "/",
		MaxAge: 90 * 24 * 60 * 60, HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
	})
}

// indexEntry is a link on the campaign index.
type indexEntry struct {
	Campaign, Whose, Href string
}

// index answers /: the campaigns of the links this browser opened that
// are still open, or the page asking for a link.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	var entries []indexEntry
	for _, token := range remembered(r) {
		st, sh, err := s.find(token)
		if err != nil || st == nil {
			continue
		}
		whose := "the GM's link"
		if !(viewer{share: sh}).gm() {
			whose = sh.Character + "'s link"
		}
		entries = append(entries, indexEntry{Campaign: st.campaignName(), Whose: whose, Href: "/s/" + token + "/"})
	}
	if len(entries) == 0 {
		s.plain(w, http.StatusOK, "This is a campaign's pages. Open the link your GM gave you (ltscamp share).")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.pages.campaigns(w, entries)
}
