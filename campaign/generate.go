package campaign

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// GenerateOptions shape a large synthetic campaign.
type GenerateOptions struct {
	// Characters is the party size.
	Characters int
	// EventsPerCharacter is how many events each character's stream gets
	// after its creation (rolls, awards, karma).
	EventsPerCharacter int
	// EventsPerCommand batches events into commands, so a large campaign is
	// written quickly; each command still commits as one transaction.
	EventsPerCommand int
	// Seed makes the campaign reproducible: the same seed gives the same
	// events, IDs and times.
	Seed int64
	// Start is the recorded time of the first event; each command is one
	// second later than the previous.
	Start time.Time
	// Edition of the campaign.
	Edition rules.Edition
	// Build is the release ltscamp will read the campaign with
	// (Options.Build): the snapshots Generate saves are keyed by it.
	Build string
}

// Generate fills an empty store with a reproducible campaign for benchmarks:
// campaign.created, then Characters legal characters named C0000, C0001…,
// then rolls resolved by the rules, XP awards and karma grants interleaved
// across the party. It returns the names of the characters.
//
// It also folds the events as it makes them, and saves the snapshots
// `ltscamp rebuild` would (keyed by this build and o.Build), so that the
// campaign reads as fast as a played one straight away.
func Generate(store events.Store, o GenerateOptions) ([]string, error) {
	if o.Characters < 1 || o.EventsPerCharacter < 0 || o.EventsPerCommand < 1 {
		return nil, fmt.Errorf("generate: need at least one character and one event per command: %+v", o)
	}
	if o.Edition == "" {
		o.Edition = rules.DefaultEdition
	}
	rng := rand.New(rand.NewSource(o.Seed))
	entropy := ulid.Monotonic(rng, 0)
	clock := o.Start
	newID := func() string { return ulid.MustNew(ulid.Timestamp(clock), entropy).String() }
	// The events are sealed here, in a command's order and a command's
	// time, and loaded in batches: the chain and the stream versions are
	// what Append would give, without a transaction per command.
	//
	// The batches are loaded on another goroutine while the next ones are
	// made: loading takes most of the time, and making them the rest. They
	// are loaded in order, so the log is the same either way.
	versions := map[string]int64{}
	seq, prev := int64(0), events.GenesisHash()
	var batch []events.Event
	command, inCommand := newID(), 0
	loader := newBatchLoader(store.Load)
	defer loader.close()
	// The snapshots are folded on a goroutine of their own, from the
	// batches the loader loads: the maker's and the loader's work does not
	// wait for it.
	behind := newFoldBehind(snapshotCode(o.Build), defaultRebuildEvery)
	folder := newBatchLoader(behind.addAll)
	defer folder.close()
	load := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := loader.load(batch)
		if err == nil {
			err = folder.load(batch)
		}
		batch = make([]events.Event, 0, generateBatch)
		return err
	}
	// at is the game time the clock events are stamped with; the other
	// events are left unstamped, as events recorded before game time was
	// tracked are.
	var at *events.GameTime
	add := func(stream string, p events.Payload) error {
		pe, err := events.Encode(newID(), stream, p, at)
		at = nil
		if err != nil {
			return err
		}
		seq++
		versions[stream]++
		e := events.Event{Seq: seq, ID: pe.ID, CommandID: command, Stream: stream, StreamVersion: versions[stream], Type: pe.Type,
			PayloadVersion: pe.PayloadVersion, Payload: pe.Payload, Actor: "generator", RecordedAt: clock.UTC(), PrevHash: prev}
		e.Hash = events.ComputeHash(prev, e)
		prev = e.Hash
		batch = append(batch, e)
		if inCommand++; inCommand == o.EventsPerCommand {
			command, inCommand = newID(), 0
			clock = clock.Add(time.Second)
		}
		if len(batch) == generateBatch {
			return load()
		}
		return nil
	}
	flush := func() error {
		if err := load(); err != nil {
			return err
		}
		if err := loader.close(); err != nil {
			return err
		}
		if err := folder.close(); err != nil {
			return err
		}
		folded, err := behind.finish()
		if err != nil {
			return err
		}
		return store.SaveSnapshots(folded)
	}
	// endCommand closes the command under way, so the next event starts one
	// of its own (an undo names a whole command).
	endCommand := func() {
		if inCommand > 0 {
			command, inCommand = newID(), 0
			clock = clock.Add(time.Second)
		}
	}
	if err := add(events.CampaignStream, events.CampaignCreated{Name: fmt.Sprintf("generated (seed %d)", o.Seed), Edition: string(o.Edition)}); err != nil {
		return nil, err
	}
	names := make([]string, o.Characters)
	streams := make([]string, o.Characters)
	attrs := make([]rules.Attributes, o.Characters)
	for i := range names {
		names[i] = fmt.Sprintf("C%04d", i)
		id := newID()
		streams[i] = events.CharacterStream(id)
		// Place the 8 discretionary points at random: a legal character.
		a := rules.Attributes{ST: 8, DX: 8, IQ: 8}
		for p := 0; p < rules.CreationPoints-24; p++ {
			switch rng.Intn(3) {
			case 0:
				a.ST++
			case 1:
				a.DX++
			default:
				a.IQ++
			}
		}
		attrs[i] = a
		if err := add(streams[i], events.CharacterCreated{CharacterID: id, Name: names[i], Edition: string(o.Edition),
			Attributes: events.Attributes{ST: a.ST, DX: a.DX, IQ: a.IQ}, Skills: []events.SkillLevel{}}); err != nil {
			return nil, err
		}
	}
	// undoLast closes the command under way and undoes it, in a command of
	// its own.
	undoLast := func() error {
		mistake := command
		endCommand()
		if err := add(events.CommandsStream, events.CommandReverted{CommandID: mistake, Reason: "entered by mistake"}); err != nil {
			return err
		}
		endCommand()
		return nil
	}
	// The party plays one adventure: day 1 begins now, and a day passes
	// every dayEvery rounds. Each round every character acts once: mostly
	// a 3/DX check; an XP award, spent on his lowest attribute once it pays
	// for it; karma; a wound, healed or rested off; now and then a karma
	// grant that is undone at once.
	state := make([]generatedCharacter, len(names))
	for i := range state {
		state[i] = generatedCharacter{attrs: attrs[i]}
	}
	day := 1
	at = &events.GameTime{Adventure: 1, Day: 1}
	if err := add(events.CampaignStream, events.AdventureStarted{Number: 1, Title: "the generated run"}); err != nil {
		return nil, err
	}
	for n := 0; n < o.EventsPerCharacter; n++ {
		if n > 0 && n%dayEvery == 0 {
			at = &events.GameTime{Adventure: 1, Day: day + 1}
			if err := add(events.CampaignStream, events.DayAdvanced{From: day, To: day + 1, Reason: "day next"}); err != nil {
				return nil, err
			}
			day++
		}
		for i := range names {
			if err := generatedAction(o.Edition, rng, streams[i], names[i], &state[i], add, endCommand, undoLast); err != nil {
				return nil, err
			}
		}
	}
	return names, flush()
}

