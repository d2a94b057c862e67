#!/usr/bin/env bash
# Issue 25's "Measured against the floor": a campaign on PostgreSQL, each
# figure beside its floor on the same server and beside SQLite's, in one
# run, as ratios:
#
#   appends     a one-event command (a roll: expected versions on three
#               streams) and a 500-event command, ms a command:
#                 PostgreSQL: go test -bench 'Append|Floor' ./events/pgstore
#                 (the store, and pgx alone inserting the same rows into
#                 the same table: BEGIN, INSERT, COMMIT; BEGIN, COPY,
#                 COMMIT) and pgbench inserting such rows (BEGIN, one
#                 INSERT, COMMIT; and 500 rows in one INSERT), its
#                 latency a transaction;
#                 SQLite: go test -bench 'AppendSingleFull$|AppendBatched500'
#                 ./events/sqlitestore (synchronous=FULL) and the sqlite3
#                 CLI inserting such rows into the events table of its
#                 migration 1, in one process.
#   restore     the 1,000,000-event campaign of `ltscamp-gen -characters
#               200 -events 5000 -seed 42` moved into PostgreSQL with
#               `ltscamp restore FILE --db postgres://...?campaign=big`
#               (every event checked and replayed, the snapshots folded),
#               beside the same restore into a new SQLite file, and psql
#               copying the same rows into a fresh events table (COPY FROM).
#   sheet       `ltscamp sheet NAME --json` at 1M events, whole process,
#               median of RUNS, vs psql / sqlite3 reading his payloads;
#               on PostgreSQL over TCP with the address as given (pgx's
#               sslmode=prefer), with sslmode=disable, and over the Unix
#               socket, and through pgbouncer if it is installed
#               (PGBOUNCER=0 skips it); beside them `ltscamp version` (the
#               start-up alone), psql connecting to run SELECT 1, and
#               pgbench -C's average connection time.      limit: 50 ms
#   verify      `ltscamp verify` at 1M: time (median of VERIFY_RUNS) and
#               peak RSS (GNU time), vs psql COPY / sqlite3 reading every
#               row.                                        limit: 256 MB
#
#   bash bench/pg.sh
#
# The script starts its own throwaway cluster (initdb as the postgres user
# when run as root, pg_ctl on a random loopback port, stopped and removed
# on exit) with the server's defaults, fsync and synchronous_commit ON:
# this measures the real thing, every commit on the disk, as SQLite's
# synchronous=FULL does (pgtest's clusters, for the tests, run with fsync
# off). The Go benchmarks run against it through $LTSCAMP_TEST_PG.
#
# EVENTS (default 1000000) sizes the campaign (200 characters of
# EVENTS/200 events each); APPENDS (default 2000) is the single-event
# commands of each append figure, BATCHES (default 100) the 500-event
# ones; RUNS (default 7) the runs of each median of a short command,
# VERIFY_RUNS (default 3) of verify; COUNT (default 3) the -count of the
# Go benchmarks (the median is taken); RESTORE_SQLITE=0 skips the restore
# into SQLite. About 4 to 6 minutes on 2 cores at 1M. Needs Go, PostgreSQL
# (Debian's postgresql: initdb, pg_ctl, pgbench, psql), sqlite3, jq and
# GNU time (/usr/bin/time). psql is the server's own binary, not Debian's
# /usr/bin/psql, a Perl wrapper whose start-up alone takes 50 ms. Work
# files go to $LTSCAMP_BENCH_DIR (default /tmp/ltscamp-pg-bench).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
events=${EVENTS:-1000000}
chars=200
per=$((events / chars))
appends=${APPENDS:-2000}
batches=${BATCHES:-100}
runs=${RUNS:-7}
vruns=${VERIFY_RUNS:-3}
count=${COUNT:-3}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-pg-bench}
mkdir -p "$dir"
load=$(cut -d' ' -f1-3 /proc/loadavg)
start_s=$(date +%s)
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
lt=$dir/ltscamp
export LTSCAMP_ACTOR=bench NO_COLOR=1
unset LTSCAMP_DB

