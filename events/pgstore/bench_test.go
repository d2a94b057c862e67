package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

// The append benchmarks of issue 25, each beside its floor: pgx alone,
// on the same server, inserting the same rows into the same table (the
// events table of migration 1, with its keys, indexes, checks, foreign
// key and triggers) and nothing else. The ratio store/floor is the
// figure: what the store's lock, checks and round trips cost beside the
// inserts themselves. Each runs on a fresh database of pgtest.Database:
//
//	go test ./events/pgstore -run '^$' -bench 'Append|Floor'
//
// pgtest's own cluster runs with fsync off, so that the tests are quick:
// its commits never wait for the disk, and the figures are those of the
// work alone. bench/pg.sh runs the same benchmarks against a cluster of
// its own with fsync on (LTSCAMP_TEST_PG), beside pgbench inserting the
// same rows and beside SQLite's counterparts (synchronous=FULL).

// benchCharacter is the character the benchmarks roll for.
const benchCharacter = "01M8GK8PZM4JCSWVFRC2ECPW9Y"

// rollPayload returns the i-th of a few roll.made payloads, each the
// bytes a roll in `ltscamp demo` logs (about 320 bytes).
func rollPayload(i int) json.RawMessage {
	f := [3]int{i%6 + 1, i/6%6 + 1, i/36%6 + 1}
	sum := f[0] + f[1] + f[2]
	outcome := "pass"
	if sum > 11 {
		outcome = "fail"
	}
	return json.RawMessage(fmt.Sprintf(`{"at":{"adventure":0,"day":0},"character_id":"%s","character":"Ajax","expr":"3/DX","kind":"check","dice":3,"sides":6,"faces":[%d,%d,%d],"entered":true,"sum":%d,"modifiers":[],"total":%d,"target":11,"outcome":"%s","margin":%d,"probability":0.625,"attribute_value":11,"reason":"strike","edition":"2021"}`,
		benchCharacter, f[0], f[1], f[2], sum, sum, outcome, 11-sum))
}

// benchCampaign makes a campaign named "bench" in a fresh database and
// returns the database's DSN and the campaign's store.
func benchCampaign(b *testing.B) (string, *pgstore.Store) {
	b.Helper()
	db := pgtest.Database(b)
	st, err := pgstore.CreateStaged(named(db, "bench"), pgstore.Options{Now: clock})
	if err != nil {
		b.Fatalf("CreateStaged: %v", err)
	}
	if err := st.Publish(); err != nil {
		b.Fatalf("Publish: %v", err)
	}
	b.Cleanup(func() { _ = st.Close() })
	return db, st.Store
}

// rollCommands returns the campaign's creation and its character's, then
// n commands of one roll each, as `ltscamp roll` appends them: the event
// on the character's stream, decided against the versions of the
// commands stream (no undo yet: 0), the campaign's and the character's.
func rollCommands(n int) (setup, rolls []events.Command) {
	char := events.CharacterStream(benchCharacter)
	setup = []events.Command{
		{ID: "01BENCHCAMPAIGN00000000000", Actor: "gm", RecordedAt: clock(), Expected: map[string]int64{events.CampaignStream: 0},
			Events: []events.Pending{{ID: "01BENCHCAMPAIGNEV000000000", Stream: events.CampaignStream, Type: events.TypeCampaignCreated, PayloadVersion: 1,
				Payload: json.RawMessage(`{"name":"bench","edition":"2021"}`)}}},
		{ID: "01BENCHCHARACTER0000000000", Actor: "gm", RecordedAt: clock(), Expected: map[string]int64{char: 0},
			Events: []events.Pending{{ID: "01BENCHCHARACTEREV00000000", Stream: char, Type: events.TypeCharacterCreated, PayloadVersion: 1,
				Payload: json.RawMessage(`{"character_id":"` + benchCharacter + `","name":"Ajax","edition":"2021","attributes":{"st":12,"dx":11,"iq":9},"skills":[]}`)}}},
	}
	rolls = make([]events.Command, n)
	for i := range rolls {
		id := fmt.Sprintf("01ROLLCMD%017d", i)
		rolls[i] = events.Command{
			ID: id, Actor: "gm", RecordedAt: clock(),
			Expected: map[string]int64{events.CommandsStream: 0, events.CampaignStream: 1, char: int64(1 + i)},
			Events:   []events.Pending{{ID: fmt.Sprintf("01ROLLEV%018d", i), Stream: char, Type: events.TypeRollMade, PayloadVersion: 1, Payload: rollPayload(i)}},
		}
	}
	return setup, rolls
}

