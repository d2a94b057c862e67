package web

import (
	"bytes"
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
	file os.FileInfo
	seq  int64
	hash []byte
	// gen counts the moves of the head (and the files opened): a page
	// rendered before the last is not kept.
	gen int64
	// shares are the links at the head; cache the pages rendered there,
	// by viewer and page.
	shares []projections.Share
	cache  map[string]cached
	// subs hear each move of the head (live pages).
	subs map[chan struct{}]struct{}

	// Pages are rendered one at a time, holding renderMu (not mu), on a
	// service of their own (a campaign.Service serves one caller at a
	// time): while a page is being rendered (a long character's audit
	// takes a quarter of a second at 1M events), the pages rendered
	// already, the links and the head are read as ever.
	renderMu sync.Mutex
	rsvc     *campaign.Service
	rfile    os.FileInfo
}

// maxCached bounds the pages a site keeps at one head.
const maxCached = 2048

type cached struct {
	body   []byte
	status int
}

func openSite(path string, open func(string) (*campaign.Service, error)) (*site, error) {
	st := &site{path: path, open: open, subs: map[chan struct{}]struct{}{}}
	// Opened first, so that a missing or foreign file is refused as every
	// command refuses it.
	svc, err := open(path)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.file, err = os.Stat(path); err != nil {
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
	st.renderMu.Lock()
	defer st.renderMu.Unlock()
	if st.rsvc != nil {
		st.rsvc.Close()
		st.rsvc = nil
	}
}

// refreshLocked brings what the site read up to the file: it opens the
// file again when another was put in its place (a restore, a copy), and
// reads the links again when the head moved. It reports whether the head
// moved. The caller holds mu.
func (st *site) refreshLocked() (bool, error) {
	fi, err := os.Stat(st.path)
	if err != nil {
		return false, fmt.Errorf("%s: %w", st.path, err)
	}
	if st.svc == nil || !os.SameFile(fi, st.file) {
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
	c, ok := st.cache[key]
	st.mu.Unlock()
	if ok {
		return c.body, c.status, nil
	}
	st.renderMu.Lock()
	defer st.renderMu.Unlock()
	// Another request may have rendered it while this one waited.
	st.mu.Lock()
	c, ok = st.cache[key]
	gen := st.gen
	st.mu.Unlock()
	if ok {
		return c.body, c.status, nil
	}
	svc, err := st.renderService()
	if err != nil {
		return nil, 0, err
	}
	body, status, err := p.page(svc, v, path, q, now)
	if err != nil {
		return nil, 0, err
	}
	if status == http.StatusOK || status == http.StatusNotFound {
		st.mu.Lock()
		if st.gen == gen { // else the head moved meanwhile: render again
			if len(st.cache) >= maxCached {
				st.cache = map[string]cached{} // a query string of every kind: start again
			}
			st.cache[key] = cached{body: body, status: status}
		}
		st.mu.Unlock()
	}
	return body, status, nil
}

// renderService returns the service pages are rendered on, opening the
// file again when another was put in its place. The caller holds
// renderMu.
func (st *site) renderService() (*campaign.Service, error) {
	fi, err := os.Stat(st.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", st.path, err)
	}
	if st.rsvc != nil && os.SameFile(fi, st.rfile) {
		return st.rsvc, nil
	}
	svc, err := st.open(st.path)
	if err != nil {
		return nil, err
	}
	if st.rsvc != nil {
		st.rsvc.Close()
	}
	st.rsvc, st.rfile = svc, fi
	return svc, nil
}
