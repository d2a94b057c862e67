package campaign

import (
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// locator finds the commands an undo or a redo is about, reading the log
// by seq, by ID or backwards from its end, never all of it.
type locator struct {
	s  *Service
	rv *projections.Reverts
}

// backBatch is how many events the search for the latest command reads at
// a time, backwards from the end of the log.
const backBatch = 256

// commandEvents returns a command's events.
func (l *locator) commandEvents(id string) ([]events.Event, error) {
	return l.s.store.Read(events.Query{CommandIDs: []string{id}})
}

// resolve turns a command ID, an event ID or a seq into a command ID.
func (l *locator) resolve(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		evs, err := l.s.store.Read(events.Query{AfterSeq: n - 1, UpToSeq: n})
		if err != nil {
			return "", err
		}
		if n < 1 || len(evs) == 0 {
			return "", rules.Errorf(rules.CodeNotFound, "no event at seq %s; `ltscamp log` lists them", ref)
		}
		return evs[0].CommandID, nil
	}
	up := strings.ToUpper(ref)
	evs, err := l.commandEvents(up)
	if err != nil {
		return "", err
	}
	if len(evs) > 0 {
		return up, nil
	}
	e, err := l.s.store.EventByID(up)
	if err != nil {
		return "", rules.Errorf(rules.CodeNotFound, "no command or event with id %q; `ltscamp log --json` shows the ids", ref)
	}
	return e.CommandID, nil
}

// isUndoRedo reports whether a command is itself an undo or a redo.
func (l *locator) isUndoRedo(id string) (bool, error) {
	evs, err := l.commandEvents(id)
	return len(evs) > 0 && evs[0].Stream == events.CommandsStream, err
}

// info summarises a command.
func (l *locator) info(id string) (CommandInfo, error) {
	evs, err := l.commandEvents(id)
	if err != nil {
		return CommandInfo{}, err
	}
	return commandInfo(id, evs, l.s.SeqOf, ""), nil
}

// undoTarget picks the command to undo: the named one, or the latest
// command in effect that actor recorded and that is not itself an undo or
// a redo. Another actor's command is undone only when it is named.
func (l *locator) undoTarget(ref, actor string) (string, error) {
	if strings.TrimSpace(ref) != "" {
		return l.resolve(ref)
	}
	var other string
	upTo := int64(0)
	for {
		evs, err := l.s.store.Read(events.Query{UpToSeq: upTo, Limit: backBatch, Last: true})
		if err != nil {
			return "", err
		}
		for i := len(evs) - 1; i >= 0; i-- {
			e := evs[i]
			switch _, out := l.rv.Reverted(e.CommandID); {
			case e.Stream == events.CommandsStream || out:
				continue
			case e.Type == events.TypeCampaignCreated:
				return "", l.nothingToUndo(actor, other)
			case e.Actor != actor:
				if other == "" {
					other = e.CommandID
				}
				continue
			}
			return e.CommandID, nil
		}
		if len(evs) < backBatch {
			return "", l.nothingToUndo(actor, other)
		}
		upTo = evs[0].Seq - 1
	}
}

// nothingToUndo is the refusal of an undo that finds none of actor's
// commands in effect; other is the latest command in effect, if any.
func (l *locator) nothingToUndo(actor, other string) error {
	if other == "" {
		return rules.Errorf(rules.CodeNotFound, "nothing to undo: no command is in effect but the campaign's creation")
	}
	c, err := l.info(other)
	if err != nil {
		return err
	}
	return rules.Errorf(rules.CodeNotFound, "nothing of %s's to undo; the latest command in effect is %s's, seq %d (%s): name it to undo it, `ltscamp undo %d`", actor, c.Actor, c.FirstSeq, c.Summary, c.FirstSeq)
}

// around returns the commands whose history an undo of target is decided
// on: target, and for an undo or a redo, the commands it names.
func (l *locator) around(target string) ([]string, error) {
	evs, err := l.commandEvents(target)
	if err != nil || len(evs) == 0 || evs[0].Stream != events.CommandsStream {
		return []string{target}, err
	}
	named, err := undoNames(evs[0])
	if err != nil {
		return nil, err
	}
	return append([]string{target}, named...), nil
}
