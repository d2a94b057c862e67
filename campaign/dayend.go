package campaign

import (
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// DayEnd ends the game day for the whole party in one command: the deaths
// still pending resolve (the mortally wounded who were not healed die),
// every living party member sleeps a full night and recovers all his
// fatigue ("and all his fatigue with a full night of sleep"), karma that
// had to be used within the day expires, and the next day begins. It is
// `sleep` then `day next` as one command, undone as one. Damage does not
// heal: a day of rest heals only with `rest` (the books' four conditions).
// It is refused while an encounter is under way (nobody sleeps in a
// fight). The dead are skipped.
func (s *Service) DayEnd() (TimeResult, error) {
	return s.timeCommand(func(d *decision) error {
		c, died, err := d.timeStep("day end", "the day cannot end")
		if err != nil {
			return err
		}
		living, err := d.livingAfter(died)
		if err != nil {
			return err
		}
		if err := d.recoverFatigue(living, died, "sleep", rules.FatigueAfterSleep); err != nil {
			return err
		}
		if err := d.emit(events.CampaignStream, events.PartySlept{}); err != nil {
			return err
		}
		return d.advanceDays(c, 1, "day end")
	})
}
