package projections

import (
	"fmt"
	"strings"
)

// DiceReport is what `ltscamp dice report` shows and `export dice`
// renders: the fairness of each die source and the luck of each
// character, with the figures the statistics gave (campaign fills them).
type DiceReport struct {
	Campaign string `json:"campaign"`
	Edition  string `json:"edition"`
	// Seq is the last event read: the report is of the log up to it.
	Seq    int64            `json:"seq"`
	Filter DiceReportFilter `json:"filter"`
	// Level is the significance level: a source is flagged when its
	// p-value (Holm-corrected when several are compared) is below it.
	Level float64 `json:"level"`
	// Bias is the loaded die each source's power is stated against, as
	// the chance of each face of a d6 (2,3,3,3,3,4 out of 18).
	Bias []float64 `json:"bias"`
	// Holm is true when several sources were compared and their p-values
	// corrected for it (Holm's method).
	Holm       bool         `json:"holm"`
	Sources    []DieReport  `json:"sources"`
	Characters []LuckReport `json:"characters"`
}

// DiceReportFilter is what the report was narrowed to.
type DiceReportFilter struct {
	Actor     string `json:"actor,omitempty"`
	Character string `json:"character,omitempty"`
	Adventure int    `json:"adventure,omitempty"`
	// Source is "physical", "program" or "" for both.
	Source string `json:"source,omitempty"`
}

// DieReport is the fairness of one die source.
type DieReport struct {
	// Actor is who entered the physical dice; "" for the program's.
	Actor string `json:"actor"`
	// Source is "physical" (faces typed in from real dice) or "program"
	// (the program's generator).
	Source string `json:"source"`
	Sides  int    `json:"sides"`
	// Faces are the faces thrown, by face: faces[0] is how many 1s.
	Faces []int64 `json:"faces"`
	// Thrown is the number of faces, the test's sample size.
	Thrown int64 `json:"thrown"`
	// Chi2 is Pearson's statistic against a fair die, with DF degrees of
	// freedom; PRaw its p-value alone, PValue after Holm's correction
	// when several sources are compared (else PRaw).
	Chi2   float64 `json:"chi2"`
	DF     int     `json:"df"`
	PRaw   float64 `json:"p_raw"`
	PValue float64 `json:"p_value"`
	// Power is the chance the test at the report's level flags the
	// stated loaded die after Thrown faces; FacesFor90 the faces it needs
	// to flag it 90% of the time.
	Power      float64 `json:"power"`
	FacesFor90 int64   `json:"faces_for_90"`
	// Flagged is PValue below the report's level.
	Flagged bool `json:"flagged"`
	// Verdict says in words what the figures mean.
	Verdict string `json:"verdict"`
}

// Name names the source for people: "ann's d6", "the program's d6".
func (d DieReport) Name() string {
	if d.Source == "program" {
		return fmt.Sprintf("the program's d%d", d.Sides)
	}
	return fmt.Sprintf("%s's d%d", d.Actor, d.Sides)
}

// String says what the report was narrowed to ("actor ann, adventure 2,
// physical dice"), or "" for the whole log.
func (f DiceReportFilter) String() string {
	var parts []string
	if f.Actor != "" {
		parts = append(parts, "actor "+f.Actor)
	}
	if f.Character != "" {
		parts = append(parts, "character "+f.Character)
	}
	if f.Adventure != 0 {
		parts = append(parts, fmt.Sprintf("adventure %d", f.Adventure))
	}
	if f.Source != "" {
		parts = append(parts, f.Source+" dice")
	}
	return strings.Join(parts, ", ")
}

// LuckReport is one character's luck: his checks passed against the
// exact distribution of passes given each check's own chance.
type LuckReport struct {
	Character   string `json:"character"`
	CharacterID string `json:"character_id"`
	Luck
	// Rerolled are the checks that karma re-rolls replaced, counted
	// apart (the re-roll that stood is counted above).
	Rerolled *Luck `json:"rerolled,omitempty"`
	// Adventures are his checks per adventure (0: between adventures).
	Adventures []AdventureLuck `json:"adventures"`
}

// AdventureLuck is a character's luck in one adventure.
type AdventureLuck struct {
	Adventure int `json:"adventure"`
	Luck
}

// Luck is a number of checks passed against the exact distribution.
type Luck struct {
	Checks int `json:"checks"`
	Passed int `json:"passed"`
	// Expected is the passes to expect: the sum of the checks' chances.
	Expected float64 `json:"expected"`
	// Percentile is the share, 0–100, of outcomes worse than his: the
	// chance of passing fewer checks than he did.
	Percentile float64 `json:"percentile"`
}
