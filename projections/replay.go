package projections

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// Violation is an event the rules would not have produced at its place in
// the log: a hand-edited price, a spend beyond the balance, a re-roll of a
// roll that is not in effect.
type Violation struct {
	Seq       int64  `json:"seq"`
	EventID   string `json:"event_id"`
	CommandID string `json:"command_id"`
	Type      string `json:"type"`
	Problem   string `json:"problem"`
}

// rollRef is what the replay keeps of each roll or contest in effect, for
// the re-rolls that may name it later: any later command may re-roll any
// roll of the same stream that is still in effect and not yet replaced
// (reroll below), so every roll is kept. A ref is small — its seq and its
// stream's index — so that a replay of a long log stays within bounded
// memory; the roll itself is kept, or read back by seq (WorldOptions.Lookup).
type rollRef struct {
	seq    int64
	stream int32
}

// rollRecord is a roll named by a re-roll: its stream, the re-roll that
// replaced it, and the roll itself (nil for a contest).
type rollRecord struct {
	stream     string
	rerolledBy string
	roll       *events.RollMade
}

// World is the whole campaign folded from the log in seq order, with every
// event re-checked by the rules against the state just before it. Undo uses
// it to find the commands an undo would invalidate, and verify to find
// events the rules would not have produced.
type World struct {
	Campaign Campaign
	Roster   Roster
	// Shares are the links granted (share.granted, share.revoked).
	Shares  Shares
	Sheets  map[string]*Sheet
	Ledgers map[string]*Ledger
	Ships   map[string]*Ship
	// DetailedShips are the detailed (INTERCEPTOR) ships by ID, and
	// Templates the damage templates the campaign added.
	DetailedShips map[string]*DetailedShip
	Templates     ShipTemplates
	// repairClock is where on the game clock the last repair in effect
	// (of any detailed ship) ended: the next repair of that day starts
	// there.
	repairClock *events.ShipClock
	Dogfight    Dogfight
	// Turns are the turns of the encounter under way (projections/turns.go).
	Turns      Turns
	Violations []Violation

	// rolls indexes every roll and contest in effect by event ID;
	// streams interns their streams; rerolledBy maps a replaced roll to
	// the event that replaced it; payloads keeps the rolls themselves
	// unless lookup reads them back.
	rolls      rollIndex
	streams    []string
	streamIdx  map[string]int32
	rerolledBy map[string]string
	payloads   map[string]*events.RollMade
	attacks    map[string]*events.AttackMade
	// answered maps an attack that a counterattack answered (or that
	// replaces one answered) to that counterattack.
	answered  map[string]string
	actions   map[string]events.Payload
	lookup    func(seq int64) (events.Event, error)
	trim      bool
	noLedgers bool
	// pre is the event being folded as Prepare prepared it, or nil.
	pre *Prepared
	// cache remembers what the rules gave for the parts of rolls.
	cache rulesCache
	// per command being replayed: the rolls paid for with karma or a wish,
	// and the rolls re-rolled.
	command  string
	paid     map[string]events.Event
	rerolled map[string]bool
	// contestReroll is a contest event of this command that replaces an
	// earlier contest; one side must have paid for it.
	contestReroll *events.Event
	// shipKills are the characters this command's ship hits killed, with
	// the seq of the hit.
	shipKills map[string]int64
	// crewKills are the characters and foes this command's detailed ship
	// hits and turn ends killed, by ID, with the event that killed them.
	crewKills map[string]events.Event
	// story sums this command's storyteller karma by the story's roll, and
	// storyAt is each story's first grant; told lists the stories whose
	// karma earlier commands gave.
	story   map[string]int
	storyAt map[string]events.Event
	told    map[string]bool
	// medicked maps each medic's check that healed to the patient it
	// healed: one check treats one patient (a heal of several patients
	// holds one check each).
	medicked map[string]string
}

// WorldOptions shape a replay that streams a long log.
type WorldOptions struct {
	// Lookup, when set, reads an event back by its seq. The world then
	// keeps no roll payloads: a re-roll reads the roll it replaces back.
	Lookup func(seq int64) (events.Event, error)
	// TrimLedgers keeps each XP ledger's totals only, not its entries.
	TrimLedgers bool
	// NoLedgers folds no XP ledgers: Ledgers stays empty. The replay's
	// checks never read them; a caller that folds the ledgers itself
	// (verify, which holds them against the sheets) need not pay for
	// them twice.
	NoLedgers bool
}

// NewWorld returns an empty world to fold a log into, event by event,
// with Step, then Finish.
func NewWorld(opts WorldOptions) *World {
	w := &World{Sheets: map[string]*Sheet{}, Ledgers: map[string]*Ledger{}, Ships: map[string]*Ship{}, DetailedShips: map[string]*DetailedShip{},
		rolls: newRollIndex(), streamIdx: map[string]int32{}, rerolledBy: map[string]string{}, told: map[string]bool{},
		paid: map[string]events.Event{}, rerolled: map[string]bool{}, shipKills: map[string]int64{}, crewKills: map[string]events.Event{}, story: map[string]int{}, storyAt: map[string]events.Event{}, medicked: map[string]string{},
		lookup: opts.Lookup, trim: opts.TrimLedgers, noLedgers: opts.NoLedgers}
	if w.lookup == nil {
		w.payloads = map[string]*events.RollMade{}
		w.attacks = map[string]*events.AttackMade{}
		w.actions = map[string]events.Payload{}
	}
	return w
}

// Replay folds log (every event, in seq order), skipping events for which
// skip returns true (commands out of effect), and re-checks each event.
// Events of the commands stream (undo and redo) are not folded: the caller
// decides with skip what is in effect.
func Replay(log []events.Event, skip func(events.Event) bool) *World {
	w := NewWorld(WorldOptions{})
	for _, e := range log {
		w.Step(e, skip != nil && skip(e))
	}
	w.Finish()
	return w
}

// Step folds the next event of the log, in seq order, and re-checks it;
// skip says the event's command is out of effect. Events of the commands
// stream are not folded.
func (w *World) Step(e events.Event, skip bool) {
	if e.Stream == events.CommandsStream || skip {
		return
	}
	p, err := events.Decode(e)
	w.step(e, p, err)
}

// Prepared is an event's payload decoded, and the checks of it that need
// nothing but the payload and the campaign's edition made, ahead of its
// place in the fold: a Preparer makes it on any goroutine, so that a
// replay can decode and check on other cores while one folds in seq order
// (StepPrepared).
type Prepared struct {
	p   events.Payload
	err error
	// edition is the edition the checks below assumed: StepPrepared
	// uses them only when it is the campaign's.
	edition rules.Edition
	// roll is checkRoll's verdict on a roll that replaces none, when
	// rolled is true.
	roll   string
	rolled bool
	// expr and exprErr are the roll's expression parsed, when parsed
	// is true.
	expr    rules.Expr
	exprErr error
	parsed  bool
}

// Preparer prepares events for StepPrepared, remembering what the rules
// gave for the parts that rolls share (expressions, skills, checks with
// the same faces). It is not safe for concurrent use: give each goroutine
// its own. The zero Preparer is ready to use.
type Preparer struct {
	cache rulesCache
}

// Prepare decodes e's payload and, when ed is the campaign's edition (a
// guess is fine: "" for none), checks what can be checked of it alone: a
// roll's dice, target and outcome against its recorded standing.
func (pp *Preparer) Prepare(e events.Event, ed rules.Edition) Prepared {
	pr := Prepared{edition: ed}
	pr.p, pr.err = events.Decode(e)
	if r, ok := pr.p.(*events.RollMade); ok && pr.err == nil {
		pr.expr, pr.exprErr = pp.cache.parseExpr(r.Expr)
		pr.parsed = true
		if ed != "" && r.Rerolls == "" {
			pr.roll, pr.rolled = checkRoll(&pp.cache, ed, r, nil), true
		}
	}
	return pr
}

// Payload returns the event's payload and the error decoding it, as
// events.Decode gives them.
func (pr *Prepared) Payload() (events.Payload, error) { return pr.p, pr.err }

// StepPrepared is Step for an event that a Preparer prepared (pr nil: it
// is decoded here). It folds and checks exactly as Step does.
func (w *World) StepPrepared(e events.Event, pr *Prepared, skip bool) {
	if e.Stream == events.CommandsStream || skip {
		return
	}
	if pr == nil {
		pr = &Prepared{}
		pr.p, pr.err = events.Decode(e)
	}
	w.pre = pr
	w.step(e, pr.p, pr.err)
	w.pre = nil
}

// checkFreshRoll is checkRoll(ed, p, nil), as Prepare made it when it could.
func (w *World) checkFreshRoll(ed rules.Edition, p *events.RollMade) string {
	if pr := w.pre; pr != nil && pr.rolled && pr.edition == ed && pr.p == events.Payload(p) {
		return pr.roll
	}
	return checkRoll(&w.cache, ed, p, nil)
}

// parseExpr is rules.ParseExpr(p.Expr), as Prepare made it when it could.
func (w *World) parseExpr(p *events.RollMade) (rules.Expr, error) {
	if pr := w.pre; pr != nil && pr.parsed && pr.p == events.Payload(p) {
		return pr.expr, pr.exprErr
	}
	return w.cache.parseExpr(p.Expr)
}

// rulesCache remembers what the rules gave for the parts of rolls, which
// repeat from roll to roll: expressions parsed, skills looked up, checks
// resolved from the same standing and faces. The rules are pure functions,
// so a remembered answer is the answer. Each map is emptied when it grows
// past rulesCacheSize, which a campaign's rolls hardly reach. Not safe for
// concurrent use.
type rulesCache struct {
	exprs  map[string]exprResult
	skills map[skillKey]skillResult
	// checks is keyed by checkKey's bytes, key the buffer they are
	// written to.
	checks map[string]checkResult
	key    []byte
}

const rulesCacheSize = 4096

type exprResult struct {
	expr rules.Expr
	err  error
}

type skillKey struct {
	ed   rules.Edition
	name string
}

type skillResult struct {
	skill rules.Skill
	err   error
}

