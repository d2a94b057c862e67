package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

// site is one campaign served: its file, opened read-only, and what was
// read of it at its head (the links, the pages rendered), dropped whenever
// the head moves. Pages change only when the log does, so each is made
// once per head, whoever asks.
type site struct {
	path string
	open func(string) (*campaign.Service, error)

	mu   sync.Mutex
	svc  *campaign.Service
	file campaignID
	seq  int64
	hash []byte
	// gen counts the moves of the head (and the files opened): a page
	// rendered before the last is not kept.
	gen int64
	// shares are the links at the head; cache the pages rendered there,
	// by viewer and page.
	shares []projections.Share
	cache  map[string]cached
	// name is the campaign's, for the index of a browser's links.
	name string
	// subs hear each move of the head (live pages).
	subs map[chan struct{}]struct{}

	// Pages are rendered outside mu, by renderers, each with a service
	// of its own (a campaign.Service serves one caller at a time): while
	// pages are rendered, the pages rendered already, the links and the
	// head are read as ever. A page asked for while it is being rendered
	// waits for that render (rendering, under mu).
	renderers chan *renderer
	rendering map[string]*flight
}

// renderers is how many pages of a campaign are rendered at once: a slow
// page (the GM's timeline takes seconds at 1M events, a long character's
// XP audit a quarter of one) leaves the other renderer to the rest.
const renderers = 2

// renderer renders pages on a service of its own, of the file it names.
type renderer struct {
	svc  *campaign.Service
	file campaignID
}

// campaignID tells whether the campaign at a path is still the one
// opened: the file's identity, since a restore or a copy puts another
// file in its place. A campaign on a database server is never replaced
// (its log is append-only there), so its address is its identity.
type campaignID struct{ fi os.FileInfo }

// identify returns the identity of the campaign at path.
func identify(path string) (campaignID, error) {
	if campaign.IsServerAddress(path) {
		return campaignID{}, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return campaignID{}, fmt.Errorf("%s: %w", path, err)
	}
	return campaignID{fi}, nil
}

// same reports whether a and b are the same campaign.
func (a campaignID) same(b campaignID) bool {
	if a.fi == nil || b.fi == nil {
		return a.fi == nil && b.fi == nil
	}
	return os.SameFile(a.fi, b.fi)
}

// flight is a page being rendered, at the head's move gen; done closes
// when it is.
type flight struct {
	gen    int64
	done   chan struct{}
	body   []byte
	status int
	err    error
}

// maxCached bounds the pages a site keeps at one head.
const maxCached = 2048

type cached struct {
	body   []byte
	status int
}

func openSite(path string, open func(string) (*campaign.Service, error)) (*site, error) {
	st := &site{path: path, open: open, subs: map[chan struct{}]struct{}{},
		renderers: make(chan *renderer, renderers), rendering: map[string]*flight{}}
	for range renderers {
		st.renderers <- &renderer{}
	}
	// Opened first, so that a missing or foreign file is refused as every
	// command refuses it.
	svc, err := open(path)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.file, err = identify(path); err != nil {
		svc.Close()
		return nil, err
	}
	st.svc, st.seq = svc, -1
	if _, err := st.refreshLocked(); err != nil {
		return nil, err
	}
	return st, nil
}

func (st *site) close() {
	st.mu.Lock()
	if st.svc != nil {
		st.svc.Close()
		st.svc = nil
	}
	st.mu.Unlock()
	// Each renderer, once its render is over.
	rs := make([]*renderer, 0, renderers)
	for range renderers {
		r := <-st.renderers
		if r.svc != nil {
			r.svc.Close()
			r.svc = nil
		}
		rs = append(rs, r)
	}
	for _, r := range rs {
		st.renderers <- r
	}
}

