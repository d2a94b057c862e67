package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The pages of `ltscamp serve` as a player's phone and the GM's laptop show
// them: a real Chromium (Debian's chromium package, which .ci/run installs)
// driven over the DevTools protocol. Without Chromium the tests skip, but
// with CI set they fail: CI must run them.
//
// go test ./cmd/ltscamp -run Browser -update rewrites the screenshots
// under testdata/screens, to be looked at by eye (they are not compared:
// fonts differ between machines and each run's log has its own hash).

// browserScreens is where the screenshots go.
const browserScreens = "testdata/screens"

// chromium returns the browser to drive, or skips (fails with CI set).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set but chromium is not installed; .ci/run installs it")
	}
	t.Skip("no chromium on PATH (Debian: apt-get install chromium); CI runs this test")
	return ""
}

// newBrowser starts a headless Chromium with a profile of its own, for at
// most the test's bound, and returns its first tab's context.
func newBrowser(t *testing.T, exe string, bound time.Duration) context.Context {
	t.Helper()
	profile := t.TempDir() // removed after the browser is gone (cleanups run last first)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		// On a closed network Chromium waits on what it fetches in the
		// background (the defaults turn background networking off).
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() { bcancel(); acancel(); cancel() })
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return bctx
}

// tab opens a new tab of the browser of ctx; the test's end closes it.
func tab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tctx, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx); err != nil {
		t.Fatal(err)
	}
	return tctx
}

// lockedBuffer is a buffer a process writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs `ltscamp serve` on db as a process of its own, on a
// free loopback port, and returns the address it listens on. The test's
// end stops it with Ctrl-C, as a GM would.
func startServe(t *testing.T, db string) string {
	t.Helper()
	cmd := ltscampCommand(t, "--db", db, "serve", "--addr", "127.0.0.1:0")
	var stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("serve did not stop within 5 s of Ctrl-C; it said:\n%s", stderr.String())
		}
	})
	at := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := at.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped (%v); it said:\n%s", err, stderr.String())
		default:
		}
	}
	t.Fatalf("serve did not say where it listens within 10 s; it said:\n%s", stderr.String())
	return ""
}