# --- the cluster -----------------------------------------------------------
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -x $pgbin/initdb ]] || { echo "pg.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as() { if (($(id -u) == 0)); then runuser -u postgres -- "$@"; else "$@"; fi; }
pgdir=$(mktemp -d -t ltscamp-pg-bench.XXXXXX)
chmod 755 "$pgdir"
if (($(id -u) == 0)); then chown postgres: "$pgdir"; fi
stop() {
	[[ -f $pgdir/pgbouncer.pid ]] && kill "$(cat "$pgdir/pgbouncer.pid")" 2>/dev/null
	as "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$pgdir"
}
trap stop EXIT
as "$pgbin/initdb" -D "$pgdir/data" -A trust -U ltscamp -E UTF8 --locale=C >"$pgdir/initdb.log" 2>&1 ||
	{ cat "$pgdir/initdb.log" >&2; exit 1; }
for attempt in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 20000))
	# The defaults, fsync=on and synchronous_commit=on among them.
	if as "$pgbin/pg_ctl" -D "$pgdir/data" -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1" \
		-l "$pgdir/log" -w start >/dev/null 2>&1; then
		break
	fi
	((attempt < 5)) && grep -q 'could not bind' "$pgdir/log" || { tail -20 "$pgdir/log" >&2; exit 1; }
done
server=postgres://ltscamp@127.0.0.1:$port
psql() { "$pgbin/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U ltscamp "$@"; }
pgbench() { "$pgbin/pgbench" -h 127.0.0.1 -p "$port" -U ltscamp "$@"; }
version=$(psql -d postgres -c 'SHOW server_version')
fsync=$(psql -d postgres -c 'SHOW fsync')/$(psql -d postgres -c 'SHOW synchronous_commit')

# ms CMD...: wall milliseconds of one run (output discarded).
ms() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
# median: the median of the numbers on standard input.
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# medianms CMD...: median ms of $runs runs.
medianms() {
	local i
	for ((i = 0; i < runs; i++)); do ms "$@"; done | median
}
# timed N CMD...: median wall ms and the largest peak RSS (MB) of N runs,
# by GNU time.
timed() {
	local n=$1 i t=() m=0 secs kb
	shift
	for ((i = 0; i < n; i++)); do
		/usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/err.txt" || { cat "$dir/err.txt" >&2; exit 1; }
		read -r secs kb <"$dir/time.txt"
		t+=("$(awk -v s="$secs" 'BEGIN {printf "%.0f", s * 1000}')")
		((kb > m)) && m=$kb
	done
	echo "$(printf '%s\n' "${t[@]}" | median) $((m / 1024))"
}
# gobench PKG PATTERN BENCHTIME: prints "NAME NS_PER_OP EV_PER_S" a
# benchmark, the medians of $count runs.
gobench() {
	go test "$1" -run '^$' -bench "$2" -benchtime "$3" -count "$count" 2>&1 | tee -a "$dir/gobench.log" |
		awk '/^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name)
			for (i = 3; i < NF; i++) { if ($(i+1) == "ns/op") ns[name] = ns[name] " " $i; if ($(i+1) == "ev/s") ev[name] = ev[name] " " $i }
		}
		function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }; return a[int((n + 1) / 2)] }
		END { for (k in ns) print k, med(ns[k]), med(ev[k]) }'
}
# field NAME COLUMN: from the gobench output in $bench.
field() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' <<<"$bench"; }
# ratio A B: A/B.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || a == "-" || b == "" || b == "-" || b == 0) print "-"; else printf "%.2f×", a / b}'; }
# msof NS: ns as ms with two decimals.
msof() { awk -v n="$1" 'BEGIN {printf "%.2f", n / 1e6}'; }

echo "PostgreSQL $version (fsync/synchronous_commit: $fsync) on 127.0.0.1:$port; $(nproc) cores; load average at the start: $load"
echo

# --- (a) appends -----------------------------------------------------------
# The payload of a roll, as `ltscamp demo` logs it (323 bytes).
payload='{"at":{"adventure":0,"day":0},"character_id":"01M8GK8PZM4JCSWVFRC2ECPW9Y","character":"Ajax","expr":"3/DX","kind":"check","dice":3,"sides":6,"faces":[1,3,6],"entered":true,"sum":10,"modifiers":[],"total":10,"target":11,"outcome":"pass","margin":1,"probability":0.625,"attribute_value":11,"reason":"strike","edition":"2021"}'
at=2026-11-28T08:10:09.286553413Z
h1=d84cad87ac849c7eefa4697c1a42f53b861e1f748654cb8df83ee08e312ab11d
h2=1a401fcb13fc3d90d132a882e5623e4b7d528bbf2fc68c62db450cd9573d9e66
cols='campaign, seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash'

