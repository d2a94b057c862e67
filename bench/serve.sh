#!/usr/bin/env bash
# The load figures of issue 24 (`ltscamp serve`), each against the issue's
# limit, on the 1,000,000-event campaign bench/play.sh uses
# (`ltscamp-gen -characters 10 -events 100000 -seed 42`, then an encounter
# with 20 foes), after `ltscamp rebuild`:
#
#   pages            CLIENTS (default 200) clients, each on its own
#                    connection, GET the pages of every link back to back
#                    for DURATION seconds (default 30) with bench/serveload: for each
#                    of the ten characters a player's link (the party, his
#                    sheet, his XP audit, his rolls), and the GM's link (the
#                    party and every sheet). Each page is fetched once
#                    first (its first render at this head, timed apart).
#                                     limits: 0 errors, p99 ≤ 100 ms
#   live             CONNS (default 500) live connections (server-sent
#                    events, /s/TOKEN/live) held open while `ltscamp roll`
#                    appends one event a second for DURATION: how many
#                    connections heard each write, and the delay from the
#                    write's end to each receipt.
#                                     limits: all heard, p99 ≤ 1 s
#   live pages       CONNS pages as live.js makes them: each shows one of
#                    the pages above (in turn), listens on its link's live
#                    URL, and fetches its page again on each event, while
#                    the writer writes once a second (each write moves the
#                    head: every page is rendered again): the delay from
#                    the write to the first fetch of each page that shows
#                    it (the seq in the page's footer). Then again with
#                    every page but the XP audits (a long character's
#                    audit takes a quarter of a second to render).
#                                     limit: p99 ≤ 1 s (a page updates
#                                     within 1 s of a write)
#   peak RSS         of the server (VmHWM in /proc/PID/status), after each.
#                                     limit: 256 MB
#
#   bash bench/serve.sh
#
# Everything runs on 127.0.0.1, and the load generator shares the machine
# with the server (on 2 cores, it takes about half the CPU): the figures
# are those of the pair. LIVE_PAGES=0 skips the third load. Needs Go and
# sqlite3; Linux (/proc). The 1M campaign is generated once into
# $LTSCAMP_BENCH_DIR (default /tmp/ltscamp-serve-bench; bench/play.sh's
# /tmp/ltscamp-play-bench holds the same file) and reused by later runs;
# each run copies it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/table.sh
secs=${DURATION:-30}
clients=${CLIENTS:-200}
conns=${CONNS:-500}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-serve-bench}
mkdir -p "$dir"
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
go build -o "$dir/serveload" ./bench/serveload
lt=$dir/ltscamp
load=$dir/serveload
export LTSCAMP_ACTOR=bench NO_COLOR=1
unset LTSCAMP_DB
w=$(mktemp -d -t ltscamp-serve-bench.XXXXXX)
pid=
cleanup() {
	if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$w"
}
trap cleanup EXIT

# The campaign, as bench/play.sh makes it (the same file names, so that
# either script reuses the other's).
table=$(table1m "$dir" "$lt")
export LTSCAMP_DB=$w/c.ltscamp
cp "$table" "$LTSCAMP_DB"
s=$(date +%s%N)
"$lt" rebuild >/dev/null 2>&1
rebuild_ms=$((($(date +%s%N) - s) / 1000000))
n=$(sqlite3 "$LTSCAMP_DB" 'SELECT count(*) FROM events')

# The server, on a port of the kernel's choosing.
"$lt" serve --addr 127.0.0.1:0 2>"$w/serve.err" &
pid=$!
addr=
for _ in $(seq 1 300); do
	addr=$(sed -n 's|^at http://\([0-9.:]*\)/.*|\1|p' "$w/serve.err")
	[[ -n $addr ]] && break
	kill -0 "$pid" 2>/dev/null || { cat "$w/serve.err" >&2; exit 1; }
	sleep 0.1
