package campaign

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/ltscamp/ltscamp/events"
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
}

// Generate fills an empty store with a reproducible campaign for benchmarks:
// campaign.created, then Characters legal characters named C0000, C0001…,
// then rolls resolved by the rules, XP awards and karma grants interleaved
// across the party. It returns the names of the characters.
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
	versions := map[string]int64{}
	seq, prev := int64(0), events.GenesisHash()
	var batch []events.Event
	command, inCommand := newID(), 0
	load := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := store.Load(batch)
		batch = batch[:0]
		return err
	}
	add := func(stream string, p events.Payload) error {
		pe, err := events.Encode(newID(), stream, p, nil)
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
	flush := load
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
	for n := 0; n < o.EventsPerCharacter; n++ {
		for i := range names {
			var p events.Payload
			switch rng.Intn(10) {
			case 0:
				p = events.XPAwarded{Amount: 1 + rng.Intn(3), Reason: "generated encounter"}
			case 1:
				p = events.KarmaGranted{Amount: 1, Reason: "generated"}
			default:
				p = generatedCheck(o.Edition, streams[i][len(events.CharacterStreamPrefix):], names[i], attrs[i], rng)
			}
			if err := add(streams[i], p); err != nil {
				return nil, err
			}
		}
	}
	return names, flush()
}

// generateBatch is how many sealed events Generate loads at a time.
const generateBatch = 4096

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