# pgbench into the events table of a campaign that `ltscamp init` made
# (migrations 1-3: its keys, indexes, checks, foreign key and triggers).
psql -d postgres -c 'CREATE DATABASE floor'
"$lt" --db "$server/floor?campaign=floor" init --edition 2021 >/dev/null 2>&1
cid=$(psql -d floor -c "SELECT id FROM campaigns WHERE name = 'floor'")
# :n, carried from one transaction to the next by the client, is the row's
# seq; seq 1 is the campaign's creation. The payload and the time are
# parameters (-D), as pgx sends them: pgbench would take the colons of
# literals for variables.
cat >"$dir/one.sql" <<EOF
BEGIN;
INSERT INTO events ($cols) VALUES ($cid, :n, '01PGBENCHEV' || lpad(CAST(:n AS text), 15, '0'), '01PGBENCHCM' || lpad(CAST(:n AS text), 15, '0'), 'character/01M8GK8PZM4JCSWVFRC2ECPW9Y', :n, 'roll.made', 1, :payload, 'bench', :at, '$h1', '$h2');
COMMIT;
\set n :n + 1
EOF
cat >"$dir/batch.sql" <<EOF
BEGIN;
INSERT INTO events ($cols) SELECT $cid, g, '01PGBENCHEV' || lpad(CAST(g AS text), 15, '0'), '01PGBENCHCM' || lpad(CAST(:n AS text), 15, '0'), 'character/01PGBATCH' || lpad(CAST(:n AS text), 17, '0'), g - :n + 1, 'roll.made', 1, :payload, 'bench', :at, '$h1', '$h2' FROM generate_series(:n, :n + 499) g;
COMMIT;
\set n :n + 500
EOF
# pgbenchms SCRIPT N FIRST: pgbench's latency average, ms a transaction.
pgbenchms() {
	pgbench -n -c 1 -M prepared -f "$1" -t "$2" -D n="$3" -D payload="$payload" -D at="$at" floor 2>&1 | tee -a "$dir/pgbench.log" |
		awk '/^latency average/ {printf "%.2f", $4}'
}
pgb_one=$(pgbenchms "$dir/one.sql" "$appends" 2)
pgb_500=$(pgbenchms "$dir/batch.sql" "$batches" $((appends + 2)))
got=$(psql -d floor -c "SELECT count(*) FROM events")
[[ $got == $((1 + appends + 500 * batches)) ]] || { echo "pgbench left $got rows" >&2; exit 1; }

# The sqlite3 CLI into the events table of SQLite's migration 1, WAL,
# synchronous=FULL, one process.
rm -f "$dir/floor.db"*
{ echo 'PRAGMA journal_mode=WAL;'; cat events/sqlitestore/migrations/0001_events.sql; } | sqlite3 "$dir/floor.db" >/dev/null
{
	echo 'PRAGMA synchronous=FULL;'
	for ((i = 1; i <= appends; i++)); do
		printf "BEGIN IMMEDIATE; INSERT INTO events VALUES (%d, '01SQLITEEV%016d', '01SQLITECM%016d', 'character/01M8GK8PZM4JCSWVFRC2ECPW9Y', %d, 'roll.made', 1, '%s', 'bench', '%s', '%s', '%s'); COMMIT;\n" \
			"$i" "$i" "$i" "$i" "$payload" "$at" "$h1" "$h2"
	done
} >"$dir/one-sqlite.sql"
{
	echo 'PRAGMA synchronous=FULL;'
	for ((b = 0; b < batches; b++)); do
		n=$((appends + 1 + 500 * b))
		printf "BEGIN IMMEDIATE; WITH RECURSIVE g(i) AS (SELECT %d UNION ALL SELECT i + 1 FROM g WHERE i < %d) INSERT INTO events SELECT i, printf('01SQLITEEV%%016d', i), '01SQLITECM%016d', 'character/01SQBATCH%017d', i - %d + 1, 'roll.made', 1, '%s', 'bench', '%s', '%s', '%s' FROM g; COMMIT;\n" \
			"$n" $((n + 499)) "$n" "$n" "$n" "$payload" "$at" "$h1" "$h2"
	done
} >"$dir/batch-sqlite.sql"
sq_one=$(awk -v t="$(ms sh -c "sqlite3 -bail '$dir/floor.db' <'$dir/one-sqlite.sql'")" -v n="$appends" 'BEGIN {printf "%.2f", t / n}')
sq_500=$(awk -v t="$(ms sh -c "sqlite3 -bail '$dir/floor.db' <'$dir/batch-sqlite.sql'")" -v n="$batches" 'BEGIN {printf "%.2f", t / n}')
got=$(sqlite3 "$dir/floor.db" 'SELECT count(*) FROM events')
[[ $got == $((appends + 500 * batches)) ]] || { echo "sqlite3 left $got rows" >&2; exit 1; }