// browserRun runs a command through Main on db and returns what it printed.
func browserRun(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, stdout, stderr := runDB(t, db, args...)
	if code != ExitOK {
		t.Fatalf("ltscamp %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout + stderr
}

// shareLink grants a link with `share` and returns it as printed.
func shareLink(t *testing.T, db, addr string, args ...string) string {
	t.Helper()
	out := browserRun(t, db, append([]string{"share", "--addr", addr}, args...)...)
	link := regexp.MustCompile(`http://\S+/s/[A-Za-z0-9_-]{43}/`).FindString(out)
	if link == "" {
		t.Fatalf("share %v printed no link:\n%s", args, out)
	}
	return link
}

// cliSheet is what `sheet NAME --json` says of a character, as far as
// the page shows it.
type cliSheet struct {
	ID         string
	Name       string
	Attributes struct{ ST, DX, IQ int }
	Adjusted   struct{ DX, MA int }
	XP         struct{ Earned, Spent, Unspent int }
}

func sheetOf(t *testing.T, db, name string) cliSheet {
	t.Helper()
	var sh cliSheet
	if err := json.Unmarshal([]byte(browserRun(t, db, "sheet", name, "--json")), &sh); err != nil {
		t.Fatal(err)
	}
	return sh
}

// pageSheet is what a sheet page shows, read from its DOM.
type pageSheet struct {
	Name  string   `json:"name"`
	Attrs []string `json:"attrs"`
	XP    string   `json:"xp"`
	Foot  string   `json:"foot"`
	Mark  any      `json:"mark"`
}

// readSheetJS reads a sheet page: its title, the cells of its table of
// attributes, its XP row, its footer and the mark the test left on the
// window (a navigation loses it).
const readSheetJS = `(() => {
  const cell = (th) => { for (const r of document.querySelectorAll("main tr")) { const h = r.querySelector("th"); if (h && h.textContent.trim() === th) return r.querySelector("td").textContent.trim(); } return ""; };
  return {
    name: document.querySelector("main h1").textContent.trim(),
    attrs: Array.from(document.querySelectorAll("main table")[0].querySelectorAll("tbody td"), (td) => td.textContent.trim()),
    xp: cell("XP earned, spent, unspent"),
    foot: document.querySelector("footer p").textContent,
    mark: window.ltscampTestMark ?? null,
  };
})()`

func (want cliSheet) attrs() []string {
	return []string{fmt.Sprint(want.Attributes.ST), fmt.Sprint(want.Attributes.DX), fmt.Sprint(want.Adjusted.DX),
		fmt.Sprint(want.Attributes.IQ), fmt.Sprint(want.Adjusted.MA)}
}

func (want cliSheet) xp() string {
	return fmt.Sprintf("%d, %d, %d", want.XP.Earned, want.XP.Spent, want.XP.Unspent)
}

// browserCampaign builds the rule books' demo campaign with a foe in an
// encounter, serves it, and returns the file, Ajax's link and the GM's.
func browserCampaign(t *testing.T) (db, player, gm string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "table.ltscamp")
	browserRun(t, db, "demo")
	browserRun(t, db, "encounter", "start")
	browserRun(t, db, "foe", "add", "Pirate Captain", "--st", "13", "--dx", "12", "--iq", "11", "--skill", "Interrogator:2")
	addr := startServe(t, db)
	return db, shareLink(t, db, addr, "Ajax"), shareLink(t, db, addr, "--gm")
}

// TestServeBrowserFollowsAWrite opens Ajax's link on a phone-sized
// screen, goes to his sheet, reads it, and checks that an `xp award` made
// through the CLI shows on the page within a second, swapped in without
// a navigation; then that with JavaScript off the sheet still shows.
func TestServeBrowserFollowsAWrite(t *testing.T) {
	exe := chromium(t)
	db, player, _ := browserCampaign(t)
	ctx := tab(t, newBrowser(t, exe, 30*time.Second))

	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(player),
	); err != nil {
		t.Fatal(err)
	}
	// From the party to his own sheet, as a player would.
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS("tr.own a")))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 {
		t.Fatalf("Ajax's sheet: HTTP %d", resp.Status)
	}
	want := sheetOf(t, db, "Ajax")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pageSheet](readSheetJS))
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || strings.Join(got.Attrs, " ") != strings.Join(want.attrs(), " ") || got.XP != want.xp() {
		t.Fatalf("the page shows %s %v XP %q; the CLI says %s %v XP %q", got.Name, got.Attrs, got.XP, want.Name, want.attrs(), want.xp())
	}

	// The write, by another process than the server's.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.ltscampTestMark = "before the write"`)); err != nil {
		t.Fatal(err)
	}
	out := browserRun(t, db, "xp", "award", "Ajax", "1", "--reason", "read in a browser")
	wrote := time.Now()
	seq := regexp.MustCompile(`seq (\d+)`).FindStringSubmatch(out)
	if seq == nil {
		t.Fatalf("xp award named no seq:\n%s", out)
	}
	want = sheetOf(t, db, "Ajax")
	for {
		got, err = chromedp.Run(ctx, chromedp.Evaluate[pageSheet](readSheetJS))
		if err != nil {
			t.Fatal(err)
		}
		if got.XP == want.xp() {
			break
		}
		if time.Since(wrote) > time.Second {
			t.Fatalf("1 s after the write the page still shows XP %q, not %q; footer: %s", got.XP, want.xp(), got.Foot)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the page showed the write %v after it", time.Since(wrote).Round(time.Millisecond))
	if got.Mark != "before the write" {
		t.Errorf("the page was reloaded (the window lost its mark: %v); it should swap its content in", got.Mark)
	}
	if !strings.Contains(got.Foot, "seq "+seq[1]+",") {
		t.Errorf("the footer does not name the write's seq %s: %s", seq[1], got.Foot)
	}

	// JavaScript off: the page as the server sends it.
	noJS := tab(t, ctx)
	if _, err := chromedp.Call(noJS, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(noJS, chromedp.Navigate(strings.TrimSuffix(player, "/")+"/sheet/"+want.ID)); err != nil {
		t.Fatal(err)
	}
	// Only a page whose scripts are off parses the content of <noscript>
	// in <head> as elements: here, the refresh that stands in for the live
	// script. (The test's own reads still run: DevTools may evaluate.)
	refresh, err := chromedp.Run(noJS, chromedp.Evaluate[int](`document.querySelectorAll('noscript meta[http-equiv="refresh"]').length`))
	if err != nil {
		t.Fatal(err)
	}
	if refresh != 1 {
		t.Errorf("the tab's scripts are not off, or the page has no <noscript> refresh (%d found)", refresh)
	}
	got, err = chromedp.Run(noJS, chromedp.Evaluate[pageSheet](readSheetJS))
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || strings.Join(got.Attrs, " ") != strings.Join(want.attrs(), " ") || got.XP != want.xp() {
		t.Errorf("with JavaScript off the page shows %s %v XP %q; the CLI says %s %v XP %q", got.Name, got.Attrs, got.XP, want.Name, want.attrs(), want.xp())
	}
}

// TestServeBrowserLayout loads each page a player's link and the GM's
// reach at 360×740 (a phone) and 1280×800 (a laptop), light and dark:
// none makes the body scroll sideways (wide tables scroll in their
// .scroll box). The party, sheet and XP audit pages are screenshot;
// -update writes them to testdata/screens.
func TestServeBrowserLayout(t *testing.T) {
	exe := chromium(t)
	db, player, gm := browserCampaign(t)
	ajax, captain := sheetOf(t, db, "Ajax"), sheetOf(t, db, "Pirate Captain")
	ctx := newBrowser(t, exe, 60*time.Second)
	update := false
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		update = true
		if err := os.MkdirAll(browserScreens, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	type page struct {
		name, url string
		shot      bool
	}
	pages := []page{
		{"player-party", player, true},
		{"player-sheet", player + "sheet/" + ajax.ID, true},
		{"player-audit", player + "audit/" + ajax.ID, true},
		{"player-rolls", player + "rolls/" + ajax.ID, false},
		{"gm-party", gm, true},
		{"gm-foe", gm + "sheet/" + captain.ID, false},
		{"gm-log", gm + "log", false},
		{"gm-timeline", gm + "timeline?rolls=1", false},
	}
	type screen struct {
		w, h   int64
		mobile bool
	}
	for _, scheme := range []string{"light", "dark"} {
		for _, sc := range []screen{{360, 740, true}, {1280, 800, false}} {
			tctx := tab(t, ctx)
			vp := []chromedp.EmulateViewportOption{}
			if sc.mobile {
				vp = append(vp, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			if err := chromedp.Do(tctx, chromedp.EmulateViewport(sc.w, sc.h, vp...)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(tctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
				t.Fatal(err)
			}
			for _, p := range pages {
				name := fmt.Sprintf("%s-%d-%s", p.name, sc.w, scheme)
				resp, err := chromedp.Run(tctx, chromedp.NavigateResponse(p.url))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if resp.Status != 200 {
					t.Errorf("%s: HTTP %d", name, resp.Status)
					continue
				}
				// A little room for rounding; a table too wide for a phone
				// would push the body out by far more.
				width, err := chromedp.Run(tctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
				if err != nil {
					t.Fatal(err)
				}
				if width > sc.w+2 {
					t.Errorf("%s: the page is %d px wide on a %d px screen: it scrolls sideways", name, width, sc.w)
				}
				if !p.shot {
					continue
				}
				shot, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				img, err := png.DecodeConfig(bytes.NewReader(shot))
				if err != nil {
					t.Fatalf("%s: the screenshot is no PNG: %v", name, err)
				}
				if int64(img.Width) != sc.w || int64(img.Height) < sc.h {
					t.Errorf("%s: the screenshot is %d×%d, not %d wide and at least %d high", name, img.Width, img.Height, sc.w, sc.h)
				}
				if update {
					if err := os.WriteFile(filepath.Join(browserScreens, name+".png"), shot, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
