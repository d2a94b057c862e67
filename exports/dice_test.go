package exports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

// testDiceDoc is a dice report of three sources and two characters. The
// figures are what campaign's DiceReport gives for these counts and
// checks (stats.FitUniform, Power, FacesForPower, Holm and Percentile at
// level 0.01): ann's physical d6 is loaded and flagged, bob's is fair but
// too little thrown to tell, and the program's is fair. Zoë made checks
// in two adventures, 3 of which karma re-rolls replaced; Łukasz in one,
// unluckily.
func testDiceDoc() DiceDoc {
	return DiceDoc{Trace: testTrace, Report: projections.DiceReport{
		Campaign: "Kit-Kat crew", Edition: "2021", Seq: 33,
		Level: 0.01, Bias: []float64{2.0 / 18, 3.0 / 18, 3.0 / 18, 3.0 / 18, 3.0 / 18, 4.0 / 18}, Holm: true,
		Sources: []projections.DieReport{
			{Actor: "ann", Source: "physical", Sides: 6, Faces: []int64{62, 95, 101, 98, 104, 140}, Thrown: 600,
				Chi2: 30.9, DF: 5, PRaw: 9.802870192882274e-06, PValue: 2.940861057864682e-05,
				Power: 0.9033996278545029, FacesFor90: 595, Flagged: true,
				Verdict: "flagged: a fair die would come out this uneven with p < 0.0001"},
			{Actor: "bob", Source: "physical", Sides: 6, Faces: []int64{20, 17, 22, 19, 21, 21}, Thrown: 120,
				Chi2: 0.8000000000000002, DF: 5, PRaw: 0.9770333437569263, PValue: 1,
				Power: 0.1402050228890433, FacesFor90: 595,
				Verdict: "too few faces to tell: the test would catch the loaded die 14% of the time (595 faces for 90%)"},
			{Source: "program", Sides: 6, Faces: []int64{498, 507, 489, 512, 495, 499}, Thrown: 3000,
				Chi2: 0.688, DF: 5, PRaw: 0.9836207661106702, PValue: 1,
				Power: 0.9999999999974398, FacesFor90: 595,
				Verdict: "no sign of bias; the test would catch the loaded die 100% of the time"},
		},
		Characters: []projections.LuckReport{
			{Character: "Zoë", CharacterID: "01M83553CSYSEVE796V5PF9DB0",
				Luck:     projections.Luck{Checks: 28, Passed: 20, Expected: 14.75, Percentile: 96.81787512364785},
				Rerolled: &projections.Luck{Checks: 3, Passed: 0, Expected: 1.5, Percentile: 0},
				Adventures: []projections.AdventureLuck{
					{Adventure: 1, Luck: projections.Luck{Checks: 16, Passed: 11, Expected: 7.25, Percentile: 95.0120534747839}},
					{Adventure: 2, Luck: projections.Luck{Checks: 12, Passed: 9, Expected: 7.5, Percentile: 71.76303168089362}},
				}},
			{Character: "Łukasz", CharacterID: "01M83553CSYSEVE796V5PF9DB1",
				Luck: projections.Luck{Checks: 14, Passed: 5, Expected: 8.925925925925926, Percentile: 0.6331749020205363},
				Adventures: []projections.AdventureLuck{
					{Adventure: 1, Luck: projections.Luck{Checks: 14, Passed: 5, Expected: 8.925925925925926, Percentile: 0.6331749020205363}},
				}},
		},
	}}
}

// testDiceLongDoc is testDiceDoc with 60 characters, each with two
// adventures, and a die of 20 sides: it takes more than one page.
func testDiceLongDoc() DiceDoc {
	d := testDiceDoc()
	d20 := make([]int64, 20)
	for i := range d20 {
		d20[i] = int64(40 + (i*7)%11)
	}
	d.Report.Sources = append(d.Report.Sources, projections.DieReport{Actor: "Ærin", Source: "physical", Sides: 20, Faces: d20,
		Thrown: 898, Chi2: 11.2, DF: 19, PRaw: 0.917, PValue: 1, Power: 0.42, FacesFor90: 2400,
		Verdict: "too few faces to tell: the test would catch the loaded die 42% of the time (2400 faces for 90%)"})
	d.Report.Characters = nil
	for i := range 60 {
		pct := float64(i*37%100) + 0.5
		d.Report.Characters = append(d.Report.Characters, projections.LuckReport{
			Character: fmt.Sprintf("Crewman %02d", i+1), CharacterID: fmt.Sprintf("ID%02d", i),
			Luck: projections.Luck{Checks: 20, Passed: 10 + i%7, Expected: 11.5, Percentile: pct},
			Adventures: []projections.AdventureLuck{
				{Adventure: 1, Luck: projections.Luck{Checks: 12, Passed: 6, Expected: 6.9, Percentile: 40}},
				{Adventure: 2, Luck: projections.Luck{Checks: 8, Passed: 4 + i%7, Expected: 4.6, Percentile: pct}},
			}})
	}
	return d
}