// checkKey appends to dst the bytes that stand for a check's input and
// faces: each string and each number, its length or sign first, so that
// different inputs never give the same bytes.
func checkKey(dst []byte, in rules.CheckInput, faces []int) []byte {
	for _, s := range [...]string{string(in.Edition), string(in.Expr.Attribute), in.Expr.Skill, string(in.Expr.Mode), in.SkillName} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	for _, n := range [...]int{in.Expr.Dice, in.AttributeValue, in.Restriction, in.SkillLevel, in.Curses, len(faces)} {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, f := range faces {
		dst = binary.AppendVarint(dst, int64(f))
	}
	return dst
}

type checkResult struct {
	o    rules.CheckOutcome
	used int
	err  error
}

// remember stores v under k in *m, made or emptied as needed.
func remember[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil || len(*m) >= rulesCacheSize {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// parseExpr is rules.ParseExpr(s).
func (c *rulesCache) parseExpr(s string) (rules.Expr, error) {
	if r, ok := c.exprs[s]; ok {
		return r.expr, r.err
	}
	expr, err := rules.ParseExpr(s)
	remember(&c.exprs, strings.Clone(s), exprResult{expr, err})
	return expr, err
}

// lookupSkill is rules.LookupSkill(ed, name).
func (c *rulesCache) lookupSkill(ed rules.Edition, name string) (rules.Skill, error) {
	k := skillKey{ed, name}
	if r, ok := c.skills[k]; ok {
		return r.skill, r.err
	}
	sk, err := rules.LookupSkill(ed, name)
	k.name = strings.Clone(name)
	remember(&c.skills, k, skillResult{sk, err})
	return sk, err
}

// resolveCheck is rules.ResolveCheck(in, rules.NewGivenFaces(faces)), and
// how many of the faces it used.
func (c *rulesCache) resolveCheck(in rules.CheckInput, faces []int) (rules.CheckOutcome, int, error) {
	c.key = checkKey(c.key[:0], in, faces)
	if r, ok := c.checks[string(c.key)]; ok {
		return r.o, r.used, r.err
	}
	given := rules.NewGivenFaces(faces)
	o, err := rules.ResolveCheck(in, given)
	used := len(faces) - given.Remaining()
	remember(&c.checks, string(c.key), checkResult{o, used, err})
	return o, used, err
}

// step folds and re-checks an event in effect. The payload is decoded
// once for the checks; the sheets and ledgers decode what they fold.
func (w *World) step(e events.Event, p events.Payload, err error) {
	if e.CommandID != w.command {
		w.endCommand()
		w.command = e.CommandID
		// The per-command state is emptied, not made anew: most commands
		// use none of it, and a long log has many commands.
		emptyMap(w.paid)
		emptyMap(w.rerolled)
		emptyMap(w.shipKills)
		emptyMap(w.crewKills)
		emptyMap(w.story)
		emptyMap(w.storyAt)
		w.contestReroll = nil
	}
	problem := w.stampProblem(e, p, err, true)
	if pr := w.apply(e, p, err); pr != "" {
		problem = pr
	} else if problem == "" {
		problem = w.stampProblem(e, p, err, false)
	}
	if pr := w.foldTurns(e, p, err); pr != "" && problem == "" {
		problem = pr
	}
	if problem != "" {
		w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type, Problem: problem})
	}
}

// emptyMap empties m, when it holds anything.
func emptyMap[M ~map[K]V, K comparable, V any](m M) {
	if len(m) > 0 {
		clear(m)
	}
}

// Finish ends the replay: the last command's checks that need all its
// events are made.
func (w *World) Finish() { w.endCommand() }

// addRoll indexes a roll or a contest (p nil) in effect.
func (w *World) addRoll(e events.Event, p *events.RollMade) {
	i, ok := w.streamIdx[e.Stream]
	if !ok {
		// A copy: the event's strings may share one buffer with its
		// whole row, which the index must not hold on to.
		stream := strings.Clone(e.Stream)
		i = int32(len(w.streams))
		w.streams = append(w.streams, stream)
		w.streamIdx[stream] = i
	}
	w.rolls.set(e.ID, rollRef{seq: e.Seq, stream: i})
	if p != nil && w.payloads != nil {
		w.payloads[e.ID] = p
	}
}

// rollIndex maps the event IDs of rolls to rollRefs. A long log has
// hundreds of thousands of rolls, and a hash map of them cost a replay
// more than any check: the index is instead a list in the order the rolls
// come, which is the order of their IDs (ULIDs of 26 characters, which
// sort by the time they were made), searched by halves. The list is kept
// in chunks, so that it grows without being copied. An ID that does not
// come after the last one listed (a clock set back, a hand-edited log)
// goes to a map instead, and so does an ID of another length.
type rollIndex struct {
	chunks [][]rollEntry
	other  map[string]rollRef
}

// rollChunk is the length of a chunk of the roll index.
const rollChunk = 4096

// rollEntry is a roll's ID and its rollRef.
type rollEntry struct {
	id     ulidKey
	stream int32
	seq    int64
}

// ulidKey is an event ID of 26 bytes.
type ulidKey [26]byte

// keyOf returns id as a ulidKey, if it has 26 bytes.
func keyOf(id string) (k ulidKey, ok bool) {
	if len(id) != len(k) {
		return k, false
	}
	copy(k[:], id)
	return k, true
}

func newRollIndex() rollIndex {
	return rollIndex{other: map[string]rollRef{}}
}

func (x *rollIndex) get(id string) (rollRef, bool) {
	// An ID in the map was set after any the list has.
	if ref, ok := x.other[id]; ok {
		return ref, true
	}
	k, ok := keyOf(id)
	if !ok {
		return rollRef{}, false
	}
	// The last chunk whose first ID is k or before.
	c := sort.Search(len(x.chunks), func(i int) bool { return bytes.Compare(x.chunks[i][0].id[:], k[:]) > 0 }) - 1
	if c < 0 {
		return rollRef{}, false
	}
	chunk := x.chunks[c]
	i, found := slices.BinarySearchFunc(chunk, k, func(en rollEntry, k ulidKey) int { return bytes.Compare(en.id[:], k[:]) })
	if !found {
		return rollRef{}, false
	}
	return rollRef{seq: chunk[i].seq, stream: chunk[i].stream}, true
}

func (x *rollIndex) set(id string, ref rollRef) {
	if k, ok := keyOf(id); ok {
		var last *rollEntry
		if n := len(x.chunks); n > 0 {
			last = &x.chunks[n-1][len(x.chunks[n-1])-1]
		}
		switch {
		case last == nil || bytes.Compare(k[:], last.id[:]) > 0:
			if n := len(x.chunks); n == 0 || len(x.chunks[n-1]) == rollChunk {
				x.chunks = append(x.chunks, make([]rollEntry, 0, rollChunk))
			}
			n := len(x.chunks) - 1
			x.chunks[n] = append(x.chunks[n], rollEntry{id: k, stream: ref.stream, seq: ref.seq})
			return
		case last.id == k:
			last.stream, last.seq = ref.stream, ref.seq
			return
		}
	}
	x.other[strings.Clone(id)] = ref
}

// seq returns the seq of the roll id (0 when there is none).
func (x *rollIndex) seq(id string) int64 {
	ref, _ := x.get(id)
	return ref.seq
}

// roll returns what a re-roll needs of the roll rollID, if it is one in
// effect; a problem reading it back is returned as its text.
func (w *World) roll(rollID string) (*rollRecord, bool, string) {
	ref, ok := w.rolls.get(rollID)
	if !ok {
		return nil, false, ""
	}
	rec := &rollRecord{stream: w.streams[ref.stream], rerolledBy: w.rerolledBy[rollID]}
	if w.payloads != nil {
		rec.roll = w.payloads[rollID]
		return rec, true, ""
	}
	e, err := w.lookup(ref.seq)
	if err != nil {
		return nil, true, fmt.Sprintf("re-roll of %s, which cannot be read back: %v", rollID, err)
	}
	if e.Type == events.TypeRollMade {
		p, err := events.Decode(e)
		if err != nil {
			return nil, true, err.Error()
		}
		rec.roll = p.(*events.RollMade)
	}
	return rec, true, ""
}

// stampProblem checks an event's game-time stamp against the clock folded
// so far. Events that start something (an adventure, a day, an encounter,
// or end an adventure) carry the time after them, checked once applied
// (before is false); every other event carries the time it happened in,
// checked before it is applied.
func (w *World) stampProblem(e events.Event, p events.Payload, decodeErr error, before bool) string {
	after := false
	switch e.Type {
	case events.TypeAdventureStarted, events.TypeAdventureEnded, events.TypeDayAdvanced, events.TypeEncounterStarted:
		after = true
	}
	if after == before || w.Campaign.Version == 0 || decodeErr != nil {
		return ""
	}
	g, stamped := events.GameTimeOf(p)
	if !stamped {
		return "" // recorded before game time was tracked (or a type with no stamp)
	}
	if now := w.Campaign.Now(); g != now {
		return fmt.Sprintf("stamped %s, but the campaign was at %s", g, now)
	}
	return ""
}

// ViolatingCommands returns the IDs of commands with a violation, in log
// order.
func (w *World) ViolatingCommands() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range w.Violations {
		if !seen[v.CommandID] {
			seen[v.CommandID] = true
			out = append(out, v.CommandID)
		}
	}
	return out
}

// endCommand checks what can only be judged once a command's events are
// all seen: every karma point or wish spent on a re-roll bought one.
func (w *World) endCommand() {
	if w.command == "" {
		return
	}
	ids := make([]string, 0, len(w.paid))
	for rollID := range w.paid {
		ids = append(ids, rollID)
	}
	sort.Strings(ids)
	for _, rollID := range ids {
		if e := w.paid[rollID]; !w.rerolled[rollID] {
			w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type,
				Problem: fmt.Sprintf("%s was spent on a re-roll of %s, but the command re-rolls nothing", e.Type, rollID)})
		}
	}
	for id, seq := range w.shipKills {
		if c, ok := w.Sheets[id]; ok && c.Alive() {
			w.Violations = append(w.Violations, Violation{Seq: seq, CommandID: w.command, Type: events.TypeShipHit,
				Problem: fmt.Sprintf("%s was aboard a section the hit destroyed, but did not die", c.Name)})
		}
	}
	killed := make([]string, 0, len(w.crewKills))
	for id := range w.crewKills {
		killed = append(killed, id)
	}
	sort.Strings(killed)
	for _, id := range killed {
		if c, e := w.Sheets[id], w.crewKills[id]; c != nil && c.Alive() {
			w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: w.command, Type: e.Type,
				Problem: fmt.Sprintf("%s was killed aboard a detailed ship, but is not dead on the sheet", c.Name)})
		}
	}
	// 2020, 2021 "Storyteller": "distribute one karma point per
	// Storytelling level to the party": the grants of one story total the
	// level its roll recorded.
	rolls := make([]string, 0, len(w.story))
	for rollID := range w.story {
		rolls = append(rolls, rollID)
		w.told[rollID] = true
	}
	sort.Strings(rolls)
	for _, rollID := range rolls {
		e := w.storyAt[rollID]
		rec, ok, _ := w.roll(rollID)
		switch {
		case !ok || rec.roll == nil:
			w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type,
				Problem: fmt.Sprintf("storyteller karma for %s, which is not a storytelling roll in effect", rollID)})
		case rec.roll.Outcome != "pass":
			w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type,
				Problem: "storyteller karma after a failed storytelling roll"})
		case w.story[rollID] != rec.roll.SkillLevel:
			w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type,
				Problem: fmt.Sprintf("a story gives one karma point per Storyteller level (%d) in all, but %d were granted", rec.roll.SkillLevel, w.story[rollID])})
		}
	}
	if e := w.contestReroll; e != nil && len(w.paid) == 0 {
		w.Violations = append(w.Violations, Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type,
			Problem: "a contest re-rolled with no karma or wish spent on it"})
	}
}

// characterOf returns the sheet of a character's or a foe's stream, or a
// problem.
func (w *World) characterOf(e events.Event) (*Sheet, string) {
	id, ok := strings.CutPrefix(e.Stream, events.CharacterStreamPrefix)
	foe := false
	if !ok {
		id, foe = strings.CutPrefix(e.Stream, events.FoeStreamPrefix)
	}
	if !ok && !foe {
		return nil, fmt.Sprintf("%s on stream %q, which is not a character's or a foe's", e.Type, e.Stream)
	}
	s, ok := w.Sheets[id]
	if !ok || s.Foe != foe {
		return nil, fmt.Sprintf("%s for a character that does not exist (stream %s)", e.Type, e.Stream)
	}
	if s.Removed {
		return nil, fmt.Sprintf("%s for foe %s, who was taken off the roster", e.Type, s.Name)
	}
	return s, ""
}

