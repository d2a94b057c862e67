// Command serveload loads `ltscamp serve` as the players' phones would, on
// this machine only, and prints what it measured (issue 24: 200 clients
// reading sheet pages of a 1,000,000-event campaign for 30 s with no error
// and a p99 of at most 100 ms; 500 live streams held open while the GM
// writes once a second). bench/serve.sh runs it.
//
// pages: C clients (default 200), each on its own connection, GET the
// URLs given (one per line in a file, or as arguments) in turn, each
// client starting at its own URL, back to back, for D (default 30s).
// With -warm, each URL is first fetched once, in turn, and the slowest of
// those is printed (a page's first render at the head). It prints the
// requests made, the errors (a status other than 200, or a failed
// request), the throughput and the latency from sending a request to the
// last byte of its answer: p50, p90, p99 and max.
//
// live: M connections (default 500) open the live URL (server-sent
// events) and hold it; once all are open, COMMAND runs every second (-every)
// for D, each run appending to the log; then serveload waits a few seconds
// more for the last event. It prints, for the writes, how many of the
// connections heard each one (the fewest), and the delay from the end of
// the write (COMMAND's exit) to each connection's receipt: p50, p99, max.
// The heads heard are paired with the writes in order, so each write must
// move the head once. With -pages FILE instead of -url, the connections
// are pages as live.js makes them: connection i shows the i-th page of
// FILE (in turn), listens on its link's live URL, and on each event
// fetches its page again (one fetch at a time, the events heard meanwhile
// answered by one more). It then also prints the delay from each write to
// the first fetch of each page that shows it (the page's footer names the
// seq it shows: "at seq N"), p50, p99 and max; the fetches that failed;
// and the pages that never showed a write.
//
//	go run ./bench/serveload pages [-c 200] [-d 30s] [-warm] -urls FILE | URL...
//	go run ./bench/serveload live [-n 500] [-d 30s] [-every 1s] -url URL | -pages FILE -- COMMAND [ARG...]
//
// Every URL must be http://127.0.0.1:PORT/...: serveload loads nothing but
// this machine. With SERVELOAD_PPROF=ADDR set (127.0.0.1:PORT), it serves
// its own profile there (net/http/pprof), to see what the load generator
// itself costs.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // served only with SERVELOAD_PPROF set
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Bounds on what one run may ask, so that a slip of the finger does not
// turn a measure into a flood.
const (
	maxClients  = 2000
	maxConns    = 5000
	maxDuration = 10 * time.Minute
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	if addr := os.Getenv("SERVELOAD_PPROF"); addr != "" {
		if err := loopback("http://" + addr + "/"); err != nil {
			fail(err)
		}
		go func() { fail(http.ListenAndServe(addr, nil)) }()
	}
	var err error
	switch os.Args[1] {
	case "pages":
		err = pagesMain(os.Args[2:])
	case "live":
		err = liveMain(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fail(err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage: serveload pages [-c 200] [-d 30s] [-warm] -urls FILE | URL...
       serveload live [-n 500] [-d 30s] [-every 1s] -url URL | -pages FILE -- COMMAND [ARG...]`)
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "serveload:", err)
	os.Exit(1)
}

// loopback refuses any URL but http://127.0.0.1:PORT/...
func loopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" {
		return fmt.Errorf("%s: serveload loads only http://127.0.0.1:PORT/ (this machine)", raw)
	}
	return nil
}

func bounded(what string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: give %d to %d", what, v, lo, hi)
	}
	return nil
}

func boundedDuration(d time.Duration) error {
	if d <= 0 || d > maxDuration {
		return fmt.Errorf("-d %s: give more than 0 and at most %s", d, maxDuration)
	}
	return nil
}

// transport is a client's own: conns keep-alive connections to the server,
// no proxy (the environment's would take the load elsewhere).
func transport(conns int) *http.Transport {
	return &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
}

// newClient is a client on its own transport that follows no redirect
// off this machine.
func newClient(conns int, timeout time.Duration) *http.Client {
	return &http.Client{
		Transport: transport(conns),
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return loopback(req.URL.String())
		},
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quantile returns the q-quantile of sorted durations (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// ---- pages ----

func pagesMain(args []string) error {
	fs := flag.NewFlagSet("pages", flag.ExitOnError)
	clients := fs.Int("c", 200, "concurrent clients, each on its own connection")
	dur := fs.Duration("d", 30*time.Second, "how long the clients read")
	file := fs.String("urls", "", "a file of URLs, one per line")
	warm := fs.Bool("warm", false, "fetch each URL once, in turn, before the load")
	fs.Parse(args)
	urls := fs.Args()
	for _, u := range urls {
		if err := loopback(u); err != nil {
			return err
		}
	}
	if *file != "" {
		more, err := readURLs(*file)
		if err != nil {
			return err
		}
		urls = append(urls, more...)
	}
	if len(urls) == 0 {
		return errors.New("pages: no URL (-urls FILE or URL...)")
	}
	if err := bounded("-c", *clients, 1, maxClients); err != nil {
		return err
	}
	if err := boundedDuration(*dur); err != nil {
		return err
	}
	client := newClient(*clients, 30*time.Second)
	if *warm {
		var slowest time.Duration
		slow := ""
		for _, u := range urls {
			took, _, err := get(client, u)
			if err != nil {
				return fmt.Errorf("warming: %w", err)
			}
			if took > slowest {
				slowest, slow = took, u
			}
		}
		fmt.Printf("warm-max-ms %.1f\n", ms(slowest))
		fmt.Fprintf(os.Stderr, "slowest first fetch: %s (%.0f ms)\n", slow, ms(slowest))
	}
	r := loadPages(client, urls, *clients, *dur)
	slices.Sort(r.lat)
	secs := r.took.Seconds()
	fmt.Printf("clients %d\nseconds %.1f\nurls %d\nrequests %d\nerrors %d\nrps %.0f\nmb-per-s %.1f\n",
		*clients, secs, len(urls), len(r.lat)+r.errors, r.errors, float64(len(r.lat)+r.errors)/secs, float64(r.bytes)/secs/1e6)
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .50}, {"p90", .90}, {"p99", .99}, {"max", 1}} {
		fmt.Printf("%s-ms %.1f\n", q.name, ms(quantile(r.lat, q.q)))
	}
	fmt.Printf("cpu-s %.1f\n", cpuSeconds())
	for _, e := range r.samples {
		fmt.Fprintln(os.Stderr, "error:", e)
	}
	return nil
}

// cpuSeconds is the CPU time this process has used, user and system: what
// the load generator took of the machine it shares with the server.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// readURLs reads a file of URLs, one per line (# starts a comment), each
// on this machine.
func readURLs(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var urls []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			if err := loopback(l); err != nil {
				return nil, err
			}
			urls = append(urls, l)
		}
	}
	return urls, nil
}

// liveOf is the live URL of the link a page belongs to: /s/TOKEN/live.
func liveOf(page string) (string, error) {
	u, err := url.Parse(page)
	if err != nil {
		return "", err
	}
	token, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/s/"), "/")
	if !strings.HasPrefix(u.Path, "/s/") || token == "" {
		return "", fmt.Errorf("%s is no page of a link (/s/TOKEN/...)", page)
	}
	u.Path, u.RawQuery = "/s/"+token+"/live", ""
	return u.String(), nil
}

// get fetches u to its last byte: how long it took and how many bytes.
func get(client *http.Client, u string) (time.Duration, int64, error) {
	start := time.Now()
	resp, err := client.Get(u)
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		return took, n, err
	}
	if resp.StatusCode != http.StatusOK {
		return took, n, fmt.Errorf("%s: %s", u, resp.Status)
	}
	return took, n, nil
}

type pagesResult struct {
	lat     []time.Duration // of the requests answered 200 in full
	errors  int
	samples []string // the first errors, to say what they were
	bytes   int64
	took    time.Duration
}

func loadPages(client *http.Client, urls []string, clients int, d time.Duration) pagesResult {
	var (
		mu  sync.Mutex
		all pagesResult
		wg  sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine pagesResult
			mine.lat = make([]time.Duration, 0, 4096)
			for i := c; time.Now().Before(deadline); i++ {
				took, n, err := get(client, urls[i%len(urls)])
				mine.bytes += n
				if err != nil {
					mine.errors++
					if len(mine.samples) < 3 {
						mine.samples = append(mine.samples, err.Error())
					}
					continue
				}
				mine.lat = append(mine.lat, took)
			}
			mu.Lock()
			defer mu.Unlock()
			all.lat = append(all.lat, mine.lat...)
			all.errors += mine.errors
			all.bytes += mine.bytes
			if len(all.samples) < 5 {
				all.samples = append(all.samples, mine.samples...)
			}
		}()
	}
	wg.Wait()
	all.took = time.Since(start)
	return all
}

// ---- live ----

// heard is one event a connection received: the seq it named, and when.
type heard struct {
	seq int64
	at  time.Time
}

// fetched is a page fetched again (-pages): the seq it shows (-1 when the
// fetch failed), and when it was in.
type fetched struct {
	seq int64
	at  time.Time
}

// write is one run of the writer's command.
type write struct {
	start, end time.Time
	err        error
}

func liveMain(args []string) error {
	fs := flag.NewFlagSet("live", flag.ExitOnError)
	n := fs.Int("n", 500, "live connections held open")
	dur := fs.Duration("d", 30*time.Second, "how long the writer writes")
	every := fs.Duration("every", time.Second, "how often the writer writes")
	liveURL := fs.String("url", "", "the live URL (http://127.0.0.1:PORT/s/TOKEN/live)")
	pagesFile := fs.String("pages", "", "a file of pages, one per line, the connections show in turn and fetch again on each event")
	settle := fs.Duration("settle", 3*time.Second, "how long to wait for the last write's events")
	openWait := fs.Duration("open", 30*time.Second, "how long the connections may take to be answered")
	fs.Parse(args)
	cmdArgs := fs.Args()
	if (*liveURL == "") == (*pagesFile == "") || len(cmdArgs) == 0 {
		return errors.New("live: -url URL or -pages FILE, and a COMMAND that appends to the log, are required")
	}
	var pages []string
	if *pagesFile != "" {
		var err error
		if pages, err = readURLs(*pagesFile); err != nil {
			return err
		}
		if len(pages) == 0 {
			return fmt.Errorf("live: %s holds no page", *pagesFile)
		}
	} else if err := loopback(*liveURL); err != nil {
		return err
	}
	if err := bounded("-n", *n, 1, maxConns); err != nil {
		return err
	}
	if err := boundedDuration(*dur); err != nil {
		return err
	}
	if *every < 100*time.Millisecond {
		return fmt.Errorf("-every %s: give at least 100ms", *every)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := newClient(*n, 0)               // a stream lasts the run
	fetcher := newClient(*n, 30*time.Second) // -pages: the pages fetched again
	got := make([][]heard, *n)
	pagesGot := make([][]fetched, *n)
	var (
		wg      sync.WaitGroup
		opened  sync.WaitGroup
		mu      sync.Mutex
		refused []string
		dropped int // connections that ended before we closed them
	)
	openStart := time.Now()
	for i := 0; i < *n; i++ {
		live, page := *liveURL, ""
		if pages != nil {
			page = pages[i%len(pages)]
			var err error
			if live, err = liveOf(page); err != nil {
				return err
			}
		}
		// As live.js does: one fetch at a time, and the events heard
		// meanwhile make one more.
		again := make(chan struct{}, 1)
		if page != "" {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-ctx.Done():
						return
					case <-again:
					}
					seq, err := fetchSeq(ctx, fetcher, page)
					if err != nil {
						if ctx.Err() != nil {
							return
						}
						seq = -1
					}
					pagesGot[i] = append(pagesGot[i], fetched{seq: seq, at: time.Now()})
				}
			}()
		}
		wg.Add(1)
		opened.Add(1)
		go func() {
			defer wg.Done()
			err := listen(ctx, client, live, opened.Done, func(h heard) {
				got[i] = append(got[i], h)
				select {
				case again <- struct{}{}:
				default:
				}
			})
			if err != nil && ctx.Err() == nil {
				mu.Lock()
				dropped++
				if len(refused) < 5 {
					refused = append(refused, err.Error())
				}
				mu.Unlock()
			}
		}()
	}
	all := make(chan struct{})
	go func() { opened.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(*openWait):
		cancel()
		wg.Wait()
		return fmt.Errorf("live: the %d connections were not all answered within %s (headers not sent before the first event?)", *n, *openWait)
	}
	openTook := time.Since(openStart)

	var writes []write
	tick := time.NewTicker(*every)
	stop := time.After(*dur)
loop:
	for {
		w := write{start: time.Now()}
		cmd := exec.Command(cmdArgs[0], cmdArgs[1:]...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &out
		if err := cmd.Run(); err != nil {
			w.err = fmt.Errorf("%v: %s", err, strings.TrimSpace(out.String()))
		}
		w.end = time.Now()
		writes = append(writes, w)
		select {
		case <-stop:
			break loop
		case <-tick.C:
		}
	}
	tick.Stop()
	time.Sleep(*settle)
	cancel()
	wg.Wait()

	return reportLive(*n, openTook, writes, got, dropped, refused, pagesGot, pages != nil)
}

// listen holds one live connection open until ctx ends, calling on for
// each "head" event; open is called once the answer's headers are in (or
// the request failed).
func listen(ctx context.Context, client *http.Client, u string, open func(), on func(heard)) error {
	once := sync.OnceFunc(open)
	defer once()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", u, resp.Status)
	}
	once()
	sc := bufio.NewScanner(resp.Body)
	var event string
	var seq int64 = -1
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if event == "head" && seq >= 0 {
				on(heard{seq: seq, at: time.Now()})
			}
			event, seq = "", -1
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "id:"):
			if v, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "id:")), 10, 64); err == nil {
				seq = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the server ended the stream")
}

// shownSeq finds the seq a page shows in its footer.
var shownSeq = regexp.MustCompile(`shows the log at seq (\d+)`)

// fetchSeq fetches a page and returns the seq it shows.
func fetchSeq(ctx context.Context, client *http.Client, u string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s", u, resp.Status)
	}
	m := shownSeq.FindSubmatch(b)
	if m == nil {
		return 0, fmt.Errorf("%s names no seq", u)
	}
	return strconv.ParseInt(string(m[1]), 10, 64)
}

func reportLive(n int, openTook time.Duration, writes []write, got [][]heard, dropped int, refused []string, pagesGot [][]fetched, paged bool) error {
	failed := 0
	var wrote []time.Duration
	for _, w := range writes {
		if w.err != nil {
			failed++
			if failed <= 3 {
				fmt.Fprintln(os.Stderr, "write failed:", w.err)
			}
		}
		wrote = append(wrote, w.end.Sub(w.start))
	}
	slices.Sort(wrote)
	// The heads heard, in order: each write moved the head once, so the
	// i-th head is the i-th write's.
	seen := map[int64]bool{}
	for _, hs := range got {
		for _, h := range hs {
			seen[h.seq] = true
		}
	}
	heads := make([]int64, 0, len(seen))
	for s := range seen {
		heads = append(heads, s)
	}
	slices.Sort(heads)
	index := make(map[int64]int, len(heads))
	for i, s := range heads {
		index[s] = i
	}
	var (
		delays   []time.Duration
		early    int // receipts before the writer's command returned
		fewest   = n
		perWrite = make([]int, len(heads))
		disorder int
	)
	for _, hs := range got {
		last := int64(-1)
		for _, h := range hs {
			if h.seq <= last {
				disorder++
			}
			last = h.seq
			i := index[h.seq]
			perWrite[i]++
			if i >= len(writes) {
				continue
			}
			d := h.at.Sub(writes[i].end)
			if d < 0 {
				early++
				d = 0
			}
			delays = append(delays, d)
		}
	}
	for _, c := range perWrite {
		fewest = min(fewest, c)
	}
	if len(heads) == 0 {
		fewest = 0
	}
	slices.Sort(delays)
	fmt.Printf("connections %d\nopen-ms %.0f\ndropped %d\nwrites %d\nwrite-errors %d\nwrite-p50-ms %.1f\nheads-heard %d\nfewest-heard %d\nout-of-order %d\nearly %d\n",
		n, ms(openTook), dropped, len(writes), failed, ms(quantile(wrote, .5)), len(heads), fewest, disorder, early)
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", .50}, {"p99", .99}, {"max", 1}} {
		fmt.Printf("delay-%s-ms %.1f\n", q.name, ms(quantile(delays, q.q)))
	}
	if paged {
		// For each write and page, the first fetch that shows the write.
		var pageLags []time.Duration
		pageErrs, missed := 0, 0
		for _, fs := range pagesGot {
			for _, f := range fs {
				if f.seq < 0 {
					pageErrs++
				}
			}
			for i, head := range heads {
				if i >= len(writes) {
					break
				}
				j := slices.IndexFunc(fs, func(f fetched) bool { return f.seq >= head })
				if j < 0 {
					missed++
					continue
				}
				pageLags = append(pageLags, max(fs[j].at.Sub(writes[i].end), 0))
			}
		}
		slices.Sort(pageLags)
		fmt.Printf("page-errors %d\npages-missed %d\n", pageErrs, missed)
		for _, q := range []struct {
			name string
			q    float64
		}{{"p50", .50}, {"p99", .99}, {"max", 1}} {
			fmt.Printf("page-%s-ms %.1f\n", q.name, ms(quantile(pageLags, q.q)))
		}
	}
	for _, e := range refused {
		fmt.Fprintln(os.Stderr, "connection:", e)
	}
	if len(heads) != len(writes) {
		fmt.Fprintf(os.Stderr, "serveload: %d writes but %d heads heard: the pairing of heads with writes is off\n", len(writes), len(heads))
	}
	return nil
}