// testDiceFilteredDoc is a report narrowed to one actor's physical dice
// and one adventure: one source, so no correction, and no checks.
func testDiceFilteredDoc() DiceDoc {
	d := testDiceDoc()
	d.Report.Filter = projections.DiceReportFilter{Actor: "bob", Adventure: 1, Source: "physical"}
	d.Report.Sources, d.Report.Holm = d.Report.Sources[1:2], false
	d.Report.Sources[0].PValue = d.Report.Sources[0].PRaw
	d.Report.Characters = []projections.LuckReport{}
	return d
}

// TestMarkdownDice: the dice report as Markdown, whole, empty and
// filtered: the golden files, well-formed tables, the same bytes twice,
// every line but a table's row and the footer within 80 columns.
func TestMarkdownDice(t *testing.T) {
	for _, tc := range []mdCase{
		{"dice.md", testDiceDoc()},
		{"dice-filtered.md", testDiceFilteredDoc()},
		{"dice-empty.md", DiceDoc{Trace: testTrace, Report: projections.DiceReport{Campaign: "Kit-Kat crew", Edition: "2021", Seq: 33,
			Level: 0.01, Sources: []projections.DieReport{}, Characters: []projections.LuckReport{}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := mdRender(t, tc.doc)
			tables := checkMarkdown(t, tc.name, md)
			mdGolden(t, tc.name, md)
			if again := mdRender(t, tc.doc); !bytes.Equal(again, md) {
				t.Error("two renders of one document differ")
			}
			if !bytes.Contains(md, []byte("\n---\n\n*Kit-Kat crew (edition 2021), folded at seq 33, hash `"+testTrace.Hash+"`*\n")) {
				t.Errorf("the footer is missing:\n%s", md)
			}
			for i, line := range strings.Split(string(md), "\n") {
				if n := len([]rune(line)); n > 80 && !strings.HasPrefix(line, "|") && !strings.HasPrefix(line, "*Kit-Kat crew") {
					t.Errorf("line %d is %d columns: %q", i+1, n, line)
				}
			}
			want := map[string]int{"dice.md": 2, "dice-filtered.md": 1, "dice-empty.md": 0}[tc.name]
			if len(tables) != want {
				t.Errorf("%d tables, want %d", len(tables), want)
			}
		})
	}
	out := string(mdRender(t, testDiceDoc()))
	for _, want := range []string{
		"# Dice report — Kit-Kat crew\n",
		"\nThe log up to seq 33, edition 2021.\n",
		"\nA source is flagged when its p-value is below 0.01.\nPower: the chance that the test flags a d6 loaded 2, 3, 3, 3, 3, 4 out of 18.\n",
		"\np-values corrected for 3 sources compared (Holm).\n",
		"| ann's d6 | 6 | 600 | 30.90 | \\< 0.0001 | 90% | **flagged: a fair die would come out this uneven with p \\< 0.0001** |\n",
		"| the program's d6 | 6 | 3000 | 0.69 | 1.0000 | 100% | no sign of bias; the test would catch the loaded die 100% of the time |\n",
		"\n### bob's d6\n\nχ² = 0.80 on 5 degrees of freedom.\np = 1.0000 after Holm's correction; p = 0.9770 alone.\n" +
			"Power 14%: the chance that the test flags the loaded die.\n595 faces would give it 90%.\n",
		// ann's chart: 140 is the longest bar, 40 cells; the fair 100
		// ends a bar of 29 (28.6), where 101 ends and 104 passes.
		"\n```text\n1 ██████████████████           ┆             62\n2 ███████████████████████████  ┆             95\n" +
			"3 █████████████████████████████┆            101\n4 ████████████████████████████ ┆             98\n" +
			"5 ██████████████████████████████            104\n6 ████████████████████████████████████████  140\n" +
			"                               └ fair: 100 of each face\n```\n",
		"| Zoë | 28 | 20 | 14.8 | 96.8 |\n| ↳ adventure 1 | 16 | 11 | 7.2 | 95.0 |\n| ↳ adventure 2 | 12 | 9 | 7.5 | 71.8 |\n| ↳ re-rolled away | 3 | 0 | 1.5 | 0.0 |\n| Łukasz | 14 | 5 | 8.9 | 0.6 |\n| ↳ adventure 1 | 14 | 5 | 8.9 | 0.6 |\n",
		"\nRe-rolled away: the checks karma re-rolls replaced, counted apart (the re-roll\nthat stood is counted above).\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, out)
		}
	}
	out = string(mdRender(t, testDiceFilteredDoc()))
	for _, want := range []string{
		"\nThe log up to seq 33, edition 2021; only actor bob, adventure 1, physical dice.\n",
		"\nOne source: its p-value needs no correction.\n",
		"\np = 0.9770.\nPower 14%",
		"\n## Luck of the characters\n\nNo checks made yet.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the filtered Markdown lacks %q:\n%s", want, out)
		}
	}
}