// apply checks one event against the state before it, then folds it. It
// returns the problem, or "" when the rules would have produced the event.
func (w *World) apply(e events.Event, p events.Payload, decodeErr error) string {
	if decodeErr != nil {
		return decodeErr.Error()
	}
	if c, ok := p.(*events.CampaignCreated); ok {
		if e.Stream != events.CampaignStream {
			return fmt.Sprintf("campaign.created on stream %q", e.Stream)
		}
		if w.Campaign.Version != 0 {
			return "a second campaign.created"
		}
		if _, err := rules.ParseEdition(c.Edition); err != nil {
			return err.Error()
		}
		if err := w.Campaign.Apply(e); err != nil {
			return err.Error()
		}
		return ""
	}
	if w.Campaign.Version == 0 {
		return "an event before campaign.created"
	}
	ed := w.Campaign.Edition
	switch p := p.(type) {
	case *events.PlotwordAcquired:
		if e.Stream != events.CampaignStream {
			return fmt.Sprintf("plotword.acquired on stream %q, not the campaign's", e.Stream)
		}
		if seq, ok := w.Campaign.Plotwords[PlotwordKey(p.Word)]; ok {
			return fmt.Sprintf("plotword %s was already acquired at seq %d", p.Word, seq)
		}
		if err := w.Campaign.Apply(e); err != nil {
			return err.Error()
		}
		return ""
	case *events.NoteRecorded:
		if e.Stream != events.CampaignStream {
			return fmt.Sprintf("note.recorded on stream %q, not the campaign's", e.Stream)
		}
		if err := w.Campaign.Apply(e); err != nil {
			return err.Error()
		}
		return ""
	case *events.InitiativeRolled, *events.InitiativeSurprise, *events.InitiativeStalker, *events.TurnEnded, *events.TurnOverruled:
		return w.turnEvent(e, p)
	case *events.CharacterCreated:
		return w.characterCreated(e, ed, p)
	case *events.FoeAdded:
		return w.foeAdded(e, ed, p)
	case *events.AdventureStarted, *events.AdventureEnded, *events.DayAdvanced, *events.EncounterStarted, *events.EncounterEnded, *events.PartySlept:
		if e.Stream != events.CampaignStream {
			return fmt.Sprintf("%s on stream %q, not the campaign's", e.Type, e.Stream)
		}
		problem := checkClock(&w.Campaign, p)
		if ms := w.Roster.EncounterFoes(); len(ms) > 0 && problem == "" {
			if _, ended := p.(*events.EncounterEnded); ended {
				problem = fmt.Sprintf("encounter %d ended with its foe %s still on the roster", w.Campaign.Encounter, ms[0].Name)
			}
		}
		if err := w.Campaign.Apply(e); err != nil && problem == "" {
			problem = err.Error()
		}
		return problem
	case *events.RollMade:
		if e.Stream == events.DiceStream {
			if p.CharacterID != "" || p.Character != "" {
				return fmt.Sprintf("a roll of %s (%s) on the dice stream", p.Character, p.CharacterID)
			}
			problem := w.checkFreshRoll(ed, p)
			w.addRoll(e, p)
			return problem
		}
	}
	switch p.(type) {
	case *events.ShipTemplatesAdded, *events.DetailedShipBuilt, *events.DetailedShipHit, *events.DetailedShipRepaired, *events.DetailedTurnEnded:
		return w.applyDetailed(e, p)
	}
	if strings.HasPrefix(e.Stream, events.ShipStreamPrefix) {
		return w.applyShip(e, ed, p)
	}
	if e.Stream == events.SharesStream {
		return w.applyShare(e, p)
	}
	if e.Stream == events.DogfightStream {
		return w.applyDogfight(e)
	}
	s, problem := w.characterOf(e)
	if problem != "" {
		return problem
	}
	if s.Foe {
		problem = foeCheck(e, s, p)
	}
	if problem == "" {
		problem = w.check(e, ed, s, p)
	}
	if e.Type == events.TypeFoeRemoved {
		if err := w.Roster.Apply(e); err != nil && problem == "" {
			problem = err.Error()
		}
	}
	if err := s.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	if l := w.Ledgers[s.ID]; l != nil {
		if err := l.Apply(e, nil); err != nil && problem == "" {
			problem = err.Error()
		}
		if w.trim {
			l.Entries = l.Entries[:0]
		}
	}
	return problem
}

// foeCheck refuses on a foe's stream what only the party has: XP, karma,
// wishes, curses, rest.
func foeCheck(e events.Event, s *Sheet, p events.Payload) string {
	switch p.(type) {
	case *events.XPAwarded, *events.XPSpent, *events.KarmaGranted, *events.KarmaSpent, *events.KarmaExpired,
		*events.WishGranted, *events.WishSpent, *events.CurseAdded, *events.CurseLifted, *events.RestTaken, *events.CharacterCreated:
		return fmt.Sprintf("%s for foe %s; foes have no XP, karma, wishes or curses", e.Type, s.Name)
	}
	return ""
}

// foeAdded checks a foe's arrival: his own stream, a free name, the
// edition's skills and attributes of 1 or more (foes are not held to the
// creation rules).
func (w *World) foeAdded(e events.Event, ed rules.Edition, p *events.FoeAdded) string {
	if e.Stream != events.FoeStream(p.FoeID) {
		return fmt.Sprintf("foe %s added on stream %s", p.FoeID, e.Stream)
	}
	if _, ok := w.Sheets[p.FoeID]; ok {
		return fmt.Sprintf("foe %s added twice", p.FoeID)
	}
	var problem string
	if m, ok := w.Roster.FindAny(p.Name); ok {
		problem = fmt.Sprintf("a character or foe named %q already exists (seq %d)", m.Name, m.Seq)
	}
	if rules.Edition(p.Edition) != ed && problem == "" {
		problem = fmt.Sprintf("added for edition %s in a %s campaign", p.Edition, ed)
	}
	if p.Encounter != 0 && (!w.Campaign.InEncounter || p.Encounter != w.Campaign.Encounter) && problem == "" {
		problem = fmt.Sprintf("foe %s belongs to encounter %d, which is not under way", p.Name, p.Encounter)
	}
	if err := rules.ValidateFoe(p.Name, rules.Attributes{ST: p.Attributes.ST, DX: p.Attributes.DX, IQ: p.Attributes.IQ}); err != nil && problem == "" {
		problem = err.Error()
	}
	for _, sk := range p.Skills {
		if _, err := rules.LookupSkill(ed, sk.Skill); err != nil && problem == "" {
			problem = err.Error()
		}
	}
	s := &Sheet{}
	if err := s.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	w.Sheets[p.FoeID] = s
	if err := w.Roster.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	return problem
}

func (w *World) characterCreated(e events.Event, ed rules.Edition, p *events.CharacterCreated) string {
	if e.Stream != events.CharacterStream(p.CharacterID) {
		return fmt.Sprintf("character %s created on stream %s", p.CharacterID, e.Stream)
	}
	if _, ok := w.Sheets[p.CharacterID]; ok {
		return fmt.Sprintf("character %s created twice", p.CharacterID)
	}
	if m, ok := w.Roster.FindAny(p.Name); ok {
		return fmt.Sprintf("a character or foe named %q already exists (seq %d)", m.Name, m.Seq)
	}
	var problem string
	if rules.Edition(p.Edition) != ed {
		problem = fmt.Sprintf("created for edition %s in a %s campaign", p.Edition, ed)
	}
	skills := make([]rules.SkillLevel, 0, len(p.Skills))
	for _, sk := range p.Skills {
		s, err := rules.LookupSkill(ed, sk.Skill)
		if err != nil {
			problem = err.Error()
			continue
		}
		skills = append(skills, rules.SkillLevel{Skill: s, Level: sk.Level})
	}
	if err := rules.ValidateNewCharacter(ed, p.Name, rules.Attributes{ST: p.Attributes.ST, DX: p.Attributes.DX, IQ: p.Attributes.IQ}, skills); err != nil && problem == "" {
		problem = err.Error()
	}
	s := &Sheet{}
	if err := s.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	w.Sheets[p.CharacterID] = s
	if !w.noLedgers {
		w.Ledgers[p.CharacterID] = &Ledger{}
	}
	if err := w.Roster.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	return problem
}

// check re-decides an event of a character's stream with the rules.
func (w *World) check(e events.Event, ed rules.Edition, s *Sheet, p events.Payload) string {
	switch p := p.(type) {
	case *events.XPAwarded:
		if p.Amount < 1 {
			return fmt.Sprintf("an award of %d XP", p.Amount)
		}
		// 2021 "Experience Points": a plotword gives each character one XP.
		if p.Plotword != "" && p.Amount != 1 {
			return fmt.Sprintf("an award of %d XP for plotword %s, which gives 1", p.Amount, p.Plotword)
		}
		if _, ok := w.Campaign.Plotwords[PlotwordKey(p.Plotword)]; p.Plotword != "" && !ok {
			return fmt.Sprintf("an award for plotword %s, which the party has not acquired", p.Plotword)
		}
	case *events.KarmaGranted:
		if p.Amount < 1 {
			return fmt.Sprintf("a grant of %d karma", p.Amount)
		}
		if p.StorytellerID != "" && p.RollID != "" {
			if w.told[p.RollID] {
				return fmt.Sprintf("storyteller karma for the story of %s, whose karma was given by its own command", p.RollID)
			}
			if _, ok := w.storyAt[p.RollID]; !ok {
				w.storyAt[p.RollID] = e
			}
			w.story[p.RollID] += p.Amount
		}
	case *events.WishGranted:
		if p.Amount < 1 {
			return fmt.Sprintf("a grant of %d wishes", p.Amount)
		}
	case *events.CurseAdded:
		if p.Levels < 1 {
			return fmt.Sprintf("%d curse levels", p.Levels)
		}
	case *events.XPSpent:
		return checkSpend(ed, s, p, w.Campaign.BetweenAdventures())
	case *events.KarmaSpent:
		if s.Karma < p.Amount {
			return fmt.Sprintf("%s spent %d karma with %d", s.Name, p.Amount, s.Karma)
		}
		if p.For == "xp" {
			// 2010 "Karma/Wish": "a karma point as one XP".
			if err := rules.KarmaToXP(ed, s.Name, s.Karma, p.Amount); err != nil {
				return err.Error()
			}
			return ""
		}
		if p.Amount != 1 {
			return fmt.Sprintf("%d karma spent at once; a re-roll costs one", p.Amount)
		}
		return w.pay(e, s, p.For, p.RollID, p.Which)
	case *events.WishSpent:
		if s.Wishes < 1 {
			return fmt.Sprintf("%s spent a wish with none", s.Name)
		}
		if p.For == "revive" {
			return ""
		}
		if p.For == "reroll" && ed != rules.Edition2010 {
			return fmt.Sprintf("a wish spent as karma in edition %s (2010 only)", ed)
		}
		return w.pay(e, s, p.For, p.RollID, p.Which)
	case *events.DamageWithdrawn:
		// Only in the command that re-rolled the attack, and never more
		// than the target has.
		if !w.rerolled[p.AttackID] {
			return fmt.Sprintf("points of attack %s withdrawn, but the command re-rolls nothing of it", p.AttackID)
		}
		if p.Damage < 0 || p.Fatigue < 0 || p.Damage > s.Damage || p.Fatigue > s.Fatigue {
			return fmt.Sprintf("%d damage and %d fatigue withdrawn; %s had %d and %d", p.Damage, p.Fatigue, s.Name, s.Damage, s.Fatigue)
		}
	case *events.HealingWithdrawn:
		if !w.rerolled[p.RollID] {
			return fmt.Sprintf("the healing of medic's check %s withdrawn, but the command re-rolls nothing of it", p.RollID)
		}
		if p.Points < 0 || p.Points > s.Combat.Healed || !slices.Contains(s.Combat.TreatedBy, p.MedicID) {
			return fmt.Sprintf("%d healing withdrawn from %s, whom that medic had not healed so much in this combat", p.Points, s.Name)
		}
	case *events.DamageTaken:
		if p.Dealt < 1 || p.Damage < 0 || p.Fatigue < 0 || p.Damage+p.Fatigue != p.Dealt {
			return fmt.Sprintf("%d points dealt as %d damage and %d fatigue", p.Dealt, p.Damage, p.Fatigue)
		}
		if !s.Alive() {
			return fmt.Sprintf("%s took damage while dead", s.Name)
		}
	case *events.DamageHealed:
		if p.Points < 0 || p.Points > s.Damage || (p.Points == 0 && p.Reason != "medic") {
			return fmt.Sprintf("%d damage healed; %s had %d", p.Points, s.Name, s.Damage)
		}
		if !s.Alive() {
			return fmt.Sprintf("%s healed while dead", s.Name)
		}
		if p.Reason == "medic" && p.RollID != "" {
			return w.checkMedicHeal(ed, s, p)
		}
	case *events.FatigueRecovered:
		if p.Points < 1 || p.Points > s.Fatigue {
			return fmt.Sprintf("%d fatigue recovered; %s had %d", p.Points, s.Name, s.Fatigue)
		}
	case *events.CharacterRecovered:
		if p.Damage > s.Damage || p.Fatigue > s.Fatigue || p.Damage < 0 || p.Fatigue < 0 {
			return fmt.Sprintf("recovered %d damage and %d fatigue; %s had %d and %d", p.Damage, p.Fatigue, s.Name, s.Damage, s.Fatigue)
		}
	case *events.CharacterDied:
		if !s.Alive() {
			return fmt.Sprintf("%s died twice", s.Name)
		}
		if _, ok := w.shipKills[s.ID]; ok {
			return "" // aboard a section a hit destroyed, in this command
		}
		if _, ok := w.crewKills[s.ID]; ok {
			return "" // killed aboard a detailed ship, in this command
		}
		if dies, _ := rules.EndOfCombat(s.Body()); !dies {
			return fmt.Sprintf("%s died with %d damage against ST %d", s.Name, s.Damage, s.Attributes.ST)
		}
	case *events.AttackMade:
		problem := ""
		switch {
		case p.Rerolls != "" && p.Completes != "":
			problem = "an attack that both re-rolls and completes another"
		case p.Rerolls != "":
			problem = w.rerollAttack(e, p)
		case p.Completes != "":
			problem = w.completesAttack(e, p)
		}
		if problem == "" {
			problem = w.checkAttack(ed, s, p)
		}
		if problem == "" {
			problem = w.counterattack(e, p)
		}
		w.addRoll(e, nil)
		if w.attacks != nil {
			w.attacks[e.ID] = p
		}
		return problem
	case *events.RestTaken:
		before := 0
		if g, ok := p.GameTimeOf(); ok && s.Rest.Adventure == g.Adventure && s.Rest.UntilDay == p.UntilDay-p.Days {
			before = s.Rest.Days
		}
		cond := rules.RestConditions{StayedPut: p.StayedPut, Sheltered: p.Sheltered, Provisioned: p.Provisioned, NoStrenuous: p.NoStrenuous}
		healed, after, _ := rules.RestHealing(ed, s.Body(), p.Days, before, cond)
		if healed != p.Healed || after != p.RestedDays {
			return fmt.Sprintf("%s rested %d days healing %d (%d in a row); the %s rules give %d (%d in a row)", s.Name, p.Days, p.Healed, p.RestedDays, ed, healed, after)
		}
	case *events.SkillBonusSet:
		if b := rules.SkillBonus(p.Bonus); b != rules.BonusHit && b != rules.BonusDamage {
			return fmt.Sprintf("a standing skill bonus of %q (hit or damage)", p.Bonus)
		}
		if p.Bonus == string(s.StandingBonus()) || p.Previous != string(s.StandingBonus()) {
			return fmt.Sprintf("standing skill bonus set from %s to %s; the sheet had %s", p.Previous, p.Bonus, s.StandingBonus())
		}
	case *events.ItemEquipped:
		if p.Slot == "armor" {
			if _, err := rules.LookupArmor(ed, p.Item); err != nil {
				return err.Error()
			}
			for _, a := range s.ArmorItems {
				if p.Over && a.Item == p.Item {
					return fmt.Sprintf("%s put on a second %s", s.Name, a.Name)
				}
			}
			break
		}
		wp, err := rules.LookupWeapon(ed, p.Item)
		if err != nil {
			return err.Error()
		}
		if err := rules.CheckHeft(ed, s.Name, s.Attributes.ST, wp); err != nil {
			return err.Error()
		}
	case *events.CurseLifted:
		m, err := rules.ParseLiftMethod(p.Method)
		if err != nil {
			return err.Error()
		}
		lift, err := rules.LiftCurse(ed, s.Name, s.Curses, s.Attributes, s.Wishes, s.Karma, s.XP.Unspent, m)
		if err != nil {
			return err.Error()
		}
		if lift.Wishes != p.Wishes || lift.Karma != p.Karma || lift.XP != p.XP || string(lift.Attribute) != p.Attribute || lift.AttributeTo != p.To {
			return fmt.Sprintf("curse lifted by %s at a cost the %s rules do not give", p.Method, ed)
		}
	case *events.RollMade:
		if p.CharacterID != s.ID || p.Character != s.Name {
			return fmt.Sprintf("a roll of %s (%s) on %s's stream", p.Character, p.CharacterID, s.Name)
		}
		var orig *events.RollMade
		if p.Rerolls != "" {
			rec, problem := w.reroll(e, p.Rerolls, true)
			if problem != "" {
				return problem
			}
			orig = rec.roll
		} else if problem := w.conditionsMatch(s, p); problem != "" {
			return problem
		}
		problem := ""
		if orig == nil {
			problem = w.checkFreshRoll(ed, p)
		} else {
			problem = checkRoll(&w.cache, ed, p, orig)
		}
		w.addRoll(e, p)
		return problem
	case *events.ContestResolved:
		if p.Sides[0].CharacterID != s.ID && p.Sides[1].CharacterID != s.ID {
			return fmt.Sprintf("a contest of %s and %s on %s's stream", p.Sides[0].Name, p.Sides[1].Name, s.Name)
		}
		if p.Rerolls != "" {
			if _, problem := w.reroll(e, p.Rerolls, false); problem != "" {
				return problem
			}
			contest := e // a copy, so that only this branch allocates one
			w.contestReroll = &contest
		}
		w.addRoll(e, nil)
		if problem := w.checkContest(ed, e, p); problem != "" {
			return problem
		}
		return w.checkTackle(e, s, p)
	}
	return ""
}