done
[[ -n $addr ]] || { echo "serve did not start within 30 s" >&2; cat "$w/serve.err" >&2; exit 1; }
case $addr in 127.0.0.1:*) ;; *) echo "serve listens on $addr, not 127.0.0.1" >&2; exit 1 ;; esac
rss() { awk '/^VmHWM/ {printf "%d", $2 / 1024}' "/proc/$pid/status"; }
# cpu: the server's CPU time so far (user and system), in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
rss_start=$(awk '/^VmRSS/ {printf "%d", $2 / 1024}' "/proc/$pid/status")

# The links: the GM's, and one for each character (granted while serve
# runs, as at a table: the server hears of them at the next head).
gm=$("$lt" share --gm --addr "$addr" 2>/dev/null)
: >"$w/urls.txt"
echo "$gm" >>"$w/urls.txt"
chars=$(sqlite3 "$LTSCAMP_DB" "SELECT json_extract(payload, '$.name') FROM events WHERE type = 'character.created' ORDER BY seq")
for name in $chars; do
	json=$("$lt" share "$name" --addr "$addr" --json 2>/dev/null)
	link=$(sed -n 's/^ *"link": "\(.*\)",*$/\1/p' <<<"$json")
	id=$(sed -n 's/^ *"character_id": "\(.*\)",*$/\1/p' <<<"$json")
	printf '%s\n%ssheet/%s\n%saudit/%s\n%srolls/%s\n' "$link" "$link" "$id" "$link" "$id" "$link" "$id" >>"$w/urls.txt"
	echo "${gm}sheet/$id" >>"$w/urls.txt"
done
urls=$(wc -l <"$w/urls.txt")
grep -v /audit/ "$w/urls.txt" >"$w/noaudit.txt"
writer=("$lt" roll 3/DX --char "${chars%%$'\n'*}" --dice 1,2,3 -q)

# kv FILE KEY: the value of a "key value" line of serveload's output.
kv() { awk -v k="$2" '$1 == k {print $2}' "$1"; }
# row NAME VALUE UNIT LIMIT: one line of the table, VALUE held against
# LIMIT (same unit; - for none).
row() {
	local name=$1 v=$2 unit=$3 limit=$4 verdict=""
	if [[ $limit != - ]]; then
		verdict=$(awk -v a="$v" -v l="$limit" -v u="$unit" 'BEGIN {print (a <= l ? "within" : "OVER") " " l " " u}')
	fi
	printf '%-34s %10s %-5s %s\n' "$name" "$v" "$unit" "$verdict"
}
# atleast NAME VALUE UNIT LIMIT: a row whose VALUE must reach LIMIT.
atleast() {
	local name=$1 v=$2 unit=$3 limit=$4
	printf '%-34s %10s %-5s %s\n' "$name" "$v" "$unit" "$(awk -v a="$v" -v l="$limit" -v u="$unit" 'BEGIN {print (a >= l ? "within" : "OVER") " ≥ " l " " u}')"
}

echo "at $n events ($(du -h "$table" | cut -f1)), rebuilt in $rebuild_ms ms; serve on $addr (pid $pid)"
echo "$urls pages: 10 player links × (party, sheet, audit, rolls), the GM's party and 10 sheets"
echo "load generator and server share this machine's $(nproc) cores (load average at the start: $(cut -d' ' -f1-3 /proc/loadavg))"
echo

