package rules

// Tackle outcomes, stored in events.
const (
	// TackleGrappling: the tackler won DX and entered his foe's hex.
	TackleGrappling = "grappling"
	// TackleFoeRetreats: the tackler failed but is stronger; his foe
	// retreats to an empty adjacent hex.
	TackleFoeRetreats = "foe retreats"
	// TackleBack: the tackler failed and is equal or weaker; he returns
	// to his starting hex.
	TackleBack = "back"
)

// TackleOutcome decides a tackle from its DX contest (won: the tackler
// won it) and both sides' ST. 2021 "Tackle": "A fighter tackles a foe and
// enters his hex by winning DX. If the fighter fails but is stronger, his
// foe retreats to an empty adjacent hex. If the fighter fails and is equal
// or weaker, he returns to his starting hex." 2020 "Tackle (to grapple)"
// says the same with spaces for hexes ("weaker (or equal)"). 2010 has no
// tackle: a 2010 campaign refuses one (campaign.Tackle). A tie or both failing
// is no win: the tackler fails.
func TackleOutcome(won bool, tacklerST, foeST int) string {
	switch {
	case won:
		return TackleGrappling
	case tacklerST > foeST:
		return TackleFoeRetreats
	default:
		return TackleBack
	}
}