// checkClock checks a campaign-stream event that moves game time against
// the clock before it.
func checkClock(c *Campaign, p events.Payload) string {
	switch p := p.(type) {
	case *events.AdventureStarted:
		if c.InAdventure {
			return fmt.Sprintf("adventure %d started while adventure %d was under way", p.Number, c.Adventure)
		}
		if p.Number != c.Adventure+1 {
			return fmt.Sprintf("adventure numbered %d after adventure %d", p.Number, c.Adventure)
		}
	case *events.AdventureEnded:
		if !c.InAdventure || c.InEncounter {
			return "an adventure ended while none was under way, or during an encounter"
		}
	case *events.DayAdvanced:
		if !c.InAdventure || c.InEncounter || p.From != c.Day || p.To <= p.From {
			return fmt.Sprintf("day %d→%d recorded on day %d", p.From, p.To, c.Day)
		}
	case *events.EncounterStarted:
		if !c.InAdventure || c.InEncounter || p.Number != c.Encounter+1 {
			return fmt.Sprintf("encounter %d started out of turn", p.Number)
		}
	case *events.EncounterEnded:
		if !c.InEncounter || p.Number != c.Encounter {
			return fmt.Sprintf("encounter %d ended, but it was not under way", p.Number)
		}
	}
	return ""
}

// pay records karma or a wish spent on a re-roll of rollID.
func (w *World) pay(e events.Event, s *Sheet, what, rollID, which string) string {
	if what != "reroll" {
		return fmt.Sprintf("%s for %q, which nothing buys", e.Type, what)
	}
	rec, ok, problem := w.roll(rollID)
	if problem != "" {
		return problem
	}
	if !ok {
		return fmt.Sprintf("re-roll of %s, which is not a roll in effect", rollID)
	}
	// An attack's dodge is the target's to re-roll, a dogfight's dice a
	// pilot's or gunner's and a detailed ship's rolls a crewman's: the
	// re-roll's check holds the payer to it.
	// A side's initiative die is any of its members' (turnEvent checks
	// the side).
	if rec.stream != e.Stream && which != "dodge" && rec.stream != events.DogfightStream && !strings.HasPrefix(rec.stream, events.ShipStreamPrefix) &&
		(which != "initiative" || rec.stream != events.TurnsStream) {
		return fmt.Sprintf("%s paid for a re-roll of someone else's roll %s", s.Name, rollID)
	}
	w.paid[rollID] = e
	return ""
}

// reroll checks that a re-roll replaces a roll in effect, not yet replaced,
// of the same stream, and (for rolls) paid for in the same command.
func (w *World) reroll(e events.Event, rollID string, mustPay bool) (*rollRecord, string) {
	rec, ok, problem := w.roll(rollID)
	switch {
	case problem != "":
		return nil, problem
	case !ok:
		return nil, fmt.Sprintf("re-roll of %s, which is not a roll in effect", rollID)
	case rec.stream != e.Stream:
		return nil, fmt.Sprintf("re-roll of %s, a roll of another stream", rollID)
	case rec.rerolledBy != "":
		return nil, fmt.Sprintf("re-roll of %s, which %s had already replaced", rollID, rec.rerolledBy)
	}
	if _, paid := w.paid[rollID]; mustPay && !paid {
		return nil, fmt.Sprintf("re-roll of %s with no karma or wish spent on it", rollID)
	}
	w.rerolledBy[rollID] = strings.Clone(e.ID)
	w.rerolled[rollID] = true
	return rec, ""
}

// conditionsMatch checks a fresh roll recorded the roller's standing as the
// sheet had it.
func (w *World) conditionsMatch(s *Sheet, p *events.RollMade) string {
	if p.Curses != s.Curses {
		return fmt.Sprintf("roll recorded %d curse levels; %s had %d", p.Curses, s.Name, s.Curses)
	}
	if p.Kind != "check" {
		return ""
	}
	expr, err := w.parseExpr(p)
	if err != nil || expr.Check == nil {
		return fmt.Sprintf("check %q does not parse as a check", p.Expr)
	}
	if v := s.Attributes.Get(expr.Check.Attribute); p.AttributeValue != v {
		return fmt.Sprintf("roll recorded %s %d; %s had %d", expr.Check.Attribute, p.AttributeValue, s.Name, v)
	}
	if p.Restriction != s.Restriction() {
		return fmt.Sprintf("roll recorded restriction %d; %s had %d", p.Restriction, s.Name, s.Restriction())
	}
	if expr.Check.Skill != "" {
		sk, err := w.cache.lookupSkill(s.Edition, expr.Check.Skill)
		if err != nil {
			return err.Error()
		}
		if lvl := s.SkillLevel(sk.Key); p.SkillLevel != lvl {
			return fmt.Sprintf("roll recorded %s %d; %s had %d", sk.NameIn(s.Edition), p.SkillLevel, s.Name, lvl)
		}
	}
	return ""
}

// checkRoll re-resolves a roll from its recorded faces and conditions
// (those of orig for a re-roll) and compares every recorded number,
// asking the rules through c.
func checkRoll(c *rulesCache, ed rules.Edition, p *events.RollMade, orig *events.RollMade) string {
	if rules.Edition(p.Edition) != ed {
		return fmt.Sprintf("roll decided by edition %s in a %s campaign", p.Edition, ed)
	}
	if orig != nil && (p.Expr != orig.Expr || p.AttributeValue != orig.AttributeValue || p.SkillLevel != orig.SkillLevel || p.Restriction != orig.Restriction || p.Curses != orig.Curses) {
		return "a re-roll under other conditions than the roll it replaces"
	}
	expr, err := c.parseExpr(p.Expr)
	if err != nil {
		return err.Error()
	}
	// remaining is how many faces the roll left unused.
	var remaining int
	switch {
	case expr.Check != nil:
		if p.Kind != "check" {
			return fmt.Sprintf("%s recorded as a %s roll", p.Expr, p.Kind)
		}
		in := rules.CheckInput{Edition: ed, Expr: *expr.Check, AttributeValue: p.AttributeValue, Restriction: p.Restriction, SkillLevel: p.SkillLevel, Curses: p.Curses}
		if expr.Check.Skill != "" {
			sk, err := c.lookupSkill(ed, expr.Check.Skill)
			if err != nil {
				return err.Error()
			}
			in.SkillName = sk.NameIn(ed)
		}
		o, used, err := c.resolveCheck(in, p.Faces)
		if err != nil {
			return err.Error()
		}
		remaining = len(p.Faces) - used
		outcome := "fail"
		if o.Pass {
			outcome = "pass"
		}
		if o.Lacking && len(p.Faces) != 0 {
			return "faces recorded for a check that fails without a roll"
		}
		if o.Total != p.Total || o.Target != p.Target || outcome != p.Outcome || o.Margin != p.Margin || o.Sum != p.Sum {
			return fmt.Sprintf("recorded %s %v = %d vs %d, %s; the rules give %d vs %d, %s", p.Expr, p.Faces, p.Total, p.Target, p.Outcome, o.Total, o.Target, outcome)
		}
		if p.Dice != expr.Check.Dice || p.Sides != 6 {
			return fmt.Sprintf("recorded %dd%d for %s", p.Dice, p.Sides, p.Expr)
		}
		if o.Probability != p.Probability {
			return fmt.Sprintf("recorded a %s chance for %s; the rules give %s", rules.FormatProbability(p.Probability), p.Expr, rules.FormatProbability(o.Probability))
		}
		if problem := sameModifiers(p, o.Modifiers); problem != "" {
			return problem
		}
	case expr.Dice != nil && p.Kind == "damage":
		faces := rules.NewGivenFaces(p.Faces)
		o, err := rules.ResolveDamage(ed, *expr.Dice, p.Curses, faces)
		if err != nil {
			return err.Error()
		}
		remaining = faces.Remaining()
		if o.Total != p.Total || o.Sum != p.Sum {
			return fmt.Sprintf("recorded %s %v = %d; the rules give %d", p.Expr, p.Faces, p.Total, o.Total)
		}
		if problem := sameModifiers(p, o.Modifiers); problem != "" {
			return problem
		}
	case expr.Dice != nil && p.Kind == "dice":
		faces := rules.NewGivenFaces(p.Faces)
		fs, err := faces.Roll(expr.Dice.Count, expr.Dice.Sides)
		if err != nil {
			return err.Error()
		}
		remaining = faces.Remaining()
		sum := 0
		for _, f := range fs {
			sum += f
		}
		if sum != p.Sum || sum+expr.Dice.Modifier != p.Total {
			return fmt.Sprintf("recorded %s %v = %d; the faces give %d", p.Expr, p.Faces, p.Total, sum+expr.Dice.Modifier)
		}
	default:
		return fmt.Sprintf("%s recorded as a %s roll", p.Expr, p.Kind)
	}
	if expr.Dice != nil && (p.Dice != expr.Dice.Count || p.Sides != expr.Dice.Sides) {
		return fmt.Sprintf("recorded %dd%d for %s", p.Dice, p.Sides, p.Expr)
	}
	if remaining != 0 {
		return fmt.Sprintf("%d faces recorded for %s", len(p.Faces), p.Expr)
	}
	return ""
}