# The Go benchmarks: the store and pgx alone on this server; SQLite's store.
: >"$dir/gobench.log"
bench=$(LTSCAMP_TEST_PG="$server/postgres?sslmode=disable" gobench ./events/pgstore 'AppendOne|FloorInsertOne' "${appends}x")
bench+=$'\n'$(LTSCAMP_TEST_PG="$server/postgres?sslmode=disable" gobench ./events/pgstore 'Append500|FloorInsert500' "${batches}x")
bench+=$'\n'$(gobench ./events/sqlitestore 'AppendSingleFull$' "${appends}x")
bench+=$'\n'$(gobench ./events/sqlitestore 'AppendBatched500' 1x)
pg_one=$(msof "$(field BenchmarkAppendOne 2)")
pg_one_floor=$(msof "$(field BenchmarkFloorInsertOne 2)")
pg_500=$(msof "$(field BenchmarkAppend500 2)")
pg_500_floor=$(msof "$(field BenchmarkFloorInsert500 2)")
sl_one=$(msof "$(field BenchmarkAppendSingleFull 2)")
# BenchmarkAppendBatched500's op is 200 commands of 500: a command is
# 500 events at its ev/s.
sl_500=$(awk -v e="$(field BenchmarkAppendBatched500 3)" 'BEGIN {printf "%.2f", 500 / e * 1000}')

# --- (b) the 1M-event campaign ---------------------------------------------
src=$dir/long-$chars-$per.ltscamp
rm -f "$src"* "$dir/.long-$chars-$per.ltscamp.checked"
s=$(date +%s%N)
"$dir/ltscamp-gen" -characters "$chars" -events "$per" -seed 42 -o "$src" >/dev/null 2>"$dir/gen.log"
gen_ms=$((($(date +%s%N) - s) / 1000000))
n=$(sqlite3 "$src" 'SELECT count(*) FROM events')
psql -d postgres -c 'CREATE DATABASE big'
big="$server/big?campaign=big"
restore_pg=$(timed 1 "$lt" restore "$src" --db "$big")
restore_sl=-
if [[ ${RESTORE_SQLITE:-1} != 0 ]]; then
	rm -f "$dir/restored.ltscamp"* "$dir/.restored.ltscamp.checked"
	restore_sl=$(timed 1 "$lt" restore "$src" --db "$dir/restored.ltscamp")
	rm -f "$dir/restored.ltscamp"* "$dir/.restored.ltscamp.checked"
fi
# Untimed: what autovacuum would do soon after (and would otherwise do
# during the timings below), setting the rows' hint bits and the
# visibility map, and the planner's statistics, as on a database in use.
psql -d big -c 'VACUUM (ANALYZE) events' -c 'VACUUM (ANALYZE) snapshots'
bigid=$(psql -d big -c "SELECT id FROM campaigns WHERE name = 'big'")
got=$(psql -d big -c "SELECT count(*) FROM events WHERE campaign = $bigid")
[[ $got == "$n" ]] || { echo "restore left $got events of $n" >&2; exit 1; }
# The restore's floor: the same rows copied into a fresh events table.
psql -d big -c "COPY (SELECT $cols FROM events WHERE campaign = $bigid ORDER BY seq) TO STDOUT" >"$dir/rows.copy"
psql -d floor -c "INSERT INTO campaigns (name, created_at) VALUES ('copy', '$at')"
copyid=$(psql -d floor -c "SELECT id FROM campaigns WHERE name = 'copy'")
s=$(date +%s%N)
sed "s/^$bigid\t/$copyid\t/" "$dir/rows.copy" | psql -d floor -c "COPY events ($cols) FROM STDIN"
copy_ms=$((($(date +%s%N) - s) / 1000000))
rm -f "$dir/rows.copy"

