package campaign

import (
	"bytes"
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// The XP audit's use cases: the fold they read is in audit.go, which the
// snapshot code's digest covers; what is read around it lives here.

// AuditXP itemises a character's XP ledger from his stream: who awarded or
// spent what and when, every spend re-priced by the campaign edition's
// rules against the sheet as it stood just before it, and the running
// balance. It asserts that earned − spent is the sheet's unspent XP, that
// the balance never went below 0, and that every recorded price is the
// rules' price. A failed assertion is reported in the audit, not as an
// error. Every row's event is rehashed as it is in the log (checkShown):
// one that fails refuses the audit, with CodeInvalidLog.
func (s *Service) AuditXP(name string) (projections.XPAudit, error) { return s.AuditXPAsOf(name, "") }

// AuditXPAsOf is AuditXP of the log as it was at a point (see
// ResolveAsOf; "" for now).
func (s *Service) AuditXPAsOf(name, asOf string) (projections.XPAudit, error) {
	v, err := s.view(asOf)
	if err != nil {
		return projections.XPAudit{}, err
	}
	camp, err := v.campaign()
	if err != nil {
		return projections.XPAudit{}, err
	}
	c, err := v.character(name)
	if err != nil {
		return projections.XPAudit{}, err
	}
	a, _, err := s.foldAudit(c.stream, camp.Edition, &v.rv, v.upTo)
	if err != nil {
		return projections.XPAudit{}, err
	}
	if err := s.checkShown(a.Rows); err != nil {
		return projections.XPAudit{}, err
	}
	return a.report(c.sheet), nil
}

// checkShown re-hashes the event of every row an audit shows, as it is
// in the log now, against its stored hash and its predecessor's: a
// player's audit is not fooled by an award or a spend edited by hand,
// whatever the snapshot it was folded from. A broken one refuses the
// audit (CodeInvalidLog). It reads two rows an XP event; verify checks
// the whole log.
func (s *Service) checkShown(rows []projections.XPAuditRow) error {
	var h events.Hasher
	for _, r := range rows {
		evs, err := s.store.Read(events.Query{AfterSeq: max(r.Seq-2, 0), UpToSeq: r.Seq})
		if err != nil {
			return err
		}
		prev := events.GenesisHash()
		if r.Seq > 1 {
			if len(evs) != 2 || evs[0].Seq != r.Seq-1 {
				return s.shownBroken(r, fmt.Sprintf("seq %d, the event before it, is missing", r.Seq-1))
			}
			prev, evs = evs[0].Hash, evs[1:]
		}
		if len(evs) != 1 || evs[0].Seq != r.Seq {
			return s.shownBroken(r, "it is missing from the log")
		}
		e := &evs[0]
		switch sum := h.Sum(e.PrevHash, e); {
		case e.ID != r.EventID:
			return s.shownBroken(r, fmt.Sprintf("its event was %s, and is now %s", r.EventID, e.ID))
		case !bytes.Equal(sum[:], e.Hash):
			return s.shownBroken(r, "hash mismatch: the event was changed after it was written")
		case !bytes.Equal(e.PrevHash, prev):
			return s.shownBroken(r, fmt.Sprintf("its prev_hash is not the hash of seq %d: one of the two was changed and rehashed", r.Seq-1))
		}
	}
	return nil
}

// shownBroken is the error of an audit refused by checkShown.
func (s *Service) shownBroken(r projections.XPAuditRow, why string) error {
	return rules.Errorf(rules.CodeInvalidLog, "%s was changed outside ltscamp: seq %d (%s, a row of this audit): %s; the audit is not shown: run `ltscamp verify` to see what changed, and restore the campaign from a backup",
		s.path(), r.Seq, r.Kind, why)
}