// sameModifiers compares the modifiers a roll recorded with those the rules
// give.
func sameModifiers(p *events.RollMade, want []rules.Modifier) string {
	same := len(p.Modifiers) == len(want)
	for i := 0; same && i < len(want); i++ {
		m := p.Modifiers[i]
		same = m.Source == want[i].Source && m.Value == want[i].Value && m.Applies == want[i].Applies
	}
	if !same {
		return fmt.Sprintf("recorded modifiers %v for %s; the rules give %v", p.Modifiers, p.Expr, want)
	}
	return ""
}

// checkContest re-resolves a contest from its recorded faces and checks the
// party members' standing against their sheets.
func (w *World) checkContest(ed rules.Edition, e events.Event, p *events.ContestResolved) string {
	if rules.Edition(p.Edition) != ed {
		return fmt.Sprintf("contest decided by edition %s in a %s campaign", p.Edition, ed)
	}
	var sides [2]rules.ContestSide
	var rollers [2]rules.Roller
	for i, cs := range p.Sides {
		sides[i] = rules.ContestSide{Name: cs.Name, Attribute: rules.Attribute(cs.Attribute), AttributeValue: cs.Value, Restriction: cs.Restriction, SkillName: cs.Skill, SkillLevel: cs.SkillLevel, Curses: cs.Curses, Dice: cs.Dice}
		rollers[i] = rules.NewGivenFaces(cs.Faces)
		if cs.CharacterID == "" || p.Rerolls != "" {
			continue
		}
		s, ok := w.Sheets[cs.CharacterID]
		if !ok {
			return fmt.Sprintf("contest side %s is not a character", cs.Name)
		}
		if v := s.Attributes.Get(rules.Attribute(cs.Attribute)); v != cs.Value || s.Curses != cs.Curses || s.Restriction() != cs.Restriction {
			return fmt.Sprintf("contest recorded %s %s %d (curses %d); the sheet had %d (curses %d)", cs.Name, cs.Attribute, cs.Value, cs.Curses, v, s.Curses)
		}
	}
	o, err := rules.ResolveContest(ed, sides[0], sides[1], rollers[0], rollers[1])
	if err != nil {
		return err.Error()
	}
	if o.Winner != p.Winner || o.Outcome != p.Outcome {
		return fmt.Sprintf("contest recorded %s (winner %d); the rules give %s (winner %d)", p.Outcome, p.Winner, o.Outcome, o.Winner)
	}
	for i := range o.Sides {
		if o.Sides[i].Total != p.Sides[i].Total || o.Sides[i].Target != p.Sides[i].Target {
			return fmt.Sprintf("contest side %s recorded %d vs %d; the rules give %d vs %d", p.Sides[i].Name, p.Sides[i].Total, p.Sides[i].Target, o.Sides[i].Total, o.Sides[i].Target)
		}
	}
	return ""
}

// checkTackle re-decides a tackle from its contest and both sides' ST,
// and checks a tackle as a reaction as a counterattack is checked: on the
// tackler's stream only (the contest is on both sides').
func (w *World) checkTackle(e events.Event, s *Sheet, p *events.ContestResolved) string {
	t := p.Tackle
	if t == nil {
		return ""
	}
	if w.Campaign.Edition == rules.Edition2010 {
		return "a tackle in edition 2010, whose book has no tackle"
	}
	if p.Sides[0].CharacterID != t.TacklerID || p.Sides[1].CharacterID != t.FoeID || p.Sides[0].Attribute != string(rules.DX) || p.Sides[1].Attribute != string(rules.DX) {
		return fmt.Sprintf("a tackle of %s on %s that is no DX contest of the two", t.Tackler, t.Foe)
	}
	if want := rules.TackleOutcome(p.Winner == 0, t.TacklerST, t.FoeST); t.Outcome != want {
		return fmt.Sprintf("tackle recorded %q; the rules give %q", t.Outcome, want)
	}
	if p.Rerolls == "" {
		for _, x := range []struct {
			id string
			st int
		}{{t.TacklerID, t.TacklerST}, {t.FoeID, t.FoeST}} {
			if sh, ok := w.Sheets[x.id]; ok && sh.Attributes.Get(rules.ST) != x.st {
				return fmt.Sprintf("tackle recorded %s ST %d; the sheet had %d", sh.Name, x.st, sh.Attributes.Get(rules.ST))
			}
		}
	}
	if s.ID != t.TacklerID || t.Reacts == "" {
		return ""
	}
	if p.Rerolls != "" {
		// A re-roll keeps what it answers; the original was checked.
		return ""
	}
	return w.checkAnswer(e, answer{
		attack: t.Reacts, on: "a tackle in answer to %s", again: "a tackle in answer to %s", defender: t.Tackler,
		his:    func(x *events.AttackMade) bool { return x.TargetID == t.TacklerID && x.AttackerID == t.FoeID },
		notHis: fmt.Sprintf("%s tackles %s in answer to %s, which was no attack of his on him", t.Tackler, t.Foe, t.Reacts),
	})
}

// checkSpend re-prices an XP spend by the edition's rules at its moment.
func checkSpend(ed rules.Edition, s *Sheet, p *events.XPSpent, between bool) string {
	if rules.Edition(p.Edition) != ed {
		return fmt.Sprintf("spend priced by edition %s in a %s campaign", p.Edition, ed)
	}
	var price rules.Price
	var what string
	switch p.On {
	case "attribute":
		at, err := rules.ParseAttribute(p.Attribute)
		if err != nil {
			return err.Error()
		}
		what = string(at)
		if cur := s.Attributes.Get(at); p.From != cur {
			return fmt.Sprintf("%s raised from %d, but %s had %s %d", at, p.From, s.Name, at, cur)
		}
		if err := rules.CheckAttributeRaise(ed, s.Name, s.Attributes, at); err != nil {
			return err.Error()
		}
		price = rules.AttributePrice(ed, p.From)
	case "skill":
		sk, err := rules.LookupSkill(ed, p.Skill)
		if err != nil {
			return err.Error()
		}
		what = sk.NameIn(ed)
		if cur := s.SkillLevel(sk.Key); p.From != cur {
			return fmt.Sprintf("%s raised from %d, but %s had %d", what, p.From, s.Name, cur)
		}
		if err := rules.CheckSkillPurchase(ed, s.Name, sk, p.From, between); err != nil {
			return err.Error()
		}
		price = rules.SkillPrice(ed, p.From)
	default:
		return fmt.Sprintf("xp.spent on %q", p.On)
	}
	switch {
	case p.To != p.From+1:
		return fmt.Sprintf("%s raised %d→%d; a spend raises one level", what, p.From, p.To)
	case p.Price != price.XP || p.Formula != price.Formula:
		return fmt.Sprintf("%s %d→%d recorded at %d XP (%s); edition %s prices it %d XP (%s)", what, p.From, p.To, p.Price, p.Formula, ed, price.XP, price.Formula)
	case p.Price > s.XP.Unspent:
		return fmt.Sprintf("%s %d→%d costs %d XP, but %s had %d unspent", what, p.From, p.To, p.Price, s.Name, s.XP.Unspent)
	}
	return ""
}

