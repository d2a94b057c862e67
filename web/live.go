package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/projections"
)

// live streams the moves of the campaign's head to a page (server-sent
// events): an event "head" whose id is the seq, so that a page that
// reconnects (Last-Event-ID) hears at once of a write it missed. The page's
// script then fetches itself again and swaps its content in. A link
// revoked or expired meanwhile ends the stream.
func (s *Server) live(w http.ResponseWriter, r *http.Request, st *site, sh projections.Share) {
	fl, ok := w.(http.Flusher)
	if !ok {
		s.plain(w, http.StatusInternalServerError, "This server cannot stream.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx: pass each event on
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	moved, cancel := st.subscribe()
	defer cancel()
	last := int64(-1)
	if id, err := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64); err == nil {
		last = id
	}
	send := func() bool {
		seq, hash := st.head()
		if seq == last {
			return true
		}
		last = seq
		_, err := fmt.Fprintf(w, "id: %d\nevent: head\ndata: %d %x\n\n", seq, seq, hash)
		fl.Flush()
		return err == nil
	}
	fmt.Fprint(w, "retry: 1000\n\n")
	fl.Flush() // the page hears at once that it is connected
	if last >= 0 && !send() {
		return
	}
	if last < 0 {
		last, _ = st.head()
	}
	keep := time.NewTicker(25 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-moved:
			if cur, ok, err := st.share(tokenOf(r)); err != nil || !ok || !cur.Open(s.cfg.Now()) {
				return // revoked or expired: the page hears no more
			}
			if !send() {
				return
			}
		}
	}
}

// tokenOf returns the token in a request's path (/s/TOKEN/...).
func tokenOf(r *http.Request) string {
	p := r.URL.Path[len("/s/"):]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}
