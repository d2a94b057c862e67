#!/usr/bin/env bash
# The figures of issue 23's "Fast" (`ltscamp play`), each beside its floor
# from the same run, as a ratio, and against the issue's limit:
#
#   1,000 rolls        `roll 3/DX --char Ajax --dice 1,2,3 -q` a line, piped
#                      through `ltscamp play` on a small campaign (the whole
#                      process), vs bench/playfloor (Go and modernc.org/sqlite
#                      making 1,000 single-row inserts, each its own
#                      transaction, synchronous=FULL, in one process: the
#                      whole process, and the inserts alone as it prints
#                      them), and vs the sqlite3 CLI making 1,000 commits as
#                      the acceptance check does.              limit: 2× playfloor
#   start              at 1,000,000 events (cmd/ltscamp-gen, 10 characters ×
#                      100,000 events, then an encounter with 20 foes: 30
#                      combatants), from the process's start to its first
#                      whole frame on a 120×50 pseudo-terminal
#                      (bench/playstart: the first read of the terminal that
#                      holds the frame's last word), after `ltscamp rebuild`
#                      (the snapshots a played campaign has), and once before
#                      it, with no snapshot (a new build trusts no older one).
#                                                              limit: 200 ms
#   1,000 rolls, 1M    the same lines piped through play at 1,000,000 events:
#                      time, and peak RSS (VmHWM, by /usr/bin/time).
#                                                              limit: 64 MB
#   typed on screen    TYPED roll lines (default 100) typed into the screen on
#                      the pseudo-terminal at 1M events, as fast as it reads
#                      them: time per line, and peak RSS.      limit: 64 MB
#   redraw, reload     go test -bench (play: BenchmarkRedraw at 80×24 and
#                      120×40 with 30 combatants and a full log pane;
#                      BenchmarkReload, the read after each command, on a
#                      small campaign and at 1M events; cmd/ltscamp:
#                      BenchmarkPlayRoll beside BenchmarkInsertFloor).
#                                                              limit: 16 ms
#
#   bash bench/play.sh
#
# RUNS (default 3) sets how many runs the medians take; TYPED=1000 types
# a thousand lines (about a minute more); GO_BENCH=0 skips the Go
# benchmarks. Needs Go, sqlite3 and GNU time (/usr/bin/time); Linux (the
# pseudo-terminal). The 1M campaign is generated once into
# $LTSCAMP_BENCH_DIR (default /tmp/ltscamp-play-bench) and reused by later
# runs (its log does not depend on the build); each run copies it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/table.sh
runs=${RUNS:-3}
typed=${TYPED:-100}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-play-bench}
mkdir -p "$dir"
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
go build -o "$dir/playfloor" ./bench/playfloor
go build -o "$dir/playstart" ./bench/playstart
lt=$dir/ltscamp
export LTSCAMP_ACTOR=bench NO_COLOR=1
unset LTSCAMP_DB
w=$(mktemp -d -t ltscamp-play-bench.XXXXXX)
trap 'rm -rf "$w"' EXIT

# ms CMD...: wall milliseconds of one run (output discarded).
ms() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
# median: the median of the numbers on standard input.
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# row NAME VALUE UNIT FLOOR FLOOR_NAME LIMIT: one line of the table; the
# ratio is VALUE/FLOOR, held against LIMIT (a ratio, or a value with UNIT).
row() {
	local name=$1 v=$2 unit=$3 f=$4 fname=$5 limit=$6 ratio="-" verdict=""
	if [[ $f != - ]]; then ratio=$(awk -v a="$v" -v b="$f" 'BEGIN {printf "%.2f×", a / (b > 0 ? b : 1)}'); fi
	case $limit in
	-) ;;
	*×) verdict=$(awk -v r="${ratio%×}" -v l="${limit%×}" 'BEGIN {print (r <= l ? "within" : "OVER") " " l "×"}') ;;
	*) verdict=$(awk -v a="$v" -v l="$limit" -v u="$unit" 'BEGIN {print (a <= l ? "within" : "OVER") " " l " " u}') ;;
	esac
	printf '%-30s %9s %-3s %9s %-22s %-7s %s\n' "$name" "$v" "$unit" "$f" "$fname" "$ratio" "$verdict"
}
header() { printf '%-30s %13s %32s %-7s %s\n' "figure" "ltscamp" "floor" "ratio" "limit"; }

# (a) 1,000 rolls on a small campaign, beside its floors.
small=$w/small.ltscamp
LTSCAMP_DB=$small "$lt" init --edition 2021 >/dev/null 2>&1
LTSCAMP_DB=$small "$lt" char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2 --skill Medic:2 --no-input >/dev/null 2>&1
LTSCAMP_DB=$small "$lt" char new Hector --st 11 --dx 12 --iq 9 --skill Knife:1 --skill Medic:2 --skill Pilot:1 --no-input >/dev/null 2>&1
for i in $(seq 1 1000); do echo "roll 3/DX --char Ajax --dice 1,2,3 -q"; done >"$w/rolls.txt"
{ echo 'PRAGMA synchronous=FULL;'; for i in $(seq 1 1000); do echo 'insert into t values(randomblob(300));'; done; } >"$w/ins.sql"
play=() floor=() inner=() cli=()
for ((i = 0; i < runs; i++)); do
	rm -f "$w/c.ltscamp"* "$w/floor-go.db"* "$w/floor.db"*
	cp "$small" "$w/c.ltscamp"
	play+=("$(LTSCAMP_DB=$w/c.ltscamp ms sh -c "'$lt' play < '$w/rolls.txt'")")
	n=$(sqlite3 "$w/c.ltscamp" "SELECT count(*) FROM events WHERE type = 'roll.made'")
	[[ $n == 1000 ]] || { echo "play logged $n rolls of 1000" >&2; exit 1; }
	s=$(date +%s%N)
	inner+=("$("$dir/playfloor" "$w/floor-go.db")")
	floor+=("$((($(date +%s%N) - s) / 1000000))")
	sqlite3 "$w/floor.db" 'PRAGMA journal_mode=WAL; CREATE TABLE t(x)' >/dev/null
	cli+=("$(ms sh -c "sqlite3 '$w/floor.db' < '$w/ins.sql'")")