// SheetsByName returns the world's sheets sorted by name.
func (w *World) SheetsByName() []*Sheet {
	out := make([]*Sheet, 0, len(w.Sheets))
	for _, s := range w.Sheets {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// applyShip checks and folds an event of a ship's stream.
func (w *World) applyShip(e events.Event, ed rules.Edition, p events.Payload) string {
	id := strings.TrimPrefix(e.Stream, events.ShipStreamPrefix)
	sh, exists := w.Ships[id]
	if b, ok := p.(*events.ShipBuilt); ok {
		if exists || b.ShipID != id {
			return fmt.Sprintf("ship %s built twice, or on stream %s", b.ShipID, e.Stream)
		}
		if other, taken := w.shipNamed(b.Name); taken {
			return fmt.Sprintf("a ship named %q already exists", other)
		}
		r, err := rules.ParseShipRecord(ed, b.Record)
		if err != nil {
			return err.Error()
		}
		// The ship is registered even when its cost is wrong, so its later
		// events are checked and not all reported missing.
		sh = &Ship{}
		w.Ships[id] = sh
		if err := sh.Apply(e); err != nil {
			return err.Error()
		}
		if cost := rules.ShipCost(r); cost.Total != b.Cost {
			return fmt.Sprintf("%s recorded at %d build points; the rules price it %d (%s)", b.Name, b.Cost, cost.Total, cost.Formula)
		}
		return ""
	} else if !exists {
		return fmt.Sprintf("%s for a ship that does not exist (stream %s)", e.Type, e.Stream)
	}
	var problem string
	switch p := p.(type) {
	case *events.ShipCrewed:
		c, ok := w.Sheets[p.CharacterID]
		i := sh.SectionIndex(p.Section)
		switch {
		case !ok:
			problem = fmt.Sprintf("crew %s is not a character", p.CharacterID)
		case !c.Alive():
			problem = fmt.Sprintf("%s crews %s while dead", c.Name, sh.Name)
		case i < 0 || sh.Sections[i].Destroyed:
			problem = fmt.Sprintf("%s boards %s's %s, which is destroyed or missing", c.Name, sh.Name, p.Section)
		}
	case *events.ShipHit:
		problem = w.checkShipHit(sh, p, e.Seq)
	case *events.ShipRepaired:
		if i := sh.SectionIndex(p.Section); i < 0 || p.Points < 1 || p.Points > sh.Sections[i].Damage {
			problem = fmt.Sprintf("%d points repaired on %s's %s", p.Points, sh.Name, p.Section)
		}
	case *events.ShipHitWithdrawn:
		if !w.rerolled[p.FireID] {
			problem = fmt.Sprintf("the hit of shot %s withdrawn, but the command re-rolls nothing of it", p.FireID)
		}
		for _, h := range p.Sections {
			if i := sh.SectionIndex(h.Section); i < 0 || len(h.Killed) > 0 || h.Points < 0 || h.Points > sh.Sections[i].Damage {
				problem = fmt.Sprintf("%d points of %s's %s withdrawn", h.Points, sh.Name, h.Section)
			}
		}
	}
	if err := sh.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	return problem
}

// checkShipHit re-applies a hit with the rules and compares where its
// points landed and who it killed.
func (w *World) checkShipHit(sh *Ship, p *events.ShipHit, seq int64) string {
	if len(p.Faces) > 0 {
		sum := 0
		for _, f := range p.Faces {
			sum += f
		}
		if sum != p.Rolled {
			return fmt.Sprintf("faces %v recorded as %d", p.Faces, p.Rolled)
		}
	}
	o, _, err := rules.ApplyShipHit(sh.ShipRecord(), sh.SectionStates(), p.Rolled, p.Inflicted)
	if err != nil {
		return err.Error()
	}
	if o.Shields != p.Shields || o.Inflicted != p.Inflicted || o.DIW != p.DIW || len(o.Applied) != len(p.Sections) {
		return fmt.Sprintf("a hit of %d recorded as %d inflicted past %d shields; the rules give %d past %d", p.Rolled, p.Inflicted, p.Shields, o.Inflicted, o.Shields)
	}
	for i, a := range o.Applied {
		got := p.Sections[i]
		if got.Section != a.Name || got.Points != a.Points || got.Destroyed != a.DestroyedNow {
			return fmt.Sprintf("hit recorded %d points on %s; the rules put %d on %s", got.Points, got.Section, a.Points, a.Name)
		}
		crew := []string{}
		if a.DestroyedNow {
			crew = sh.CrewIn(a.Index)
		}
		if strings.Join(crew, ",") != strings.Join(got.Killed, ",") {
			return fmt.Sprintf("%s's %s was destroyed with %v aboard, recorded %v", sh.Name, a.Name, crew, got.Killed)
		}
		for _, id := range got.Killed {
			w.shipKills[id] = seq
		}
	}
	return ""
}

// applyDogfight folds an event of the dogfight stream, checking that the
// craft it names exist, re-deciding every maneuver, and checking every
// shot's dice against its recorded outcome.
func (w *World) applyDogfight(e events.Event) string {
	p, err := events.Decode(e)
	if err != nil {
		return err.Error()
	}
	var named []events.DogfightShip
	switch p := p.(type) {
	case *events.DogfightStarted:
		if w.Dogfight.Active {
			return "a dogfight started while another was under way"
		}
		named = p.Ships
	case *events.DogfightManeuvered:
		named = []events.DogfightShip{p.Mover, p.Target}
	case *events.DogfightFired:
		named = []events.DogfightShip{p.Attacker, p.Target}
	case *events.DogfightExited:
		named = []events.DogfightShip{p.Ship}
	}
	if !w.Dogfight.Active && e.Type != events.TypeDogfightStarted {
		return fmt.Sprintf("%s with no dogfight under way", e.Type)
	}
	for _, n := range named {
		if _, ok := w.Ships[n.ShipID]; !ok {
			return fmt.Sprintf("%s names %s, which is not a ship", e.Type, n.Name)
		}
	}
	problem := ""
	// A re-roll is checked against the dogfight as it was before the
	// action it replaces.
	df := &w.Dogfight
	if re := dogfightReroll(p); re != "" {
		problem = w.rerollDogfight(e, p, re)
		if before, ok := w.Dogfight.Before(); ok {
			df = &before
		}
	}
	switch p := p.(type) {
	case *events.DogfightManeuvered:
		if pr := w.checkManeuver(df, p); problem == "" {
			problem = pr
		}
		if p.Contest != nil {
			w.addRoll(e, nil)
		}
	case *events.DogfightFired:
		if pr := w.checkFire(p); problem == "" {
			problem = pr
		}
		w.addRoll(e, nil)
	}
	if err := w.Dogfight.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	if w.actions != nil && (e.Type == events.TypeDogfightManeuvered || e.Type == events.TypeDogfightFired) {
		w.actions[e.ID] = p
	}
	return problem
}

// dogfightReroll returns the action a dogfight event re-rolls, if any.
func dogfightReroll(p events.Payload) string {
	switch p := p.(type) {
	case *events.DogfightManeuvered:
		return p.Rerolls
	case *events.DogfightFired:
		return p.Rerolls
	}
	return ""
}

// rerollDogfight checks a maneuver or shot that replaces the dogfight's
// latest: paid for by the pilot or gunner it names, whose dice alone
// changed.
func (w *World) rerollDogfight(e events.Event, p events.Payload, id string) string {
	paid, ok := w.paid[id]
	if _, problem := w.reroll(e, id, true); problem != "" {
		return problem
	}
	if id != w.Dogfight.Latest() {
		return fmt.Sprintf("a re-roll of %s, which is not the dogfight's latest maneuver or shot", id)
	}
	var by string
	switch p := p.(type) {
	case *events.DogfightManeuvered:
		by = p.RerolledBy
	case *events.DogfightFired:
		by = p.RerolledBy
	}
	if payer, _ := w.characterOf(paid); ok && (payer == nil || !strings.EqualFold(payer.Name, by)) {
		return fmt.Sprintf("a dogfight re-roll of %s's dice paid for by someone else", by)
	}
	var orig events.Payload
	if w.actions != nil {
		orig = w.actions[id]
	} else {
		e, err := w.lookup(w.rolls.seq(id))
		if err != nil {
			return fmt.Sprintf("re-roll of %s, which cannot be read back: %v", id, err)
		}
		if orig, err = events.Decode(e); err != nil {
			return err.Error()
		}
	}
	return sameDogfightDice(orig, p, by)
}

// sameDogfightDice checks a re-rolled dogfight action changed only the
// re-rolling pilot's or gunner's dice.
func sameDogfightDice(orig, p events.Payload, by string) string {
	switch p := p.(type) {
	case *events.DogfightManeuvered:
		o, ok := orig.(*events.DogfightManeuvered)
		if !ok || o.Contest == nil || p.Contest == nil || o.Mover != p.Mover || o.Target != p.Target {
			return "a re-rolled maneuver that is not the same pilot contest"
		}
		moved := 0
		for i, s := range p.Contest.Sides {
			if !slices.Equal(s.Faces, o.Contest.Sides[i].Faces) {
				if !strings.EqualFold(s.Name, by) {
					return fmt.Sprintf("a re-roll of %s's dice changed %s's", by, s.Name)
				}
				moved++
			}
			if s.Name != o.Contest.Sides[i].Name || s.Value != o.Contest.Sides[i].Value || s.SkillLevel != o.Contest.Sides[i].SkillLevel {
				return "a re-rolled pilot contest with other pilots than the one it replaces"
			}
		}
	case *events.DogfightFired:
		o, ok := orig.(*events.DogfightFired)
		if !ok || o.Attacker != p.Attacker || o.Target != p.Target || o.Kind != p.Kind || !strings.EqualFold(o.Gunner, by) || !strings.EqualFold(p.Gunner, by) {
			return "a re-rolled shot that is not the same gunner's shot"
		}
		switch p.Rerolled {
		case "hit":
		case "damage":
			if o.Damage == nil || !slices.Equal(o.Check.Faces, p.Check.Faces) {
				return "a re-roll of a shot's weapon dice that changed its check, or of a shot that rolled none"
			}
		default:
			return fmt.Sprintf("a shot re-rolled with rerolled %q (hit or damage)", p.Rerolled)
		}
	}
	return ""
}

// checkManeuver re-decides a maneuver from the recorded pilots and dice and
// the positions before it, and compares the positions it left.
func (w *World) checkManeuver(df *Dogfight, m *events.DogfightManeuvered) string {
	ed := w.Campaign.Edition
	mv, tg := w.Ships[m.Mover.ShipID], w.Ships[m.Target.ShipID]
	in := rules.ManeuverInput{Edition: ed, Mover: mv.Name, Target: tg.Name, MoverPos: df.Position(m.Mover.ShipID, m.Target.ShipID),
		MoverM: mv.Maneuver, TargetM: tg.Maneuver, Choice: rules.Choice(m.Chosen), MoverDIW: mv.DIW, TargetDIW: tg.DIW,
		TargetEngagedElsewhere: df.EngagedElsewhere(m.Target.ShipID, m.Mover.ShipID)}
	var contest *rules.ContestOutcome
	if m.Contest != nil {
		var sides [2]rules.ContestSide
		var dice [2]rules.Roller
		for i, cs := range m.Contest.Sides {
			sides[i] = rules.ContestSide{Name: cs.Name, Attribute: rules.DX, AttributeValue: cs.Value, Restriction: cs.Restriction,
				SkillName: cs.Skill, SkillLevel: cs.SkillLevel, Curses: cs.Curses, Dice: cs.Dice}
			dice[i] = rules.NewGivenFaces(cs.Faces)
		}
		in.MoverPilot, in.TargetPilot = sides[0], sides[1]
		c, err := rules.ResolvePilotContest(ed, sides[0], sides[1], in.MoverM, in.TargetM, dice[0], dice[1])
		if err != nil {
			return err.Error()
		}
		if c.Winner != m.Contest.Winner || c.Outcome != m.Contest.Outcome {
			return fmt.Sprintf("pilot contest recorded %s (winner %d); the rules give %s (winner %d)", m.Contest.Outcome, m.Contest.Winner, c.Outcome, c.Winner)
		}
		contest = &c
	}
	o, err := rules.ApplyManeuver(in, contest)
	if err != nil {
		return err.Error()
	}
	if df.SecondPursuer(m.Mover.ShipID, m.Target.ShipID, o.MoverPos, o.TargetPos) != "" {
		// A program roll that would make a second pursuer leaves the
		// positions as they were.
		o.MoverPos, o.TargetPos = in.MoverPos, in.MoverPos.Mirror()
	}
	if len(m.Positions) < 2 || m.Positions[0].Position != string(o.MoverPos) || m.Positions[1].Position != string(o.TargetPos) {
		return fmt.Sprintf("maneuver left %s %s; the rules give %s %s", mv.Name, m.Positions[0].Position, mv.Name, o.MoverPos)
	}
	return ""
}

// checkFire checks a shot's recorded dice: the gunner's faces add up to his
// total, the outcome follows from the total and the target, and on a hit
// the damage is the attacker's weapon dice. (The gunner's target number is
// taken as recorded.)
func (w *World) checkFire(f *events.DogfightFired) string {
	c := f.Check
	if c.Outcome == "no shot" {
		if f.Hit || f.PilotContest == nil || f.PilotContest.Winner == 0 {
			return "a firing run recorded with no shot, though its pilot check was not lost"
		}
		return ""
	}
	sum := 0
	for _, x := range c.Faces {
		if x < 1 || x > 6 {
			return fmt.Sprintf("shot recorded face %d", x)
		}
		sum += x
	}
	if sum != c.Sum || (c.Total <= c.Target) != f.Hit || (c.Outcome == "hit") != f.Hit {
		return fmt.Sprintf("shot recorded %v = %d vs %d as %s", c.Faces, c.Total, c.Target, c.Outcome)
	}
	if f.Hit {
		dice := w.Ships[f.Attacker.ShipID].ShipRecord().WeaponDice
		if f.Damage == nil || len(f.Damage.Faces) != dice {
			return fmt.Sprintf("a hit by %s recorded without its %dd6", f.Attacker.Name, dice)
		}
		total := 0
		for _, x := range f.Damage.Faces {
			if x < 1 || x > 6 {
				return fmt.Sprintf("weapon die recorded as %d", x)
			}
			total += x
		}
		if total != f.Damage.Total {
			return fmt.Sprintf("weapon dice %v recorded as %d", f.Damage.Faces, f.Damage.Total)
		}
	}
	return ""
}

// checkAttack re-resolves an attack from its recorded dice and the
// attacker's and target's standing, and compares what it recorded.
func (w *World) checkAttack(ed rules.Edition, a *Sheet, p *events.AttackMade) string {
	if p.AttackerID != a.ID || p.DX != a.Attributes.DX || p.Restriction != a.Restriction() || p.Curses != a.Curses {
		return fmt.Sprintf("attack recorded %s with DX %d (restriction %d, curses %d); the sheet had DX %d (%d, %d)", p.Attacker, p.DX, p.Restriction, p.Curses, a.Attributes.DX, a.Restriction(), a.Curses)
	}
	wp, err := rules.LookupWeapon(ed, p.Weapon)
	if err != nil {
		return err.Error()
	}
	auto, err := rules.ParseAutoHit(p.AutoHit)
	if err != nil {
		return err.Error()
	}
	in := rules.AttackInput{Edition: ed, Attacker: p.Attacker, AttackerDX: p.DX, AttackerRestriction: p.Restriction, AttackerST: a.Attributes.ST,
		AttackerCurses: p.Curses, Weapon: wp, SkillName: p.Skill, SkillLevel: p.SkillLevel, Bonus: rules.SkillBonus(p.Bonus),
		Target: p.Target, TargetST: p.TargetST, FatigueSetting: p.Fatigue && wp.Has(rules.FlagFatigueSetting), Grappling: p.Grappling, AutoHit: auto}
	if problem := checkSkillPlacement(ed, a, wp, p, auto); problem != "" {
		return problem
	}
	if auto != rules.AutoHitNone && (len(p.Hit.Faces) != 0 || p.Hit.Outcome != "hit" || p.Dodge != nil) {
		return fmt.Sprintf("an attack that hits without a roll recorded a hit roll %v (%s) or a dodge", p.Hit.Faces, p.Hit.Outcome)
	}
	if t, ok := w.Sheets[p.TargetID]; ok {
		in.TargetArmor = t.RulesArmor()
	}
	// A grenade is thrown whether or not the event says so (events
	// recorded before throws were recorded do not).
	thrown, err := rules.Thrown(wp, p.Thrown)
	if err != nil {
		return err.Error()
	}
	if p.Dodge != nil {
		if err := rules.CanDodge(ed, p.Target, wp, thrown); err != nil {
			return "a dodge the rules do not allow: " + err.Error()
		}
	}
	dodged := p.Dodge != nil && p.Dodge.Outcome == "pass"
	var dmg []int
	switch {
	case p.Damage != nil:
		dmg = p.Damage.Faces
	case dodged && wp.Damage != nil:
		dmg = make([]int, wp.Damage.Count) // never rolled: any faces do
		for i := range dmg {
			dmg[i] = 1
		}
	}
	var dmgRoller rules.Roller = rules.NewGivenFaces(dmg)
	if p.HitOnly && p.Damage == nil {
		// The hit alone: its damage is to come.
		if auto != rules.AutoHitNone || p.Taken != 0 {
			return fmt.Sprintf("a hit recorded alone with no hit roll or %d points taken", p.Taken)
		}
		dmgRoller = nil
	}
	o, err := rules.ResolveAttack(in, rules.NewGivenFaces(p.Hit.Faces), dmgRoller)
	if err != nil {
		return err.Error()
	}
	if o.Hit.Total != p.Hit.Total || o.Hit.Target != p.Hit.Target || o.Hit.Pass != (p.Hit.Outcome == "hit") {
		return fmt.Sprintf("attack recorded %v = %d vs %d, %s; the rules give %d vs %d", p.Hit.Faces, p.Hit.Total, p.Hit.Target, p.Hit.Outcome, o.Hit.Total, o.Hit.Target)
	}
	if dodged {
		if p.Taken != 0 {
			return fmt.Sprintf("a dodged attack recorded %d points taken", p.Taken)
		}
		return ""
	}
	if o.BeforeArmor != p.BeforeArmor || o.ArmorStopped != p.ArmorStopped || o.Taken != p.Taken || o.Fatigue != p.Fatigue {
		return fmt.Sprintf("attack recorded %d before armour, %d stopped, %d taken; the rules give %d, %d, %d", p.BeforeArmor, p.ArmorStopped, p.Taken, o.BeforeArmor, o.ArmorStopped, o.Taken)
	}
	return ""
}

// checkSkillPlacement holds where an attack put its combat skill level
// against the attacker's sheet: the level he has in the weapon's skill,
// and, unless --skill-bonus chose, his standing choice
// (rules.PlaceSkillBonus). Attacks recorded before the standing choice
// (no BonusFrom) used a level only with --skill-bonus; a re-roll or a
// completion keeps the placement of the attack it replaces, which
// sameAttackDice holds.
func checkSkillPlacement(ed rules.Edition, a *Sheet, wp rules.Weapon, p *events.AttackMade, auto rules.AutoHit) string {
	if p.BonusFrom == "" {
		return ""
	}
	level := 0
	if sk, ok := rules.WeaponSkill(ed, wp); ok {
		level = a.SkillLevel(sk.Key)
	}
	if p.SkillLevel != level {
		return fmt.Sprintf("attack recorded %s level %d; the sheet had %d", p.Skill, p.SkillLevel, level)
	}
	src := rules.BonusSource(p.BonusFrom)
	if src != rules.SourceFlag && src != rules.SourceStanding {
		return fmt.Sprintf("an attack whose skill bonus came from %q (flag or standing)", p.BonusFrom)
	}
	if p.Rerolls != "" || p.Completes != "" {
		// Kept from the attack it replaces (sameAttackDice).
		return ""
	}
	pl, err := rules.PlaceSkillBonus(ed, wp, level, a.StandingBonus(), rules.SkillBonus(p.Bonus), src == rules.SourceFlag, p.Grappling, auto)
	if err != nil {
		return "a skill bonus the rules do not allow: " + err.Error()
	}
	if string(pl.Bonus) != p.Bonus {
		return fmt.Sprintf("attack put %s on %q; %s's standing choice puts it on %q", p.Skill, p.Bonus, a.Name, pl.Bonus)
	}
	return ""
}

// rerollAttack checks an attack that replaces an earlier one: the set of
// dice re-rolled is named, it was paid for by whoever rolled those dice
// (the attacker, or the target for his dodge), and the sets not re-rolled
// kept their faces.
func (w *World) rerollAttack(e events.Event, p *events.AttackMade) string {
	paid, ok := w.paid[p.Rerolls]
	_, problem := w.reroll(e, p.Rerolls, true)
	if problem != "" {
		return problem
	}
	payer := e.Stream
	if p.Rerolled == "dodge" {
		t, ok := w.Sheets[p.TargetID]
		if !ok {
			return "a re-rolled dodge of a target outside the party"
		}
		payer = events.CharacterStream(t.ID)
		if t.Foe {
			payer = events.FoeStream(t.ID)
		}
	}
	switch {
	case p.Rerolled != "hit" && p.Rerolled != "damage" && p.Rerolled != "dodge":
		return fmt.Sprintf("an attack re-rolled with rerolled %q (hit, damage or dodge)", p.Rerolled)
	case ok && paid.Stream != payer:
		return fmt.Sprintf("the %s of attack %s re-rolled with someone else's karma", p.Rerolled, p.Rerolls)
	}
	orig, problem := w.attackOf(p.Rerolls)
	if problem != "" {
		return problem
	}
	return sameAttackDice(orig, p)
}

// completesAttack checks an attack that completes one whose damage was to
// come: that one is an attack, its damage was to come, and this one keeps
// its terms, its hit dice and any dodge it had tried.
func (w *World) completesAttack(e events.Event, p *events.AttackMade) string {
	rec, ok, problem := w.roll(p.Completes)
	switch {
	case problem != "":
		return problem
	case !ok:
		return fmt.Sprintf("an attack completes %s, which is not an attack in effect", p.Completes)
	case rec.stream != e.Stream:
		return fmt.Sprintf("an attack completes %s, an attack of another stream", p.Completes)
	case rec.rerolledBy != "":
		return fmt.Sprintf("an attack completes %s, which %s had already replaced", p.Completes, rec.rerolledBy)
	}
	// Completed, it is replaced: no second completion, no re-roll of it.
	w.rerolledBy[p.Completes] = strings.Clone(e.ID)
	orig, problem := w.attackOf(p.Completes)
	if problem != "" {
		return problem
	}
	if !orig.DamageToCome() {
		return fmt.Sprintf("an attack completes %s, whose damage was not to come", p.Completes)
	}
	if p.Dodge == nil && orig.Dodge != nil {
		return "an attack completion dropped the dodge tried"
	}
	q := *p
	q.Rerolled = "completion"
	return sameAttackDice(orig, &q)
}

// counterattack checks an attack's reaction: a counterattack answers an
// attack in effect by its target on its attacker, settled (he survived
// it), not dodged, and not answered before ("A defender can react to ONE
// attacker"); a re-roll or completion keeps what the attack answered.
func (w *World) counterattack(e events.Event, p *events.AttackMade) string {
	if w.answered == nil {
		w.answered = map[string]string{}
	}
	if prev := p.Rerolls + p.Completes; prev != "" {
		orig, problem := w.attackOf(prev)
		if problem != "" {
			return problem
		}
		if orig.Counters != p.Counters {
			return fmt.Sprintf("an attack replacing %s changed the attack it counters from %q to %q", prev, orig.Counters, p.Counters)
		}
		if c, ok := w.answered[prev]; ok {
			w.answered[e.ID] = c
		}
		return ""
	}
	if p.Counters == "" {
		return ""
	}
	return w.checkAnswer(e, answer{
		attack: p.Counters, on: "a counterattack on %s", again: "a second counterattack on %s", defender: p.Attacker,
		his: func(x *events.AttackMade) bool {
			return x.TargetID == p.AttackerID && x.AttackerID == p.TargetID && p.TargetID != ""
		},
		notHis: fmt.Sprintf("%s counterattacks %s, who did not attack him in %s", p.Attacker, p.Target, p.Counters),
	})
}

// answer is a reaction that answers an attack: a counterattack, or a
// tackle with --react.
type answer struct {
	// attack is the event ID of the attack answered; defender names who
	// answers it.
	attack, defender string
	// on and again phrase the reaction, and a second one, with the
	// attack's ID ("a counterattack on %s").
	on, again string
	// his reports whether the attack was the answered foe's, on the
	// defender; notHis says why not.
	his    func(x *events.AttackMade) bool
	notHis string
}

// checkAnswer holds a reaction to its attack: in effect and not replaced,
// the foe's on the defender, no counterattack itself, settled (he
// survived it), not dodged, and not answered before ("A defender can
// react to ONE attacker"). It records the attack as answered by e.
func (w *World) checkAnswer(e events.Event, a answer) string {
	if w.answered == nil {
		w.answered = map[string]string{}
	}
	on := fmt.Sprintf(a.on, a.attack)
	rec, ok, problem := w.roll(a.attack)
	switch {
	case problem != "":
		return problem
	case !ok:
		return on + ", which is not an attack in effect"
	case rec.rerolledBy != "":
		return fmt.Sprintf("%s, which %s had replaced", on, rec.rerolledBy)
	}
	x, problem := w.attackOf(a.attack)
	switch {
	case problem != "":
		return problem
	case !a.his(x):
		return a.notHis
	case x.Counters != "":
		return on + ", itself a counterattack"
	case x.DamageToCome():
		return on + ", whose damage was still to come"
	case x.Dodge != nil:
		return fmt.Sprintf("%s, which %s had dodged: a defender reacts once", on, a.defender)
	}
	if c, ok := w.answered[a.attack]; ok {
		return fmt.Sprintf(a.again+", which %s had answered: a defender reacts to ONE attacker", a.attack, c)
	}
	w.answered[a.attack] = strings.Clone(e.ID)
	return ""
}

// attackOf returns the attack with the given event ID, indexed earlier.
func (w *World) attackOf(id string) (*events.AttackMade, string) {
	if w.attacks != nil {
		if a, ok := w.attacks[id]; ok {
			return a, ""
		}
		return nil, fmt.Sprintf("%s is not an attack in effect", id)
	}
	e, err := w.lookup(w.rolls.seq(id))
	if err != nil {
		return nil, fmt.Sprintf("re-roll of %s, which cannot be read back: %v", id, err)
	}
	p, err := events.Decode(e)
	if err != nil {
		return nil, err.Error()
	}
	a, ok := p.(*events.AttackMade)
	if !ok {
		return nil, fmt.Sprintf("%s is a %s, not an attack", id, e.Type)
	}
	return a, ""
}

// sameAttackDice checks that a re-rolled attack kept the dice of the sets
// it did not re-roll, and the attack's own terms.
func sameAttackDice(orig, p *events.AttackMade) string {
	// Fatigue says what the damage rolled was: a miss rolled none, so its
	// fatigue is no term of the attack to keep (a bare-handed miss
	// re-rolled into a hit deals fatigue).
	fatigueChanged := orig.Damage != nil && p.Damage != nil && orig.Fatigue != p.Fatigue
	if orig.AttackerID != p.AttackerID || orig.TargetID != p.TargetID || orig.Target != p.Target || orig.Weapon != p.Weapon ||
		orig.Bonus != p.Bonus || orig.Thrown != p.Thrown || orig.Grappling != p.Grappling || fatigueChanged ||
		orig.AutoHit != p.AutoHit || orig.BonusFrom != p.BonusFrom {
		return "a re-rolled attack with another attacker, target, weapon or bonus than the attack it replaces"
	}
	if p.Rerolled != "hit" && !slices.Equal(orig.Hit.Faces, p.Hit.Faces) {
		return fmt.Sprintf("a re-roll of the %s changed the hit dice %v to %v", p.Rerolled, orig.Hit.Faces, p.Hit.Faces)
	}
	if p.Rerolled != "dodge" && orig.Dodge != nil && p.Dodge != nil && !slices.Equal(orig.Dodge.Faces, p.Dodge.Faces) {
		return fmt.Sprintf("a re-roll of the %s changed the dodge dice %v to %v", p.Rerolled, orig.Dodge.Faces, p.Dodge.Faces)
	}
	if p.Rerolled == "hit" && orig.AutoHit != "" {
		return "a re-roll of the hit of an attack that made no hit roll"
	}
	if p.Rerolled == "damage" && orig.Damage == nil {
		return "a re-roll of the damage of an attack that rolled none"
	}
	if p.Rerolled == "dodge" && orig.Dodge == nil {
		return "a re-roll of a dodge the attack did not have"
	}
	return ""
}

// shipNamed returns the name of the section ship or detailed ship named
// name (ignoring case), if there is one.
func (w *World) shipNamed(name string) (string, bool) {
	for _, other := range w.Ships {
		if equalFoldTrim(other.Name, name) {
			return other.Name, true
		}
	}
	for _, other := range w.DetailedShips {
		if equalFoldTrim(other.Name, name) {
			return other.Name, true
		}
	}
	return "", false
}

// applyDetailed checks and folds an event of detailed ship records: the
// templates a campaign adds, a detailed ship built, a hit on one, the end
// of its turn (its rolls made again from their faces). A hit is
// re-applied with the rules to the ship as the hits before it left it, and
// what it recorded (every box destroyed, the widowed armour, the
// components disabled) is held against what the rules give.
func (w *World) applyDetailed(e events.Event, p events.Payload) string {
	if add, ok := p.(*events.ShipTemplatesAdded); ok {
		if e.Stream != events.ShipTemplatesStream {
			return fmt.Sprintf("%s on stream %q, not %q", e.Type, e.Stream, events.ShipTemplatesStream)
		}
		if len(add.Templates) == 0 {
			return "templates added, but none given"
		}
		for _, t := range add.Templates {
			if _, err := interceptor.NewTemplate(t.Name, t.Rows); err != nil {
				return err.Error()
			}
		}
		if err := w.Templates.Apply(e); err != nil {
			return err.Error()
		}
		return ""
	}
	id, ok := strings.CutPrefix(e.Stream, events.ShipStreamPrefix)
	if !ok {
		return fmt.Sprintf("%s on stream %q, not a ship's", e.Type, e.Stream)
	}
	sh, exists := w.DetailedShips[id]
	if p, ok := p.(*events.DetailedShipBuilt); ok {
		if _, lts := w.Ships[id]; exists || lts || p.ShipID != id {
			return fmt.Sprintf("ship %s built twice, or on stream %s", p.ShipID, e.Stream)
		}
		if other, taken := w.shipNamed(p.Name); taken {
			return fmt.Sprintf("a ship named %q already exists", other)
		}
		sh = &DetailedShip{}
		if err := sh.Apply(e); err != nil {
			return err.Error()
		}
		w.DetailedShips[id] = sh
		return ""
	}
	if !exists {
		return fmt.Sprintf("%s for a detailed ship that does not exist (stream %s)", e.Type, e.Stream)
	}
	problem := w.rerollDetailed(e, p, sh)
	if err := sh.Step(e, p); err != nil {
		return err.Error()
	}
	switch p := p.(type) {
	case *events.DetailedShipHit:
		w.addRoll(e, nil)
		if problem == "" {
			problem = w.checkDetailedTemplate(p)
		}
		if problem == "" {
			problem = CheckTurretRolls(sh.Ship(), p)
		}
		_, want, err := sh.ApplyHit(p)
		if err != nil {
			return err.Error()
		}
		if problem == "" {
			problem = SameDetailedOutcome(p, want)
		}
		if e.PayloadVersion >= 2 && problem == "" {
			w.detailedKills(e, want.Killed)
		}
	case *events.DetailedTurnEnded:
		w.addRoll(e, nil)
		want, err := sh.ApplyTurnEnd(p, e.PayloadVersion)
		if err != nil {
			return err.Error()
		}
		if d := SameTurnEnd(p, want); d != "" && problem == "" {
			problem = d
		}
		if e.PayloadVersion >= 2 && problem == "" {
			w.detailedKills(e, want.Killed)
		}
	case *events.DetailedShipRepaired:
		want, err := sh.ApplyRepair(p)
		if err != nil {
			return err.Error()
		}
		problem = SameDetailedRepair(p, want)
		if clock := w.checkRepairClock(p); problem == "" {
			problem = clock
		}
		if p.Until != nil {
			u := *p.Until
			w.repairClock = &u
			sh.LastRepair, sh.LastRepairSeq = &u, e.Seq
		}
	}
	sh.Version, sh.Seq = e.StreamVersion, e.Seq
	return problem
}

// detailedKills notes the crewmen a detailed ship's hit or turn end killed
// who are characters or foes of the campaign (by name, as the command
// found them): each must die on his own sheet in the same command, as the
// crew of a destroyed section does (crewKills). Crewmen named like no one
// are the record's free text. Hits and turn ends recorded before payload
// version 2 made no such deaths; an event already found wrong is not
// held to them as well.
func (w *World) detailedKills(e events.Event, killed []string) {
	for _, name := range killed {
		if m, ok := w.Roster.FindAny(name); ok {
			if c, ok := w.Sheets[m.ID]; ok && c.Alive() {
				w.crewKills[m.ID] = e
			}
		}
	}
}

// rerollDetailed checks a hit or turn end that re-rolls one of the rolls
// of the ship's latest event (see CheckReroll), before the ship steps to
// it: that it replaces the latest event, not already replaced, and was
// paid for in its command by the character who made the roll. It returns
// "" for an event that re-rolls nothing.
func (w *World) rerollDetailed(e events.Event, p events.Payload, sh *DetailedShip) string {
	id := rerollsOf(p)
	if id == "" {
		return ""
	}
	paid, ok := w.paid[id]
	if _, problem := w.reroll(e, id, true); problem != "" {
		return problem
	}
	latestID, latest := sh.Latest()
	if id != latestID || latest == nil {
		return fmt.Sprintf("a re-roll of %s, which is not the ship's latest event", id)
	}
	if problem := CheckReroll(latest, p); problem != "" {
		return problem
	}
	var by string
	switch p := p.(type) {
	case *events.DetailedShipHit:
		by = p.RerolledBy
	case *events.DetailedTurnEnded:
		by = p.RerolledBy
	}
	if payer, _ := w.characterOf(paid); ok && (payer == nil || !strings.EqualFold(payer.Name, by)) {
		return fmt.Sprintf("a re-roll of %s's roll paid for by someone else", by)
	}
	return ""
}

// checkRepairClock checks the time of day a repair recorded: during an
// adventure it begins where the last repair of the day ended (or at the
// day's start) and runs its minutes; no repair is made in an encounter
// (DAMAGE CONTROL AND REPAIR, book l.479-481); between adventures the
// clock does not run and the repair records none.
func (w *World) checkRepairClock(p *events.DetailedShipRepaired) string {
	at, stamped := p.GameTimeOf()
	if !stamped {
		return "a repair without a game time"
	}
	if at.Adventure == 0 {
		if p.From != nil || p.Until != nil {
			return "a repair between adventures recorded a time of day: the clock does not run then"
		}
		return ""
	}
	if at.Encounter != 0 {
		return fmt.Sprintf("a repair during encounter %d: systems cannot be repaired during a scenario (book l.479)", at.Encounter)
	}
	from := RepairStart(at, w.repairClock)
	until, _ := RepairClock(from, p.Minutes)
	switch {
	case p.From == nil || p.Until == nil:
		return "a repair during an adventure recorded no time of day"
	case *p.From != from || *p.Until != until:
		return fmt.Sprintf("repair recorded %s → %s; the clock gives %s → %s", ClockText(*p.From), ClockText(*p.Until), ClockText(from), ClockText(until))
	}
	return ""
}

// checkDetailedTemplate checks that a hit's template is the sample or the
// campaign's template of its name, as it stood when the hit was made.
func (w *World) checkDetailedTemplate(p *events.DetailedShipHit) string {
	if p.Template == nil {
		if p.Sample {
			return "a laser hit marked as a sample template"
		}
		return ""
	}
	if p.Points != 0 {
		return fmt.Sprintf("a hit with template %q and laser points %d", p.Template.Name, p.Points)
	}
	var known events.ShipTemplate
	found := false
	if p.Sample {
		for _, s := range interceptor.SampleTemplates() {
			if s.Name == p.Template.Name {
				known, found = events.ShipTemplate{Name: s.Name, Rows: s.Rows()}, true
			}
		}
	} else if i := w.Templates.index(p.Template.Name); i >= 0 {
		known, found = w.Templates.Templates[i], true
	}
	switch {
	case !found && p.Sample:
		return fmt.Sprintf("a hit with sample template %q, which is not a sample", p.Template.Name)
	case !found:
		return fmt.Sprintf("a hit with template %q, which the campaign has not added", p.Template.Name)
	case !slices.Equal(upperRows(known.Rows), upperRows(p.Template.Rows)):
		return fmt.Sprintf("a hit with template %q recorded as %v; the template is %v", p.Template.Name, p.Template.Rows, known.Rows)
	}
	return ""
}

func upperRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.ToUpper(r)
	}
	return out
}