# (a) pages.
cpu0=$(cpu)
"$load" pages -c "$clients" -d "${secs}s" -warm -urls "$w/urls.txt" >"$w/pages.out" 2>"$w/pages.err" || { cat "$w/pages.err" >&2; exit 1; }
rss_pages=$(rss)
cpu_pages=$(awk -v a="$cpu0" -v b="$(cpu)" -v hz="$hz" 'BEGIN {printf "%.1f", (b - a) / hz}')
# (b) live.
"$load" live -n "$conns" -d "${secs}s" -url "${gm}live" -- "${writer[@]}" >"$w/live.out" 2>"$w/live.err" || { cat "$w/live.err" >&2; exit 1; }
rss_live=$(rss)
# (c) live pages, fetched again on each write.
if [[ ${LIVE_PAGES:-1} != 0 ]]; then
	"$load" live -n "$conns" -d "${secs}s" -pages "$w/urls.txt" -- "${writer[@]}" >"$w/lpages.out" 2>"$w/lpages.err" || { cat "$w/lpages.err" >&2; exit 1; }
	rss_lpages=$(rss)
	"$load" live -n "$conns" -d "${secs}s" -pages "$w/noaudit.txt" -- "${writer[@]}" >"$w/npages.out" 2>"$w/npages.err" || { cat "$w/npages.err" >&2; exit 1; }
	rss_npages=$(rss)
fi
cat "$w"/*.err >&2

printf '%-34s %10s %-5s %s\n' figure value unit limit
row "first render of a page, slowest" "$(kv "$w/pages.out" warm-max-ms)" ms -
echo "pages: $clients clients, ${secs} s, $(kv "$w/pages.out" requests) requests, $(kv "$w/pages.out" rps)/s, $(kv "$w/pages.out" mb-per-s) MB/s"
row "  errors" "$(kv "$w/pages.out" errors)" "" 0
row "  latency p50" "$(kv "$w/pages.out" p50-ms)" ms -
row "  latency p90" "$(kv "$w/pages.out" p90-ms)" ms -
row "  latency p99" "$(kv "$w/pages.out" p99-ms)" ms 100
row "  latency max" "$(kv "$w/pages.out" max-ms)" ms -
row "  server peak RSS" "$rss_pages" MB 256
echo "  CPU: the server $cpu_pages s, the load generator $(kv "$w/pages.out" cpu-s) s, of $(($(nproc) * secs)) s ($(nproc) cores × ${secs} s)"
echo "live: $conns connections opened in $(kv "$w/live.out" open-ms) ms, $(kv "$w/live.out" writes) writes (roll, $(kv "$w/live.out" write-p50-ms) ms each)"
row "  write errors" "$(kv "$w/live.out" write-errors)" "" 0
row "  connections dropped" "$(kv "$w/live.out" dropped)" "" 0
atleast "  heads heard (of the writes)" "$(kv "$w/live.out" heads-heard)" "" "$(kv "$w/live.out" writes)"
atleast "  connections hearing each, fewest" "$(kv "$w/live.out" fewest-heard)" "" "$conns"
row "  delay p50" "$(kv "$w/live.out" delay-p50-ms)" ms -
row "  delay p99" "$(kv "$w/live.out" delay-p99-ms)" ms 1000
row "  delay max" "$(kv "$w/live.out" delay-max-ms)" ms -
row "  server peak RSS" "$rss_live" MB 256
# livepages OUT RSS: the rows of a live pages load.
livepages() {
	row "  fetch errors" "$(kv "$1" page-errors)" "" 0
	row "  pages never showing a write" "$(kv "$1" pages-missed)" "" 0
	atleast "  connections hearing each, fewest" "$(kv "$1" fewest-heard)" "" "$conns"
	row "  event delay p99" "$(kv "$1" delay-p99-ms)" ms 1000
	row "  page updated, p50" "$(kv "$1" page-p50-ms)" ms -
	row "  page updated, p99" "$(kv "$1" page-p99-ms)" ms 1000
	row "  page updated, max" "$(kv "$1" page-max-ms)" ms -
	row "  server peak RSS" "$2" MB 256
}
if [[ ${LIVE_PAGES:-1} != 0 ]]; then
	echo "live pages: $conns pages of the $urls, fetched again on each of $(kv "$w/lpages.out" writes) writes"
	livepages "$w/lpages.out" "$rss_lpages"
	echo "live pages but the audits: $conns pages of the $(wc -l <"$w/noaudit.txt"), $(kv "$w/npages.out" writes) writes"
	livepages "$w/npages.out" "$rss_npages"
fi
echo "server RSS at start: $rss_start MB"