// TestDiceChart: the text chart's bars are scaled to 40 cells, the fair
// mark stands where a fair count would end a bar, and the chart of a die
// of 20 sides lines its faces and counts up.
func TestDiceChart(t *testing.T) {
	var d DiceDoc
	got := d.Chart(projections.DieReport{Sides: 2, Faces: []int64{5, 15}})
	want := []string{
		"1 █████████████              ┆               5",
		"2 ████████████████████████████████████████  15",
		"                             └ fair: 10 of each face",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("chart:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A fair die's bars all reach the mark; one with nothing thrown has
	// no bars.
	got = d.Chart(projections.DieReport{Sides: 3, Faces: []int64{7, 7, 7}})
	if got[0] != "1 ████████████████████████████████████████┆ 7" || got[3] != strings.Repeat(" ", 42)+"└ fair: 7 of each face" {
		t.Errorf("a fair chart:\n%s", strings.Join(got, "\n"))
	}
	got = d.Chart(projections.DieReport{Sides: 2, Faces: []int64{0, 0}})
	if got[0] != "1 ┆"+strings.Repeat(" ", 41)+"0" {
		t.Errorf("an empty chart:\n%q", got)
	}
	long := testDiceLongDoc().Report.Sources[3]
	got = d.Chart(long)
	if len(got) != 21 || !strings.HasPrefix(got[0], " 1 ") || !strings.HasPrefix(got[19], "20 ") {
		t.Errorf("a d20's chart:\n%s", strings.Join(got, "\n"))
	}
	for _, line := range got {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a chart line of %d columns: %q", n, line)
		}
	}
	if f := diceFair(diceExpected(long)); f != "44.9" {
		t.Errorf("fair count of a d20 = %s, want 44.9", f)
	}
}

// TestDiceFormats: the figures are written as `dice report` writes them.
func TestDiceFormats(t *testing.T) {
	d := testDiceDoc()
	for _, tc := range []struct{ got, want string }{
		{d.P(2.9e-05), "< 0.0001"}, {d.P(0.03125), "0.0312"}, {d.PText(2.9e-05), "p < 0.0001"}, {d.PText(0.5), "p = 0.5000"},
		{d.Percent(0.9034), "90%"}, {d.Percentile(95.0120534747839), "95.0"}, {d.Percentile(0.6331749020205363), "0.6"},
		{d.Percentile(99.97), "99.97"}, {d.Percentile(0.004), "0.004"}, {d.Percentile(100), "100.0"}, {d.Percentile(0), "0.0"},
		{d.AdventureName(0), "between adventures"}, {d.AdventureName(2), "adventure 2"},
		{d.SourceName(d.Report.Sources[0]), "ann's d6"}, {d.SourceName(d.Report.Sources[2]), "the program's d6"},
		{d.Loaded(), "a d6 loaded 2, 3, 3, 3, 3, 4 out of 18"}, {testDiceFilteredDoc().FilterText(), "actor bob, adventure 1, physical dice"},
		{DiceDoc{Report: projections.DiceReport{Bias: []float64{0.3, 0.7 - 1e-6, 1e-6}}}.Loaded(), "a d3 loaded 30.0%, 70.0%, 0.0%"},
		{DiceDoc{}.Loaded(), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestDiceJSON: the JSON export is `dice report --json`'s report as it is.
func TestDiceJSON(t *testing.T) {
	d := testDiceDoc()
	var got, want bytes.Buffer
	if err := JSON(&got, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&want, d.Report); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) || !strings.Contains(got.String(), `"p_value": 0.00002940861057864682`) || !strings.Contains(got.String(), `"rerolled": {`) {
		t.Errorf("JSON export:\n%s\nwant:\n%s", got.String(), want.String())
	}
}

// TestTemplateDiceCopy: a copy of the built-in layout renders as it
// does, for a user to start from.
func TestTemplateDiceCopy(t *testing.T) {
	text, err := templateFiles.ReadFile("templates/dice.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []DiceDoc{testDiceDoc(), testDiceFilteredDoc()} {
		if got, want := mdUserTemplate(t, "my-dice.md.tmpl", string(text), d), string(mdRender(t, d)); got != want {
			t.Errorf("a copy of dice.md.tmpl renders otherwise:\n%s", got)
		}
	}
}

// TestPDFDice: the report is one page whose text carries the sources'
// table, each chart's faces, counts and fair line, and each character's
// lines; 60 characters run onto more pages, each with its axis, and
// every one of them is there.
func TestPDFDice(t *testing.T) {
	long := testDiceLongDoc()
	if dir := os.Getenv("LTSCAMP_PDF_DIR"); dir != "" {
		// For a look by eye: pdftoppm -png -r 60 DIR/dice.pdf DIR/dice.
		for _, out := range []struct {
			name  string
			doc   DiceDoc
			paper Paper
		}{{"dice.pdf", testDiceDoc(), PaperA4}, {"dice-letter.pdf", testDiceDoc(), PaperLetter}, {"dice-long.pdf", long, PaperA4}} {
			if err := os.WriteFile(filepath.Join(dir, out.name), renderPDF(t, out.doc, out.paper), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, paper := range []Paper{PaperA4, PaperLetter} {
		pages, _, text := readPDF(t, renderPDF(t, testDiceDoc(), paper))
		if pages != 1 {
			t.Fatalf("%s: the dice report on %d pages, want 1", paper, pages)
		}
		wantText(t, text, "Dice report — Kit-Kat crew", "Edition 2021 · the log up to seq 33",
			"A source is flagged when its p-value is below 0.01 · p-values corrected for 3 sources compared (Holm)",
			"Power: the chance that the test flags a d6 loaded 2, 3, 3, 3, 3, 4 out of 18",
			"Die sources", "flagged: a fair die would come out this uneven", "too few faces to tell", "no sign of bias",
			"600 faces · χ² 30.90 on 5 df · p < 0.0001 · power 90% · FLAGGED", "the program's d6",
			"Luck of the characters", "Zoë", "Łukasz", "adventure 2", "re-rolled away", "96.8", "0.6",
			"Re-rolled away: the checks karma re-rolls replaced", "folded at seq 33", "hash "+testTrace.Hash, "page 1 of 1")
		// The counts above the bars, at their bars' heights, and the fair
		// counts beside the dashed lines.
		words := map[string]bool{}
		for _, w := range strings.Fields(text) {
			words[w] = true
		}
		for _, w := range []string{"62", "95", "101", "98", "104", "140", "17", "22", "498", "507", "489", "512", "495", "499", "fair", "100", "20", "500"} {
			if !words[w] {
				t.Errorf("%s: the charts lack the count %s:\n%s", paper, w, text)
			}
		}
		for _, re := range []string{
			`(?m)^\s*ann's d6\s+6\s+600\s+30\.90\s+< 0\.0001\s+90%\s+flagged`,
			`(?m)^\s*1\s+2\s+3\s+4\s+5\s+6\s+1\s+2\s+3\s+4\s+5\s+6\s*$`, // the faces under two charts
			`(?m)^\s*Zoë\s+28\s+20\s+14\.8\s+96\.8\s*$`,
			`(?m)^\s*adventure 1\s+16\s+11\s+7\.2\s+95\.0\s*$`,
			`(?m)^\s*Character\s+Checks\s+Passed\s+Expected\s+Percentile\s+0\s+25\s+50\s+75\s+100\s*$`,
		} {
			if !regexp.MustCompile(re).MatchString(text) {
				t.Errorf("%s: the PDF's text does not match %s:\n%s", paper, re, text)
			}
		}
	}
	pages, _, text := readPDF(t, renderPDF(t, long, PaperA4))
	if pages < 2 {
		t.Fatalf("60 characters on %d page", pages)
	}
	if n := len(regexp.MustCompile(`(?m)^\s*Character\s+Checks\s+Passed\s+Expected\s+Percentile`).FindAllString(text, -1)); n != pages {
		t.Errorf("the axis is on %d of %d pages", n, pages)
	}
	for _, c := range long.Report.Characters {
		wantText(t, text, c.Character+" ")
	}
	wantText(t, text, "Ærin's d20", fmt.Sprintf("page %d of %d", pages, pages))
	pages, _, text = readPDF(t, renderPDF(t, DiceDoc{Trace: testTrace, Report: projections.DiceReport{Campaign: "Kit-Kat crew", Edition: "2021"}}, PaperA4))
	if pages != 1 {
		t.Errorf("an empty report on %d pages", pages)
	}
	wantText(t, text, "No dice thrown yet.", "No checks made yet.")
	_, _, text = readPDF(t, renderPDF(t, testDiceFilteredDoc(), PaperA4))
	wantText(t, text, "the log up to seq 33 · only actor bob, adventure 1, physical dice", "one source: its p-value needs no correction", "No checks made yet.")
}