// checkMedicHeal re-checks a medic's healing against his check (Medic:
// "heal one damage point per medic level ... on 3/IQ"): the check is his,
// in effect, and heals one patient only; a failed check heals nothing, a
// passed one at most a point per Medic level.
func (w *World) checkMedicHeal(ed rules.Edition, s *Sheet, p *events.DamageHealed) string {
	rec, ok, problem := w.roll(p.RollID)
	if problem != "" {
		return problem
	}
	if !ok || rec.roll == nil {
		return fmt.Sprintf("%s healed by medic's check %s, which is not a roll in effect", s.Name, p.RollID)
	}
	if !strings.HasSuffix(rec.stream, "/"+p.MedicID) {
		return fmt.Sprintf("%s healed by medic's check %s, which %s did not roll", s.Name, p.RollID, p.Medic)
	}
	if other, ok := w.medicked[p.RollID]; ok {
		return fmt.Sprintf("medic's check %s heals %s, but it already healed %s: one check treats one patient", p.RollID, s.Name, other)
	}
	w.medicked[p.RollID] = s.Name
	if rec.roll.Outcome != "pass" && p.Points > 0 {
		return fmt.Sprintf("%d damage healed by a failed medic's check", p.Points)
	}
	if m, ok := w.Sheets[p.MedicID]; ok {
		if sk, err := w.cache.lookupSkill(ed, "medic"); err == nil {
			if level := m.SkillLevel(sk.Key); p.Points > level {
				return fmt.Sprintf("%d damage healed by %s, whose Medic %d heals a point per level", p.Points, m.Name, level)
			}
		}
	}
	return ""
}

