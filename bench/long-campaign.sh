#!/usr/bin/env bash
# Whole-process figures of issues 12 and 21 (a long campaign stays
# instant) on a generated campaign, each next to a floor in the same run
# (the stock sqlite3 CLI doing the same work, unless the note names
# another), as a ratio:
#
#   generate          events/s
#   sheet NAME --json vs sqlite3 reading that character's payloads
#   sheet --as-of     (a point 100 events back)
#   roll, xp award    vs sqlite3 inserting one row, synchronous=FULL; beside
#                     them the floors: `ltscamp version` (start-up alone)
#                     and bench/driverfloor (Go and modernc.org/sqlite
#                     doing that insert, nothing else)
#   undo, redo        of the bench's last command: time and peak RSS
#   verify            events/s and peak RSS, vs sqlite3 reading every row
#   timeline          whole (time to the first line, and peak RSS); one day
#   audit xp NAME, log --char NAME
#   party, char list, foe list, ship list, a completion: with no snapshot
#                     (the generated campaign with its snapshots deleted:
#                     one pass over the log) vs bench/scanfloor (Go and
#                     modernc.org/sqlite reading every row, nothing else);
#                     straight after generation (the generator saves the
#                     snapshots a rebuild would) and after rebuild, vs
#                     `ltscamp version`
#   import roster     of 2,000 and 20,000 characters into a new campaign,
#                     vs sqlite3 inserting as many 300-byte rows in one
#                     transaction, synchronous=FULL
#
#   bash bench/long-campaign.sh [EVENTS_PER_CHARACTER] [CHARACTERS]   (default 5000 × 200 = 1,000,201 events)
#
# ROSTERS="2000 20000" sets the sizes of the roster imports.
# Times are medians of RUNS runs (default 7; the whole-log ones run once).
# Needs Go, sqlite3, jq and GNU time (/usr/bin/time). The campaign is
# generated once per build into $LTSCAMP_BENCH_DIR (default
# /tmp/ltscamp-bench), and copied before anything writes to it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
per=${1:-5000}
chars=${2:-200}
runs=${RUNS:-7}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-bench}
mkdir -p "$dir"
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
go build -o "$dir/driverfloor" ./bench/driverfloor
go build -o "$dir/scanfloor" ./bench/scanfloor
lt=$dir/ltscamp
export LTSCAMP_ACTOR=bench NO_COLOR=1

src=$dir/long-$chars-$per.ltscamp
rm -f "$src"
s=$(date +%s%N)
"$dir/ltscamp-gen" -characters "$chars" -events "$per" -seed 42 -o "$src" >/dev/null 2>"$dir/gen.log"
gen_ms=$(( ($(date +%s%N) - s) / 1000000 ))
n=$(sqlite3 "$src" 'SELECT count(*) FROM events')
work=$dir/work.ltscamp
cp "$src" "$work"
export LTSCAMP_DB=$work
who=$("$lt" char list --json | jq -r '.[42 % length].name')
id=$("$lt" sheet "$who" --json | jq -r .id)
stream="character/$id"
sqlite3 "$dir/floor.db" 'PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS t(x)' >/dev/null

# ms CMD...: wall milliseconds of one run (output discarded).
ms() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(( (e - s) / 1000000 ))
}
# median CMD...: median ms of $runs runs.
median() {
	local i a=()
	for ((i = 0; i < runs; i++)); do a+=("$(ms "$@")"); done
	printf '%s\n' "${a[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
# rss CMD...: peak RSS in MB of one run.
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1/1024}'; }
# row NAME MS [FLOOR_MS [NOTE]]: one line of the table.
row() {
	local ratio="" note=${4:-}
	if [[ -n ${3:-} ]]; then ratio=$(awk -v a="$2" -v b="$3" 'BEGIN {printf "%.1f×", a / (b > 0 ? b : 1)}'); fi
	printf '%-36s %8s ms %10s ms %8s  %s\n' "$1" "$2" "${3:--}" "${ratio:--}" "$note"
}

echo "campaign: $n events, $(du -h "$src" | cut -f1); character $who ($stream); $runs runs each"
printf '%-36s %11s %13s %8s  %s\n' "work" "ltscamp" "floor" "ratio" "note"
row "generate" "$gen_ms" "" "$(awk -v n="$n" -v t="$gen_ms" 'BEGIN {printf "%.0f events/s", n / t * 1000}')"