// generateBatch is how many sealed events Generate loads at a time (one
// transaction each), and dayEvery how many rounds of the party a generated
// game day lasts.
const (
	generateBatch = 16384
	dayEvery      = 50
)

// generatedCharacter is what the generator tracks of a character, to keep
// every event it makes one the rules allow.
type generatedCharacter struct {
	attrs  rules.Attributes
	xp     int
	damage int
}

// generatedAction appends one character's action of a round.
func generatedAction(ed rules.Edition, rng *rand.Rand, stream, name string, c *generatedCharacter, add func(string, events.Payload) error, endCommand func(), undoLast func() error) error {
	id := stream[len(events.CharacterStreamPrefix):]
	switch r := rng.Intn(200); {
	case r < 20:
		amount := 1 + rng.Intn(3)
		c.xp += amount
		if err := add(stream, events.XPAwarded{Amount: amount, Reason: "generated encounter"}); err != nil {
			return err
		}
		// Spend on the lowest attribute once the XP covers it.
		at := rules.IQ
		for _, a := range rules.AttributeNames() {
			if c.attrs.Get(a) < c.attrs.Get(at) {
				at = a
			}
		}
		cur := c.attrs.Get(at)
		price := rules.AttributePrice(ed, cur)
		if price.XP > c.xp || rules.CheckAttributeRaise(ed, name, c.attrs, at) != nil {
			return nil
		}
		c.xp -= price.XP
		c.attrs = c.attrs.With(at, cur+1)
		return add(stream, events.XPSpent{On: "attribute", Attribute: string(at), From: cur, To: cur + 1, Price: price.XP, Formula: price.Formula, Edition: string(ed)})
	case r < 30:
		return add(stream, events.KarmaGranted{Amount: 1, Reason: "generated"})
	case r == 30:
		// A karma grant entered by mistake, and undone: a command of its
		// own, then the undo.
		endCommand()
		if err := add(stream, events.KarmaGranted{Amount: 1, Reason: "generated by mistake"}); err != nil {
			return err
		}
		return undoLast()
	case r < 40 && c.damage+2 < c.attrs.ST/2:
		c.damage += 2
		return add(stream, events.DamageTaken{Dealt: 2, Damage: 2, Source: "generated"})
	case r >= 40 && r < 50 && c.damage > 0:
		if rng.Intn(2) == 0 {
			c.damage--
			return add(stream, events.DamageHealed{Points: 1, Reason: "healing", Source: "generated"})
		}
		body := rules.Body{ST: c.attrs.ST, Damage: c.damage}
		cond := rules.RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true}
		healed, after, note := rules.RestHealing(ed, body, 1, 0, cond)
		if err := add(stream, events.RestTaken{Days: 1, StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true,
			Healed: healed, RestedDays: after, Note: note, Edition: string(ed)}); err != nil {
			return err
		}
		if healed == 0 {
			return nil
		}
		c.damage -= healed
		return add(stream, events.DamageHealed{Points: healed, Reason: "rest"})
	}
	return add(stream, generatedCheck(ed, id, name, c.attrs, rng))
}

