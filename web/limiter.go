package web

import (
	"sync"
	"time"
)

// limiter slows down whoever keeps trying wrong links: after badTries
// wrong tokens from one address within badWindow, that address is refused
// (429) until the window has passed. It remembers at most maxAddrs
// addresses, forgetting them all when full.
type limiter struct {
	now   func() time.Time
	mu    sync.Mutex
	tries map[string]*tries
}

type tries struct {
	n     int
	since time.Time
}

const (
	badTries  = 20
	badWindow = time.Minute
	maxAddrs  = 10000
)

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, tries: map[string]*tries{}}
}

// failed counts a wrong token from ip.
func (l *limiter) failed(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	t := l.tries[ip]
	if t == nil || now.Sub(t.since) > badWindow {
		if len(l.tries) >= maxAddrs {
			l.tries = map[string]*tries{}
		}
		t = &tries{since: now}
		l.tries[ip] = t
	}
	t.n++
}

// slowed reports whether ip is refused for now, and for how long.
func (l *limiter) slowed(ip string) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tries[ip]
	if t == nil || t.n < badTries {
		return 0, false
	}
	left := badWindow - l.now().Sub(t.since)
	if left <= 0 {
		delete(l.tries, ip)
		return 0, false
	}
	return left, true
}
