#!/usr/bin/env bash
# Issue 26's figures: `dice report` and `whatif` at 1M events, each a whole
# process, against `verify` on the same campaign in the same run (the
# floor the issue names: verify's scan of the whole log).
#
#   dice report --json            limit: 1.5 × verify's time, RSS ≤ 128 MB
#   whatif --edition 2021 --json  (the campaign's own edition: every event
#                                 replayed, nothing differs)
#   whatif --edition 2010 --json  (prices and rest decided again)
#                                 limit: 1.5 × verify's time, bounded RSS
#
#   bash bench/dice-whatif.sh [EVENTS_PER_CHARACTER [CHARACTERS]]
#
# The campaign is `ltscamp-gen -characters 200 -events 5000 -seed 42`
# (1,038,378 events), made once in $LTSCAMP_BENCH_DIR (default
# /tmp/ltscamp-bench) and reused while it is there (SRC=FILE names another).
# Each figure is the median of RUNS (default 3) runs; the peak RSS is the
# largest (GNU time). Needs Go, jq and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
per=${1:-5000}
chars=${2:-200}
runs=${RUNS:-3}
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-bench}
mkdir -p "$dir"
go build -o "$dir/ltscamp" ./cmd/ltscamp
go build -o "$dir/ltscamp-gen" ./cmd/ltscamp-gen
lt=$dir/ltscamp
export LTSCAMP_ACTOR=bench NO_COLOR=1
src=${SRC:-$dir/long-$chars-$per.ltscamp}
if [[ ! -s $src ]]; then
	"$dir/ltscamp-gen" -characters "$chars" -events "$per" -seed 42 -o "$src" >/dev/null 2>"$dir/gen.log"
fi
n=$("$lt" --db "$src" log --json --limit 1 2>/dev/null | jq -r .seq 2>/dev/null || echo "?")
own=$("$lt" --db "$src" dice report --json | jq -r .edition)

# measure NAME ARGS...: the median wall time (ms) and the largest peak RSS
# (MB) of RUNS runs, as "ms mb".
measure() {
	local ms=() mb=0 out
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$dir/time.txt" -f '%e %M' "$lt" --db "$src" "$@" >/dev/null
		out=$(tail -1 "$dir/time.txt")
		ms+=("$(awk '{printf "%d", $1 * 1000}' <<<"$out")")
		mb=$(awk -v a="$mb" '{m = $2 / 1024; print (m > a ? m : a)}' <<<"$out")
	done
	printf '%s %.0f\n' "$(printf '%s\n' "${ms[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "$mb"
}
read -r v_ms v_mb < <(measure verify)
read -r d_ms d_mb < <(measure dice report --json)
read -r w_ms w_mb < <(measure whatif --edition "$own" --json)
read -r x_ms x_mb < <(measure whatif --edition 2010 --json)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "campaign: $src, $n events, edition $own; medians of $runs runs; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-30s %8s %8s %10s  %s\n' work ms "RSS MB" "× verify" limit
printf '%-30s %8s %8s %10s  %s\n' "verify (the floor)" "$v_ms" "$v_mb" 1.00 ""
printf '%-30s %8s %8s %10s  %s\n' "dice report --json" "$d_ms" "$d_mb" "$(ratio "$d_ms" "$v_ms")" "≤ 1.5×, ≤ 128 MB"
printf '%-30s %8s %8s %10s  %s\n' "whatif --edition $own --json" "$w_ms" "$w_mb" "$(ratio "$w_ms" "$v_ms")" "≤ 1.5×, bounded"
printf '%-30s %8s %8s %10s  %s\n' "whatif --edition 2010 --json" "$x_ms" "$x_mb" "$(ratio "$x_ms" "$v_ms")" "≤ 1.5×, bounded"