// generatedCheck resolves a 3/DX check with seeded dice through the rules.
func generatedCheck(ed rules.Edition, id, name string, a rules.Attributes, rng *rand.Rand) events.RollMade {
	faces := []int{rng.Intn(6) + 1, rng.Intn(6) + 1, rng.Intn(6) + 1}
	expr := rules.CheckExpr{Dice: 3, Attribute: rules.DX, Mode: rules.CheckPlain}
	o, err := rules.ResolveCheck(rules.CheckInput{Edition: ed, Expr: expr, AttributeValue: a.DX}, rules.NewGivenFaces(faces))
	if err != nil {
		panic(fmt.Sprintf("generatedCheck: the rules refused legal faces %v: %v", faces, err))
	}
	outcome := "fail"
	if o.Pass {
		outcome = "pass"
	}
	return events.RollMade{CharacterID: id, Character: name, Expr: expr.String(), Kind: "check", Dice: 3, Sides: 6, Faces: o.Faces, Sum: o.Sum,
		Modifiers: modifiers(o.Modifiers), Total: o.Total, Target: o.Target, Outcome: outcome, Margin: o.Margin, Probability: o.Probability, AttributeValue: a.DX, Edition: string(ed)}
}

// batchLoader hands batches to a function (a store's Load, or a fold),
// one after the other, on a goroutine of its own.
type batchLoader struct {
	batches chan []events.Event
	failed  chan struct{} // closed once err is set
	done    chan struct{} // closed once every batch is loaded or skipped
	err     error
	closed  bool
}

func newBatchLoader(load func([]events.Event) error) *batchLoader {
	l := &batchLoader{batches: make(chan []events.Event, 1), failed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for b := range l.batches {
			if l.err != nil {
				continue // after a failure, the rest is only drained
			}
			if l.err = load(b); l.err != nil {
				close(l.failed)
			}
		}
	}()
	return l
}

// load hands b over to be loaded after the batches before it; b must not
// be changed afterwards. It returns the error of an earlier batch, if one
// failed.
func (l *batchLoader) load(b []events.Event) error {
	select {
	case <-l.failed:
		return l.err
	case l.batches <- b:
		return nil
	}
}

// close waits until every batch handed over is loaded, and returns the
// first error. It may be called more than once.
func (l *batchLoader) close() error {
	if !l.closed {
		l.closed = true
		close(l.batches)
	}
	<-l.done
	return l.err
}

// foldBehind feeds a snapshotFold the events of a log as they are made,
// one command behind: a command's events are folded once the next command
// begins, so that the undo the generator makes of a command, at once and
// in a command of its own, is known before the command is folded. An undo
// of a command folded already is an error: the fold would have counted
// it in effect.
type foldBehind struct {
	fold    *snapshotFold
	rv      projections.Reverts
	pending []events.Event
	folded  map[string]bool // the commands folded
}

func newFoldBehind(code string, every int) *foldBehind {
	b := &foldBehind{folded: map[string]bool{}}
	b.fold = &snapshotFold{code: code, every: int64(every), rv: &b.rv, streams: map[string]*rebuilt{}}
	return b
}

// add takes the log's next event.
func (b *foldBehind) add(e events.Event) error {
	if e.Stream == events.CommandsStream {
		named, err := undoNames(e)
		if err != nil {
			return err
		}
		for _, id := range named {
			if b.folded[id] {
				return fmt.Errorf("generate: seq %d undoes or redoes command %s, folded already", e.Seq, id)
			}
		}
		if err := b.rv.Apply(e); err != nil {
			return err
		}
	}
	if len(b.pending) > 0 && b.pending[0].CommandID != e.CommandID {
		if err := b.flush(); err != nil {
			return err
		}
	}
	b.pending = append(b.pending, e)
	return nil
}

// addAll takes the log's next events.
func (b *foldBehind) addAll(batch []events.Event) error {
	for _, e := range batch {
		if err := b.add(e); err != nil {
			return err
		}
	}
	return nil
}

// flush folds the command held back.
func (b *foldBehind) flush() error {
	for _, e := range b.pending {
		if err := b.fold.step(e); err != nil {
			return err
		}
	}
	if len(b.pending) > 0 {
		b.folded[b.pending[0].CommandID] = true
	}
	b.pending = b.pending[:0]
	return nil
}

// finish folds the last command and returns the snapshots.
func (b *foldBehind) finish() ([]events.Snapshot, error) {
	if err := b.flush(); err != nil {
		return nil, err
	}
	return b.fold.finish()
}