// refreshLocked brings what the site read up to the file: it opens the
// file again when another was put in its place (a restore, a copy), and
// reads the links again when the head moved. It reports whether the head
// moved. The caller holds mu.
func (st *site) refreshLocked() (bool, error) {
	fi, err := identify(st.path)
	if err != nil {
		return false, err
	}
	if st.svc == nil || !fi.same(st.file) {
		svc, err := st.open(st.path)
		if err != nil {
			return false, err
		}
		if st.svc != nil {
			st.svc.Close()
		}
		st.svc, st.file, st.seq, st.hash = svc, fi, -1, nil
	}
	seq, hash, err := st.svc.Store().Head()
	if err != nil {
		return false, err
	}
	if seq == st.seq && bytes.Equal(hash, st.hash) {
		return false, nil
	}
	shares, err := st.svc.Shares()
	if err != nil {
		return false, err
	}
	if st.name == "" || st.seq < 0 {
		point, err := st.svc.Point("")
		if err != nil {
			return false, err
		}
		st.name = point.Campaign.Name
	}
	st.seq, st.hash, st.shares, st.cache = seq, hash, shares, map[string]cached{}
	st.gen++
	for ch := range st.subs {
		select {
		case ch <- struct{}{}:
		default: // it has one waiting already
		}
	}
	return true, nil
}

// share returns the link of the campaign whose token is token.
func (st *site) share(token string) (projections.Share, bool, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, err := st.refreshLocked(); err != nil {
		return projections.Share{}, false, err
	}
	sh, ok := campaign.FindToken(st.shares, token)
	return sh, ok, nil
}

// watch reads the head every poll until stop, so that live pages hear of
// a write within a poll.
func (st *site) watch(stop <-chan struct{}, poll time.Duration, logf func(string, ...any)) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		st.mu.Lock()
		if len(st.subs) > 0 {
			if _, err := st.refreshLocked(); err != nil {
				logf("serve: %v", err)
			}
		}
		st.mu.Unlock()
	}
}

// subscribe returns a channel that hears each move of the head, and its
// cancel.
func (st *site) subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	st.mu.Lock()
	st.subs[ch] = struct{}{}
	st.mu.Unlock()
	return ch, func() {
		st.mu.Lock()
		delete(st.subs, ch)
		st.mu.Unlock()
	}
}

// sharesNow returns the links at the head the site last read.
func (st *site) sharesNow() []projections.Share {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.shares
}

// campaignName returns the campaign's name.
func (st *site) campaignName() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.name
}

// head returns the head the site last read.
func (st *site) head() (int64, []byte) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.seq, st.hash
}

// render returns the page at path for viewer v, made once per head. It
// reads no head: the request read it just before, when it looked its link
// up (share).
func (st *site) render(p *pages, v viewer, path string, q map[string][]string, now time.Time) ([]byte, int, error) {
	key := v.key() + "\x00" + path + "\x00" + fmt.Sprint(q)
	st.mu.Lock()
	if c, ok := st.cache[key]; ok {
		st.mu.Unlock()
		return c.body, c.status, nil
	}
	if f, ok := st.rendering[key]; ok && f.gen == st.gen {
		st.mu.Unlock()
		<-f.done
		return f.body, f.status, f.err
	}
	f := &flight{gen: st.gen, done: make(chan struct{}), err: errors.New("the page's render failed")}
	st.rendering[key] = f
	st.mu.Unlock()
	defer func() {
		st.mu.Lock()
		// A page rendered while the head moved is not kept: the next
		// request renders it again.
		if f.err == nil && st.gen == f.gen && (f.status == http.StatusOK || f.status == http.StatusNotFound) {
			if len(st.cache) >= maxCached {
				st.cache = map[string]cached{} // a query string of every kind: start again
			}
			st.cache[key] = cached{body: f.body, status: f.status}
		}
		if st.rendering[key] == f {
			delete(st.rendering, key)
		}
		st.mu.Unlock()
		close(f.done)
	}()
	r := <-st.renderers
	defer func() { st.renderers <- r }()
	svc, err := r.service(st.path, st.open)
	if err != nil {
		f.err = err
		return nil, 0, err
	}
	f.body, f.status, f.err = p.page(svc, v, path, q, now)
	return f.body, f.status, f.err
}

// service returns the renderer's service, opening the file at path again
// when another was put in its place.
func (r *renderer) service(path string, open func(string) (*campaign.Service, error)) (*campaign.Service, error) {
	fi, err := identify(path)
	if err != nil {
		return nil, err
	}
	if r.svc != nil && fi.same(r.file) {
		return r.svc, nil
	}
	svc, err := open(path)
	if err != nil {
		return nil, err
	}
	if r.svc != nil {
		r.svc.Close()
	}
	r.svc, r.file = svc, fi
	return svc, nil
}