who=$("$lt" --db "$src" char list --json | jq -r '.[42 % length].name')
id=$("$lt" --db "$src" sheet "$who" --json | jq -r .id)
stream="character/$id"
start_ms=$(medianms "$lt" version)
sheet_pg=$(medianms "$lt" --db "$big" sheet "$who" --json)
sheet_sl=$(medianms "$lt" --db "$src" sheet "$who" --json)
# The address as a user gives it leaves sslmode to pgx's default, prefer:
# pgx asks for TLS, the server says no, and pgx connects again. The same
# with sslmode=disable, and over the server's Unix socket (no TLS asked).
sheet_pg_notls=$(medianms "$lt" --db "$big&sslmode=disable" sheet "$who" --json)
sheet_pg_unix=$(medianms "$lt" --db "postgres://ltscamp@/big?host=$pgdir&port=$port&campaign=big" sheet "$who" --json)
floor_connect=$(medianms psql -d big -c 'SELECT 1')
echo 'SELECT 1;' >"$dir/select1.sql"
connect_ms=$(pgbench -n -C -c 1 -t 100 -f "$dir/select1.sql" big 2>&1 | awk '/^average connection time/ {printf "%.1f", $5}')
# Optionally, the same sheet through pgbouncer (session pooling, its
# server connections kept open): what a pooler saves of the connection.
# pgbouncer 1.18 passes no startup parameter it does not know, so it is
# told to drop ltscamp's (default_transaction_read_only, lock_timeout): the
# sheet reads the same rows without them, but this is a measure, not a
# setup to run.
sheet_pooled=-
bouncer=$(command -v pgbouncer || ls /usr/sbin/pgbouncer 2>/dev/null || true)
if [[ -n $bouncer && ${PGBOUNCER:-1} != 0 ]]; then
	bport=$((port + 1))
	cat >"$pgdir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bport
unix_socket_dir =
auth_type = trust
auth_file = $pgdir/pgbouncer.users
pool_mode = session
ignore_startup_parameters = extra_float_digits,default_transaction_read_only,lock_timeout
logfile = $pgdir/pgbouncer.log
pidfile = $pgdir/pgbouncer.pid
EOF
	echo '"ltscamp" ""' >"$pgdir/pgbouncer.users"
	if (($(id -u) == 0)); then chown postgres: "$pgdir"/pgbouncer.*; fi
	if as "$bouncer" -d "$pgdir/pgbouncer.ini" >/dev/null 2>&1; then
		pooled="postgres://ltscamp@127.0.0.1:$bport/big?campaign=big&sslmode=disable"
		"$lt" --db "$pooled" sheet "$who" --json >/dev/null 2>&1 # opens the pool's server connection
		sheet_pooled=$(medianms "$lt" --db "$pooled" sheet "$who" --json)
		kill "$(cat "$pgdir/pgbouncer.pid")" 2>/dev/null || true
	fi
fi
sheet_pg_rss=$(timed 1 "$lt" --db "$big" sheet "$who" --json | cut -d' ' -f2)
sheet_sl_rss=$(timed 1 "$lt" --db "$src" sheet "$who" --json | cut -d' ' -f2)
floor_sheet_pg=$(medianms psql -d big -c "SELECT payload FROM events WHERE campaign = $bigid AND stream = '$stream' ORDER BY stream_version")
floor_sheet_sl=$(medianms sqlite3 "$src" "SELECT payload FROM events WHERE stream = '$stream' ORDER BY stream_version")
verify_pg=$(timed "$vruns" "$lt" --db "$big" verify)
verify_sl=$(timed "$vruns" "$lt" --db "$src" verify)
floor_scan_pg=$(runs=$vruns medianms psql -d big -c "COPY (SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events WHERE campaign = $bigid ORDER BY seq) TO STDOUT")
floor_scan_sl=$(runs=$vruns medianms sqlite3 "$src" 'SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events ORDER BY seq')