done
play_ms=$(printf '%s\n' "${play[@]}" | median)
floor_ms=$(printf '%s\n' "${floor[@]}" | median)
inner_ms=$(printf '%s\n' "${inner[@]}" | median)
cli_ms=$(printf '%s\n' "${cli[@]}" | median)
echo "1,000 rolls piped through play on a small campaign; medians of $runs runs"
header
row "1,000 rolls (play)" "$play_ms" ms "$floor_ms" "playfloor, process" 2×
row "1,000 rolls (play)" "$play_ms" ms "${inner_ms%.*}" "playfloor, inserts" 2×
row "1,000 rolls (play)" "$play_ms" ms "$cli_ms" "sqlite3 CLI" 3×
row "floor: playfloor, process" "$floor_ms" ms "$cli_ms" "sqlite3 CLI" -
echo

# (b) at 1,000,000 events with 30 combatants.
table=$(table1m "$dir" "$lt")
big=$w/big.ltscamp
cp "$table" "$big"
export LTSCAMP_DB=$big
n=$(sqlite3 "$big" 'SELECT count(*) FROM events')
foes=$(sqlite3 "$big" "SELECT count(*) FROM events WHERE type = 'foe.added'")
echo "at $n events ($(du -h "$table" | cut -f1)), an encounter with $foes foes and a party of 10 (30 combatants), 120×50 terminal"
start() { "$dir/playstart" -cols 120 -rows 50 -until quit "$lt" play | awk '/first-frame-ms/ {printf "%.0f", $2}'; }
# The snapshots are derived data: without them (a campaign restored, or
# one a new build opens, which trusts no older snapshot), the first read
# folds from the log.
sqlite3 "$big" 'DELETE FROM snapshots'
cold=$(start)
s=$(date +%s%N)
"$lt" rebuild >/dev/null 2>&1
rebuild_ms=$((($(date +%s%N) - s) / 1000000))
starts=()
for ((i = 0; i < runs; i++)); do starts+=("$(start)"); done
start_ms=$(printf '%s\n' "${starts[@]}" | median)
for i in $(seq 1 1000); do echo "roll 3/DX --char C0000 --dice 1,2,3 -q"; done >"$w/rolls-big.txt"
n0=$(sqlite3 "$big" "SELECT count(*) FROM events WHERE type = 'roll.made'")
s=$(date +%s%N)
rss_kb=$(/usr/bin/time -f %M "$lt" play <"$w/rolls-big.txt" 2>&1 >/dev/null | tail -1)
big_ms=$((($(date +%s%N) - s) / 1000000))
n1=$(sqlite3 "$big" "SELECT count(*) FROM events WHERE type = 'roll.made'")
((n1 - n0 == 1000)) || { echo "play logged $((n1 - n0)) rolls of 1000 at 1M events" >&2; exit 1; }
{ for ((i = 0; i < typed; i++)); do echo "roll 3/DX --char C0001 --dice 1,2,3 -q"; done; echo quit; } >"$w/typed.txt"
out=$("$dir/playstart" -cols 120 -rows 50 -until quit -type "$w/typed.txt" "$lt" play)
typed_ms=$(awk '/typed-ms/ {printf "%.0f", $2}' <<<"$out")
typed_kb=$(awk '/peak-rss-kb/ {print $2}' <<<"$out")
n2=$(sqlite3 "$big" "SELECT count(*) FROM events WHERE type = 'roll.made'")
((n2 - n1 == typed)) || { echo "the screen logged $((n2 - n1)) rolls of $typed typed" >&2; exit 1; }
header
row "start (first frame)" "$start_ms" ms - "" 200
row "start, no snapshot" "$cold" ms - "(once, before rebuild)" 200
row "rebuild (the snapshots)" "$rebuild_ms" ms - "" -
row "1,000 rolls piped, 1M" "$big_ms" ms "$floor_ms" "playfloor, process" 2×
row "peak RSS, 1,000 rolls piped" "$((rss_kb / 1024))" MB - "" 64
row "$typed rolls typed on screen" "$((typed_ms / typed))" ms - "per line, keys+Enter" -
row "peak RSS, $typed typed" "$((typed_kb / 1024))" MB - "" 64
echo

# (c) the Go benchmarks, in process.
if [[ ${GO_BENCH:-1} != 0 ]]; then
	echo "go test -bench (ns/op: one redraw, one reload, one roll line, one insert)"
	go test ./play -run '^$' -bench 'Redraw|Reload' -benchtime 200x | grep '^Benchmark'
	LTSCAMP_PLAY_BENCH_DB=$big go test ./play -run '^$' -bench 'Reload' -benchtime 20x | grep '^Benchmark' | sed 's/^BenchmarkReload/BenchmarkReload(1M)/'
	go test ./cmd/ltscamp -run '^$' -bench 'PlayRoll|InsertFloor' -benchtime 1000x | grep '^Benchmark'
fi
