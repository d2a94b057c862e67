// Package web is `ltscamp serve`: read-only pages of one or more campaigns
// for the players' phones and the GM's browser, each reached by a link that
// `ltscamp share` granted.
//
// It holds no rules and decides nothing: it opens each campaign read-only
// through campaign, and renders the view structs exports renders (a sheet
// on a page says what its Markdown and PDF say). A link's token is looked
// up by its hash among the campaign's shares; what the link's scope may see
// is decided in one place (scope.go) and tested by a property test.
package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

// Config sets a server up.
type Config struct {
	// Files are the campaign files served.
	Files []string
	// Open opens a campaign file read-only (campaign.OpenReadOnly with the
	// program's options).
	Open func(path string) (*campaign.Service, error)
	// Now is the wall clock: links expire by it.
	Now func() time.Time
	// Poll is how often each campaign's head is read for live pages
	// (default 250 ms).
	Poll time.Duration
	// Logf, when set, hears what the server did not serve and why.
	Logf func(format string, args ...any)
}

// Server answers the pages of the campaigns of its Config.
type Server struct {
	cfg   Config
	sites []*site
	pages *pages
	bad   *limiter
	// uses counts the page loads of each link with a limit of uses, by
	// share ID.
	usesMu        sync.Mutex
	uses          map[string]int
	usesUnwritten bool
	stop          chan struct{}
	wg            sync.WaitGroup
}

// New opens every campaign of cfg and starts watching their heads.
func New(cfg Config) (*Server, error) {
	if cfg.Open == nil || cfg.Now == nil {
		return nil, errors.New("web: Config.Open and Config.Now are required")
	}
	if len(cfg.Files) == 0 {
		return nil, errors.New("web: no campaign to serve")
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 250 * time.Millisecond
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	p, err := newPages()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, pages: p, bad: newLimiter(cfg.Now), uses: map[string]int{}, stop: make(chan struct{})}
	for _, f := range cfg.Files {
		st, err := openSite(f, cfg.Open)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.sites = append(s.sites, st)
		// The uses counted before: this server goes on from them.
		if uses, err := ReadUses(f); err == nil {
			for id, n := range uses {
				s.uses[id] = n
			}
		}
	}
	for _, st := range s.sites {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			st.watch(s.stop, cfg.Poll, cfg.Logf)
		}()
	}
	return s, nil
}

// Close stops watching and closes every campaign.
func (s *Server) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.wg.Wait()
	for _, st := range s.sites {
		st.close()
	}
}

// Campaigns names the campaigns served, by file.
func (s *Server) Campaigns() []string {
	var out []string
	for _, st := range s.sites {
		out = append(out, st.path)
	}
	return out
}

// securityHeaders go on every answer: no script or style but the
// server's own, no framing, no referrer (links carry tokens), no sniffing,
// no caching of pages a token opened.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.plain(w, http.StatusMethodNotAllowed, "Pages here are only read: GET and HEAD.")
		return
	}
	path := r.URL.Path
	switch {
	case path == "/":
		s.index(w, r)
		return
	case strings.HasPrefix(path, "/static/"):
		s.pages.static(w, r, strings.TrimPrefix(path, "/static/"))
		return
	case path == "/favicon.ico" || path == "/robots.txt":
		if path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
			return
		}
		http.NotFound(w, r)
		return
	}
	rest, ok := strings.CutPrefix(path, "/s/")
	if !ok {
		s.notFound(w)
		return
	}
	token, page, _ := strings.Cut(rest, "/")
	ip := clientIP(r)
	if wait, slowed := s.bad.slowed(ip); slowed {
		w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
		s.plain(w, http.StatusTooManyRequests, "Too many wrong links from here: wait a minute.")
		return
	}
	st, sh, err := s.find(token)
	if err != nil {
		s.cfg.Logf("serve: %v", err)
		s.plain(w, http.StatusServiceUnavailable, "The campaign cannot be read just now; try again in a moment.")
		return
	}
	if st == nil {
		s.bad.failed(ip)
		s.notFound(w)
		return
	}
	// A use is a page opened (GET): a live page fetching itself again
	// after a write (fetch, not a navigation), its stream, and HEAD are
	// none; a link used up opens nothing, streams included.
	counts := r.Method == http.MethodGet && page != "live" && r.Header.Get("Sec-Fetch-Mode") != "same-origin"
	if sh.Uses > 0 && !s.use(st, sh, counts) {
		s.notFound(w)
		return
	}
	if page == "live" {
		s.live(w, r, st, sh)
		return
	}
	v := viewer{share: sh, base: "/s/" + token + "/"}
	body, status, err := st.render(s.pages, v, page, r.URL.Query(), s.cfg.Now())
	if err != nil {
		s.cfg.Logf("serve: %s: %v", st.path, err)
		s.plain(w, http.StatusInternalServerError, "This page could not be made: the server's log says why.")
		return
	}
	if status == http.StatusNotFound {
		s.notFound(w)
		return
	}
	if r.Method == http.MethodGet && page == "" {
		s.remember(w, r, token)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

// find returns the campaign and the open link whose token is token (nil
// when none is).
func (s *Server) find(token string) (*site, projections.Share, error) {
	if !plausibleToken(token) {
		return nil, projections.Share{}, nil
	}
	now := s.cfg.Now()
	for _, st := range s.sites {
		sh, ok, err := st.share(token)
		if err != nil {
			return nil, projections.Share{}, err
		}
		if ok && sh.Open(now) {
			return st, sh, nil
		}
	}
	return nil, projections.Share{}, nil
}

// plausibleToken reports whether t can be a token at all: 43 letters of
// base64url. Anything else is not looked up.
func plausibleToken(t string) bool {
	if len(t) != 43 {
		return false
	}
	for _, c := range t {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// use counts a page load of a link with a limit of uses (when count is
// set), and reports whether it is within the limit. The count is kept
// beside the campaign file (see UsesPath); a failure to write it leaves
// the count in memory, and is logged once.
func (s *Server) use(st *site, sh projections.Share, count bool) bool {
	s.usesMu.Lock()
	defer s.usesMu.Unlock()
	if s.uses[sh.ID] >= sh.Uses {
		return false
	}
	if count {
		s.uses[sh.ID]++
		mine := map[string]int{}
		for _, l := range st.sharesNow() {
			if n, ok := s.uses[l.ID]; ok {
				mine[l.ID] = n
			}
		}
		if err := writeUses(st.path, mine); err != nil && !s.usesUnwritten {
			s.usesUnwritten = true
			s.cfg.Logf("serve: the uses of links are counted in memory only: %v", err)
		}
	}
	return true
}

func (s *Server) notFound(w http.ResponseWriter) {
	s.plain(w, http.StatusNotFound, "No such page. Open the link your GM gave you (ltscamp share); a link that worked before may have expired or been revoked.")
}

// plain writes a page of one sentence.
func (s *Server) plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	s.pages.plain(w, status, msg)
}

// clientIP is the address a request came from, without its port.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Listen serves s on addr until ctx is done, then shuts down gracefully.
// ready, when set, hears the address listened on.
func Listen(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}
