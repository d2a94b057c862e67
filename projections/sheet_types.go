package projections

import "github.com/ltscamp/ltscamp/events"

// SheetVersionOnlyTypes lists the types of event that move a sheet's
// Version and Seq on and change nothing else on it: Sheet.Apply reads none
// of their payloads (TestSheetVersionOnlyTypes holds the list to it). A
// reader of many sheets at once can leave them out of what it reads and
// take only the last of each stream.
func SheetVersionOnlyTypes() []string {
	return []string{events.TypeRollMade, events.TypeContestResolved, events.TypeAttackMade}
}
