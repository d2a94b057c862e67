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
// audit (CodeInvalidLog). It reads two rows an XP event, in a query for
// every shownPerRead of them; verify checks the whole log.
func (s *Service) checkShown(rows []projections.XPAuditRow) error {
	var h events.Hasher
	for start := 0; start < len(rows); start += shownPerRead {
		chunk := rows[start:min(start+shownPerRead, len(rows))]
		// Each row's event and the one before it, in one query a chunk.
		seqs := make([]int64, 0, 2*len(chunk))
		for _, r := range chunk {
			seqs = append(seqs, r.Seq-1, r.Seq)
		}
		evs, err := s.store.Read(events.Query{Seqs: seqs})
		if err != nil {
			return err
		}
		bySeq := make(map[int64]*events.Event, len(evs))
		for i := range evs {
			bySeq[evs[i].Seq] = &evs[i]
		}
		for _, r := range chunk {
			prev := events.GenesisHash()
			if r.Seq > 1 {
				before, ok := bySeq[r.Seq-1]
				if !ok {
					return s.shownBroken(r, fmt.Sprintf("seq %d, the event before it, is missing", r.Seq-1))
				}
				prev = before.Hash
			}
			e, ok := bySeq[r.Seq]
			if !ok {
				return s.shownBroken(r, "it is missing from the log")
			}
			switch sum := h.Sum(e.PrevHash, e); {
			case e.ID != r.EventID:
				return s.shownBroken(r, fmt.Sprintf("its event was %s, and is now %s", r.EventID, e.ID))
			case !bytes.Equal(sum[:], e.Hash):
				return s.shownBroken(r, "hash mismatch: the event was changed after it was written")
			case !bytes.Equal(e.PrevHash, prev):
				return s.shownBroken(r, fmt.Sprintf("its prev_hash is not the hash of seq %d: one of the two was changed and rehashed", r.Seq-1))
			}
		}
	}
	return nil
}

// shownPerRead is how many rows of an audit checkShown reads at once: two
// events each, well within SQLite's bound on a query's parameters.
const shownPerRead = 500

// shownBroken is the error of an audit refused by checkShown.
func (s *Service) shownBroken(r projections.XPAuditRow, why string) error {
	return rules.Errorf(rules.CodeInvalidLog, "%s was changed outside ltscamp: seq %d (%s, a row of this audit): %s; the audit is not shown: run `ltscamp verify` to see what changed, and restore the campaign from a backup",
		s.path(), r.Seq, r.Kind, why)
}
