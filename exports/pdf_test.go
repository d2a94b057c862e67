package exports

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

// poppler returns the path of a poppler tool; without it the test is
// skipped, except in CI, which installs poppler-utils.
func poppler(t *testing.T, tool string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but %s is not installed; .ci/run installs poppler-utils", tool)
		}
		t.Skipf("%s is not installed (apt-get install poppler-utils)", tool)
	}
	return path
}

func renderPDF(t *testing.T, doc any, paper Paper) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := PDF(&b, doc, PDFOptions{Paper: paper}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", b.Bytes()[:min(20, b.Len())])
	}
	return b.Bytes()
}

// readPDF writes pdf to a file and returns pdfinfo's page count and page
// size, and pdftotext's text of it.
func readPDF(t *testing.T, pdf []byte) (pages int, size, text string) {
	t.Helper()
	info, totext := poppler(t, "pdfinfo"), poppler(t, "pdftotext")
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(info, path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	if m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`).FindSubmatch(out); m != nil {
		fmt.Sscan(string(m[1]), &pages)
	}
	if m := regexp.MustCompile(`(?m)^Page size:\s+(.*)$`).FindSubmatch(out); m != nil {
		size = string(m[1])
	}
	txt, err := exec.Command(totext, "-layout", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, txt)
	}
	return pages, size, string(txt)
}

func wantText(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF's text lacks %q:\n%s", w, text)
		}
	}
}

// TestPDFSheet: one page on A4 and on letter, and its text carries what
// the sheet holds, names with diacritics whole, and the trace.
func TestPDFSheet(t *testing.T) {
	a4 := renderPDF(t, testSheetDoc(), PaperA4)
	letter := renderPDF(t, testSheetDoc(), PaperLetter)
	pages, size, text := readPDF(t, a4)
	// The same document gives the same pages and text. (Not the same
	// bytes: fpdf's font subsetting walks a Go map, so the subset font's
	// metrics table comes out in varying order.)
	if p2, s2, t2 := readPDF(t, renderPDF(t, testSheetDoc(), PaperA4)); p2 != pages || s2 != size || t2 != text {
		t.Error("two renders of one sheet differ in their pages or text")
	}
	if pages != 1 || !strings.Contains(size, "(A4)") {
		t.Fatalf("A4 sheet: %d pages, size %q; want 1 page of A4", pages, size)
	}
	wantText(t, text, "Zoë", "edition 2021", "Status: ok", "ST", "13", "DX", "11", "adjusted 10", "IQ", "MA",
		"Knife", "Medic", "Unarmed", "Handgun, damage 2d6-1, heft 8", "Flak Vest, protection 3, restriction 1",
		"XP earned", "31", "XP spent", "28", "XP unspent", "Karma", "Wishes", "Curses", "4 of 13",
		"Kit-Kat crew", "folded at seq 33", "hash "+testTrace.Hash, "page 1 of 1")
	pages, size, _ = readPDF(t, letter)
	if pages != 1 || !strings.Contains(size, "612 x 792") {
		t.Fatalf("letter sheet: %d pages, size %q; want 1 page of 612 x 792 pts", pages, size)
	}
}

// TestPDFFoeInLayers: a foe's sheet says so and has no experience or
// fortune; armour worn together lists each item and the total.
func TestPDFFoeInLayers(t *testing.T) {
	d := testSheetDoc()
	d.Sheet.Foe = true
	d.Sheet.ArmorItems = []projections.Armor{{Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1}, {Item: "landing_suit", Name: "Landing Suit", Protection: 3, Restriction: 1, SpaceSuit: true}}
	d.Sheet.Armor = &projections.Armor{Item: "flak_vest+landing_suit", Name: "Flak Vest and Landing Suit", Protection: 6, Restriction: 2, SpaceSuit: true}
	pages, _, text := readPDF(t, renderPDF(t, d, PaperA4))
	if pages != 1 {
		t.Fatalf("%d pages", pages)
	}
	wantText(t, text, "Foe · Status: ok", "Flak Vest 3/1 + Landing Suit 3/1 (SS) = protection 6, restriction 2", "Skills")
	for _, absent := range []string{"XP earned", "Karma", "Wishes"} {
		if strings.Contains(text, absent) {
			t.Errorf("a foe's PDF sheet shows %q", absent)
		}
	}
}

// TestPDFSheetAlwaysOnePage: a very long name and 25 skills still make one
// page, and every skill is on it.
func TestPDFSheetAlwaysOnePage(t *testing.T) {
	d := testSheetDoc()
	d.Sheet.Name = "Łukasz Ærin-Zoë " + strings.Repeat("Wanderer of the Outer Rim ", 3)
	d.Sheet.Skills = nil
	for i := 0; i < 25; i++ {
		d.Sheet.Skills = append(d.Sheet.Skills, projections.Skill{Key: fmt.Sprint(i), Name: fmt.Sprintf("Skill%02d", i), Level: i%4 + 1})
	}
	d.Sheet.Attributes.ST, d.Sheet.Damage = 30, 41
	d.Sheet.Status, d.Sheet.Dead, d.Sheet.DeathCause = projections.StatusDead, true, "died of wounds at the end of encounter 2"
	for _, paper := range []Paper{PaperA4, PaperLetter} {
		pages, _, text := readPDF(t, renderPDF(t, d, paper))
		if pages != 1 {
			t.Fatalf("%s: %d pages, want 1", paper, pages)
		}
		for _, sk := range d.Sheet.Skills {
			wantText(t, text, sk.Name)
		}
		wantText(t, text, "Łukasz", "Dead: died of wounds", "41 of 30")
	}
}

// TestPDFParty: a summary page, then one page per member.
func TestPDFParty(t *testing.T) {
	pages, _, text := readPDF(t, renderPDF(t, testPartyDoc(), PaperA4))
	if pages != 4 {
		t.Fatalf("party: %d pages, want a summary and 3 sheets", pages)
	}
	wantText(t, text, "Party of Kit-Kat crew", "3 members", "Zoë", "Łukasz", "Ærin", "incapacitated", "page 4 of 4")
	pages, _, text = readPDF(t, renderPDF(t, PartyDoc{Trace: testTrace}, PaperA4))
	if pages != 1 || !strings.Contains(text, "The party is empty") {
		t.Fatalf("an empty party: %d pages:\n%s", pages, text)
	}
}

func TestPDFShipTimelineAudit(t *testing.T) {
	_, _, text := readPDF(t, renderPDF(t, testShipDoc(), PaperA4))
	wantText(t, text, "Kit-Kat", "DEAD IN THE WATER", "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1", "14 build points",
		"Engineering", "destroyed", "Łukasz, Ærin", "M+1", "Owner")
	_, _, text = readPDF(t, renderPDF(t, testTimelineDoc(), PaperA4))
	wantText(t, text, "Timeline of Kit-Kat crew", "Between adventures", "Adventure 1: The | pipe and the *star*", "Day 2", "Ærin dies of wounds", "enc 1")
	_, _, text = readPDF(t, renderPDF(t, testAuditDoc(), PaperA4))
	wantText(t, text, "XP audit of Zoë", "rescued the envoy", "+20", "-18", "current level + 6", "[reverted by seq 10: typo]", "earned − spent = unspent: 20 − 18 = 2")

	// A long timeline runs onto more pages, each with its footer.
	long := testTimelineDoc()
	for i := 0; i < 200; i++ {
		day := &long.Timeline.Periods[1].Days[1]
		day.Entries = append(day.Entries, projections.TimelineEntry{Seq: int64(100 + i), Kind: projections.TimelineXP, Text: fmt.Sprintf("entry %d: a long line of what happened at the table that night, told in full so that it wraps", i)})
	}
	pages, _, text := readPDF(t, renderPDF(t, long, PaperLetter))
	if pages < 3 {
		t.Fatalf("a 200-entry timeline on %d pages", pages)
	}
	wantText(t, text, "entry 199", fmt.Sprintf("page %d of %d", pages, pages))
}

func TestParsePaper(t *testing.T) {
	for in, want := range map[string]Paper{"a4": PaperA4, "A4": PaperA4, " Letter ": PaperLetter, "": PaperA4} {
		if got, err := ParsePaper(in); err != nil || got != want {
			t.Errorf("ParsePaper(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParsePaper("a3"); err == nil || !strings.Contains(err.Error(), "a4 and letter") {
		t.Errorf("ParsePaper(a3) = %v, want an error naming a4 and letter", err)
	}
	if err := PDF(&bytes.Buffer{}, "not a document", PDFOptions{}); err == nil {
		t.Error("PDF took a value that is not a document")
	}
}
