#!/usr/bin/env bash
# Whole-process figures for backups on a generated campaign, each next to
# the stock sqlite3 CLI doing the same work in the same run:
#
#   export log   vs  sqlite3 writing the same rows as JSON lines
#   import log   vs  sqlite3 .import of the same rows into the same schema
#   backup       vs  sqlite3 VACUUM INTO
#
#   bash bench/backup.sh [EVENTS_PER_CHARACTER] [CHARACTERS]   (default 5000 × 200 = 1,000,201 events)
#
# Needs Go, sqlite3 and GNU time (/usr/bin/time). The campaign is generated
# once into $LTSCAMP_BENCH_DIR (default /tmp/ltscamp-bench) and reused.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
per=${1:-5000}
chars=${2:-200}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-bench}
mkdir -p "$dir"
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
src=$dir/gen-$chars-$per.ltscamp
[[ -f $src ]] || "$dir/ltscamp-gen" -characters "$chars" -events "$per" -seed 42 -o "$src"
n=$(sqlite3 "$src" 'SELECT count(*) FROM events')
echo "campaign: $src, $n events, $(du -h "$src" | cut -f1)"

# measure NAME CMD...: wall seconds and peak RSS (MB) of one command.
measure() {
	local name=$1; shift
	/usr/bin/time -f "%e %M" -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/err.txt" || { cat "$dir/err.txt"; exit 1; }
	read -r secs kb <"$dir/time.txt"
	printf '%-28s %7.2f s  %9.0f events/s  %6.0f MB peak RSS\n' "$name" "$secs" "$(echo "$n / $secs" | bc -l)" "$(echo "$kb / 1024" | bc -l)"
	last=$secs
}
ratio() { printf '  → ltscamp / sqlite3 = %.1f×\n' "$(echo "$1 / $2" | bc -l)"; }

rm -f "$dir/b.ndjson" "$dir/rows.csv" "$dir/r.ltscamp" "$dir/imp.db" "$dir/copy.ltscamp" "$dir/vac.db"
measure "ltscamp export log" "$dir/ltscamp" --db "$src" export log -o "$dir/b.ndjson"; a=$last
measure "sqlite3 json lines" sqlite3 "$src" "SELECT json_object('seq',seq,'id',id,'command_id',command_id,'stream',stream,'stream_version',stream_version,'type',type,'payload_version',payload_version,'payload',json(payload),'actor',actor,'recorded_at',recorded_at,'prev_hash',prev_hash,'hash',hash) FROM events ORDER BY seq"; b=$last
ratio "$a" "$b"

sqlite3 -csv "$src" 'SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events ORDER BY seq' >"$dir/rows.csv"
sqlite3 "$src" '.schema events' >"$dir/schema.sql"
measure "ltscamp import log" "$dir/ltscamp" --db "$dir/r.ltscamp" import log "$dir/b.ndjson"; a=$last
measure "sqlite3 .import" sqlite3 "$dir/imp.db" ".read $dir/schema.sql" 'PRAGMA journal_mode=OFF' 'PRAGMA synchronous=OFF' '.mode csv' ".import $dir/rows.csv events"; b=$last
ratio "$a" "$b"

measure "ltscamp backup" "$dir/ltscamp" --db "$src" backup "$dir/copy.ltscamp"; a=$last
measure "sqlite3 VACUUM INTO" sqlite3 "$src" "VACUUM INTO '$dir/vac.db'"; b=$last
ratio "$a" "$b"