// batchCommands returns n commands of 500 roll events each, every command
// on a stream of its own decided against its version 0, as SQLite's
// BenchmarkAppendBatched500 appends them.
func batchCommands(n int) []events.Command {
	const perCommand = 500
	payloads := make([]json.RawMessage, 216)
	for i := range payloads {
		payloads[i] = rollPayload(i)
	}
	cmds := make([]events.Command, n)
	for c := range cmds {
		stream := events.CharacterStream(fmt.Sprintf("01BATCH%019d", c))
		cmd := events.Command{ID: fmt.Sprintf("01BATCHCMD%016d", c), Actor: "gm", RecordedAt: clock(), Expected: map[string]int64{stream: 0}}
		for i := range perCommand {
			cmd.Events = append(cmd.Events, events.Pending{ID: fmt.Sprintf("01BATCHEV%017d", c*perCommand+i), Stream: stream,
				Type: events.TypeRollMade, PayloadVersion: 1, Payload: payloads[(c*perCommand+i)%len(payloads)]})
		}
		cmds[c] = cmd
	}
	return cmds
}

// appendAll appends cmds to s.
func appendAll(b *testing.B, s *pgstore.Store, cmds []events.Command) {
	b.Helper()
	for _, c := range cmds {
		if _, err := s.Append(c); err != nil {
			b.Fatal(err)
		}
	}
}

// sealAll returns the events cmds append to an empty log, one slice a
// command, sealed as the store seals them: the rows a floor inserts.
func sealAll(cmds []events.Command) [][]events.Event {
	out := make([][]events.Event, len(cmds))
	seq, prev, versions := int64(0), events.GenesisHash(), map[string]int64{}
	for i, c := range cmds {
		out[i] = c.Seal(seq, prev, versions)
		for _, e := range out[i] {
			versions[e.Stream] = e.StreamVersion
		}
		last := out[i][len(out[i])-1]
		seq, prev = last.Seq, last.Hash
	}
	return out
}