// applyShare checks a link granted or revoked: on the shares stream, a
// scope the server knows, a player's link for a character of the party, a
// token hash of SHA-256's size, a share granted once and revoked once.
func (w *World) applyShare(e events.Event, p events.Payload) string {
	problem := ""
	switch p := p.(type) {
	case *events.ShareGranted:
		switch {
		case p.Scope != events.ShareScopeGM && p.Scope != events.ShareScopePlayer:
			problem = fmt.Sprintf("share %s of scope %q", p.ShareID, p.Scope)
		case len(p.TokenHash) != 64:
			problem = fmt.Sprintf("share %s with a token hash of %d digits, not SHA-256's 64", p.ShareID, len(p.TokenHash))
		case p.Uses < 0:
			problem = fmt.Sprintf("share %s of %d uses", p.ShareID, p.Uses)
		case p.Scope == events.ShareScopePlayer:
			if m, ok := w.Roster.Find(p.Character); !ok || m.ID != p.CharacterID {
				problem = fmt.Sprintf("share %s for %s (%s), who is not of the party", p.ShareID, p.Character, p.CharacterID)
			}
		case p.CharacterID != "":
			problem = fmt.Sprintf("the GM's share %s names a character", p.ShareID)
		}
	case *events.ShareRevoked:
		if sh, ok := w.Shares.Find(p.ShareID); ok && sh.Revoked {
			problem = fmt.Sprintf("share %s revoked twice", p.ShareID)
		}
	default:
		return fmt.Sprintf("%s on the shares stream", e.Type)
	}
	if err := w.Shares.Apply(e); err != nil && problem == "" {
		problem = err.Error()
	}
	return problem
}