# --- the table -------------------------------------------------------------
row() { # WORK PG PG_FLOOR SQLITE SQLITE_FLOOR UNIT NOTE
	local v=() x
	for x in "$2" "$3" "$4" "$5"; do if [[ -n $x && $x != - ]]; then v+=("$x $6"); else v+=(-); fi; done
	printf '%-26s %10s %10s %7s %10s %10s %7s %7s  %s\n' "$1" "${v[0]}" "${v[1]}" "$(ratio "$2" "$3")" "${v[2]}" "${v[3]}" "$(ratio "$4" "$5")" "$(ratio "$2" "$4")" "$7"
}
verdict() { awk -v v="$1" -v l="$2" -v u="$3" 'BEGIN {if (v == "" || v == "-") print "-"; else print (v + 0 <= l ? "≤ " l " " u ": within" : "≤ " l " " u ": OVER")}'; }
echo "appends: ms a command; the floors are pgx alone (Go), pgbench and the sqlite3 CLI inserting the same rows"
printf '%-26s %10s %10s %7s %10s %10s %7s %7s  %s\n' "work" "PostgreSQL" "floor" "ratio" "SQLite" "floor" "ratio" "PG/SQL" "note"
row "1 event: store vs Go" "$pg_one" "$pg_one_floor" "$sl_one" "$sq_one" ms "SQLite: AppendSingleFull vs sqlite3"
row "1 event: store vs CLI" "$pg_one" "$pgb_one" "$sl_one" "$sq_one" ms "PostgreSQL floor: pgbench"
row "500 events: store vs Go" "$pg_500" "$pg_500_floor" "$sl_500" "$sq_500" ms "SQLite: AppendBatched500 vs sqlite3"
row "500 events: store vs CLI" "$pg_500" "$pgb_500" "$sl_500" "$sq_500" ms "PostgreSQL floor: pgbench"
row "floor: Go vs CLI, 1" "$pg_one_floor" "$pgb_one" "" "" ms "pgx alone vs pgbench"
row "floor: Go vs CLI, 500" "$pg_500_floor" "$pgb_500" "" "" ms "pgx alone vs pgbench"
echo
echo "campaign: $n events ($(du -h "$src" | cut -f1) in SQLite, $(psql -d big -c "SELECT pg_size_pretty(pg_database_size('big'))") in PostgreSQL), generated in $gen_ms ms; character $who; medians of $runs runs (verify: $vruns)"
printf '%-26s %10s %10s %7s %10s %10s %7s %7s  %s\n' "work" "PostgreSQL" "floor" "ratio" "SQLite" "floor" "ratio" "PG/SQL" "note"
read -r rp rp_rss <<<"$restore_pg"
read -r rs rs_rss <<<"$restore_sl"
row "restore (whole log)" "$rp" "$copy_ms" "$rs" "" ms "floor: psql COPY FROM; $(awk -v n="$n" -v t="$rp" 'BEGIN {printf "%.0f", n / t * 1000}') events/s, peak RSS $rp_rss MB${rs_rss:+ (SQLite $rs_rss MB)}"
row "sheet NAME --json" "$sheet_pg" "$floor_sheet_pg" "$sheet_sl" "$floor_sheet_sl" ms "$(verdict "$sheet_pg" 50 ms); RSS $sheet_pg_rss MB (SQLite $sheet_sl_rss MB)"
row "  sslmode=disable" "$sheet_pg_notls" "$floor_sheet_pg" "$sheet_sl" "$floor_sheet_sl" ms "$(verdict "$sheet_pg_notls" 50 ms): TCP, no TLS asked"
row "  Unix socket" "$sheet_pg_unix" "$floor_sheet_pg" "$sheet_sl" "$floor_sheet_sl" ms "$(verdict "$sheet_pg_unix" 50 ms)"
row "  through pgbouncer" "$sheet_pooled" "$floor_sheet_pg" "$sheet_sl" "$floor_sheet_sl" ms "$(verdict "$sheet_pooled" 50 ms): session pooling (see the script)"
row "floor: ltscamp version" "$start_ms" "$floor_sheet_pg" "$start_ms" "$floor_sheet_sl" ms "start-up, no campaign"
row "floor: psql SELECT 1" "$floor_connect" "$floor_sheet_pg" "" "" ms "a connection and nothing read, whole process"
row "floor: a new connection" "$connect_ms" "" "" "" ms "pgbench -C: the server forks and starts a backend"
read -r vp vp_rss <<<"$verify_pg"
read -r vs vs_rss <<<"$verify_sl"
row "verify" "$vp" "$floor_scan_pg" "$vs" "$floor_scan_sl" ms "floor: psql COPY TO / sqlite3 reading every row"
row "verify: peak RSS" "$vp_rss" "" "$vs_rss" "" MB "$(verdict "$vp_rss" 256 MB) (SQLite $vs_rss MB)"
echo
echo "total $(($(date +%s) - start_s)) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