# The generator saves the snapshots a rebuild would, as a played campaign
# has them, saved by its commands. A copy with them deleted (they are
# derived data) shows a campaign that has none, an older ltscamp's say.
# Reads save no snapshot, so the reads without them can be timed again
# and again.
nosnap=$dir/nosnap.ltscamp
rm -f "$nosnap"* "$dir/.nosnap.ltscamp.checked"
cp "$src" "$nosnap"
sqlite3 "$nosnap" 'DELETE FROM snapshots'
cold=$(LTSCAMP_DB=$nosnap ms "$lt" sheet "$who" --json)
floor_pass=$(median "$dir/scanfloor" "$work")
floor_start=$(median "$lt" version)
lists() { # lists SUFFIX FLOOR NOTE: the list reads, one row each
	row "party$1" "$(median "$lt" party)" "$2" "$3"
	row "char list$1" "$(median "$lt" char list)" "$2" "$3"
	row "foe list$1" "$(median "$lt" foe list)" "$2" "$3"
	row "ship list$1" "$(median "$lt" ship list)" "$2" "$3"
	row "completion: xp award$1" "$(median "$lt" __complete xp award "")" "$2" "$3"
}
LTSCAMP_DB=$nosnap lists " (no snapshot)" "$floor_pass" "one pass; floor: bench/scanfloor"
lists " (generated)" "$floor_start" "generator's snapshots; floor: ltscamp version"
"$lt" rebuild >/dev/null 2>&1
lists "" "$floor_start" "after rebuild; floor: ltscamp version"
floor_sheet=$(median sqlite3 "$work" "SELECT payload FROM events WHERE stream = '$stream' ORDER BY stream_version")
row "sheet --json (no snapshot)" "$cold" "$floor_sheet"
row "sheet --json" "$(median "$lt" sheet "$who" --json)" "$floor_sheet" "$(rss "$lt" sheet "$who" --json) MB RSS"
head=$(sqlite3 "$work" 'SELECT max(seq) FROM events')
row "sheet --as-of head-100" "$(median "$lt" sheet "$who" --json --as-of $((head - 100)))" "$floor_sheet"

floor_insert=$(median sqlite3 "$dir/floor.db" 'PRAGMA synchronous=FULL; INSERT INTO t VALUES (randomblob(300))')
row "roll 3/DX --dice" "$(median "$lt" roll 3/DX --char "$who" --dice 1,2,3)" "$floor_insert"
row "xp award" "$(median "$lt" xp award "$who" 1 --reason bench)" "$floor_insert"
row "floor: ltscamp version" "$(median "$lt" version)" "$floor_insert" "start-up, no file"
row "floor: Go+modernc insert" "$(median "$dir/driverfloor" "$dir/floor.db")" "$floor_insert" "bench/driverfloor"
row "undo (last command)" "$(ms "$lt" undo --reason bench)" ""
row "redo (of that undo)" "$(ms "$lt" redo)" ""
"$lt" undo --reason bench >/dev/null 2>&1
row "undo, redo: peak RSS" "" "" "$(rss "$lt" redo) MB"

floor_scan=$(ms sqlite3 "$work" 'SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events ORDER BY seq')
v=$(ms "$lt" verify)
row "verify" "$v" "$floor_scan" "$(awk -v n="$n" -v t="$v" 'BEGIN {printf "%.0f events/s", n / t * 1000}'), $(rss "$lt" verify) MB RSS"
first=$(bash -c 's=$(date +%s%N); "$0" timeline | head -n 1 >/dev/null; echo $(( ($(date +%s%N) - s) / 1000000 ))' "$lt")
row "timeline (first line)" "$first" ""
row "timeline --json (whole)" "$(ms "$lt" timeline --json)" "" "$(rss "$lt" timeline --json) MB RSS"
day=$(( $(sqlite3 "$work" "SELECT count(*) FROM events WHERE type = 'day.advanced'") / 2 + 1 ))
row "timeline --day $day" "$(median "$lt" timeline --adventure 1 --day "$day")" ""
row "audit xp NAME --json" "$(median "$lt" audit xp "$who" --json)" "$floor_sheet"
row "log --char NAME" "$(median "$lt" log --char "$who")" "$floor_sheet"

# import roster: linear in the characters, into a new campaign each time.
for n in ${ROSTERS:-2000 20000}; do
	csv=$dir/roster-$n.csv
	{ echo name,st,dx,iq; for ((i = 1; i <= n; i++)); do echo "R$i,12,11,9"; done; } >"$csv"
	rm -f "$dir/roster.ltscamp"* "$dir/.roster.ltscamp.checked"
	LTSCAMP_DB=$dir/roster.ltscamp "$lt" init >/dev/null 2>&1
	t=$(LTSCAMP_DB=$dir/roster.ltscamp ms "$lt" import roster "$csv")
	rm -f "$dir/rows.db"*
	sqlite3 "$dir/rows.db" 'PRAGMA journal_mode=WAL; CREATE TABLE t(x)' >/dev/null
	f=$(ms sqlite3 "$dir/rows.db" "PRAGMA synchronous=FULL; BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $n) INSERT INTO t SELECT randomblob(300) FROM c; COMMIT")
	row "import roster $n" "$t" "$f" "floor: sqlite3 inserting $n rows, one transaction"
done