// BenchmarkAppendOne appends commands of one roll event (about 320
// bytes) each, one after the other, as `ltscamp roll` does: expected
// versions on three streams, the event on the character's. One op is
// one command, its own transaction: the advisory lock, the head, the
// duplicate check and the three versions in one round trip, the insert,
// the commit. The floor is BenchmarkFloorInsertOne.
//
// SQLite's counterpart is sqlitestore's BenchmarkAppendSingleFull.
func BenchmarkAppendOne(b *testing.B) {
	_, s := benchCampaign(b)
	setup, rolls := rollCommands(b.N)
	appendAll(b, s, setup)
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Append(rolls[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ev/s")
	if v, _ := s.StreamVersion(events.CharacterStream(benchCharacter)); v != int64(1+b.N) {
		b.Fatalf("character at version %d, want %d", v, 1+b.N)
	}
}

// BenchmarkAppend500 appends commands of 500 roll events each, every one
// on a stream of its own decided against its version 0, as an import or
// the generator appends them. One op is one command, one transaction;
// ev/s is events a second. The floor is BenchmarkFloorInsert500.
//
// SQLite's counterpart is sqlitestore's BenchmarkAppendBatched500, whose
// op is 200 such commands.
func BenchmarkAppend500(b *testing.B) {
	_, s := benchCampaign(b)
	cmds := batchCommands(b.N)
	b.ResetTimer()
	appendAll(b, s, cmds)
	b.StopTimer()
	b.ReportMetric(float64(500*b.N)/b.Elapsed().Seconds(), "ev/s")
	if n, _ := s.Count(); n != int64(500*b.N) {
		b.Fatalf("%d events, want %d", n, 500*b.N)
	}
}

// insertRow inserts one event of the campaign $1.
const insertRow = `INSERT INTO events (campaign, seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// floorConn returns a connection of its own to the campaign's database
// and the campaign's id: the floor writes the campaign's events table
// with pgx alone.
func floorConn(b *testing.B, db string) (*pgx.Conn, int32) {
	b.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close(context.Background()) })
	var id int32
	if err := conn.QueryRow(ctx, `SELECT id FROM campaigns WHERE name = 'bench'`).Scan(&id); err != nil {
		b.Fatal(err)
	}
	return conn, id
}

// row returns e's columns as insertRow takes them after the campaign.
func row(e events.Event) []any {
	return []any{e.Seq, e.ID, e.CommandID, e.Stream, e.StreamVersion, e.Type, int32(e.PayloadVersion), string(e.Payload),
		e.Actor, events.FormatTime(e.RecordedAt), fmt.Sprintf("%x", e.PrevHash), fmt.Sprintf("%x", e.Hash)}
}

// BenchmarkFloorInsertOne is BenchmarkAppendOne's floor: the same rows
// (the same events, sealed outside the timer) inserted by pgx alone into
// the same table, BEGIN, one INSERT, COMMIT an op, on a connection of its
// own. Nothing is read, checked or locked.
func BenchmarkFloorInsertOne(b *testing.B) {
	db, s := benchCampaign(b)
	setup, rolls := rollCommands(b.N)
	appendAll(b, s, setup)
	sealed := sealAll(append(setup, rolls...))[len(setup):]
	conn, id := floorConn(b, db)
	ctx := context.Background()
	args := make([][]any, b.N)
	for i, es := range sealed {
		args[i] = append([]any{id}, row(es[0])...)
	}
	b.ResetTimer()
	for i := range b.N {
		tx, err := conn.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(ctx, insertRow, args[i]...); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ev/s")
	if v, _ := s.StreamVersion(events.CharacterStream(benchCharacter)); v != int64(1+b.N) {
		b.Fatalf("character at version %d, want %d", v, 1+b.N)
	}
}

// BenchmarkFloorInsert500 is BenchmarkAppend500's floor: the same 500
// rows a command inserted by pgx alone into the same table, BEGIN, COPY
// FROM, COMMIT an op. COPY is the fastest plain way in: with fsync on, on
// the development machine, 500 rows took 12 ms by COPY, 14 ms as arrays
// through unnest (the store's statement, insertRows here) and 15 ms as a
// multi-row VALUES.
func BenchmarkFloorInsert500(b *testing.B) {
	db, s := benchCampaign(b)
	sealed := sealAll(batchCommands(b.N))
	conn, id := floorConn(b, db)
	ctx := context.Background()
	rows := make([][][]any, b.N)
	for i, es := range sealed {
		for _, e := range es {
			rows[i] = append(rows[i], append([]any{id}, row(e)...))
		}
	}
	b.ResetTimer()
	for i := range b.N {
		tx, err := conn.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"events"}, eventColumns, pgx.CopyFromRows(rows[i])); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(500*b.N)/b.Elapsed().Seconds(), "ev/s")
	if n, _ := s.Count(); n != int64(500*b.N) {
		b.Fatalf("%d events, want %d", n, 500*b.N)
	}
}

// eventColumns are the events table's columns, in row's order after the
// campaign.
var eventColumns = []string{"campaign", "seq", "id", "command_id", "stream", "stream_version", "type", "payload_version", "payload", "actor", "recorded_at", "prev_hash", "hash"}
