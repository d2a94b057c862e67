# Sourced by bench/play.sh and bench/serve.sh: the 1,000,000-event
# campaign they both measure, made once and kept.
#
# table1m DIR LT: prints the path of the campaign in DIR, generating it
# first when it is not there: `ltscamp-gen -characters 10 -events 100000
# -seed 42` (DIR/ltscamp-gen), then an encounter of 20 foes started with LT
# (the ltscamp binary): 30 combatants. Its log does not depend on the
# build, so later runs (of either script) reuse it.
table1m() {
	local dir=$1 lt=$2
	local src=$dir/gen-10x100000-seed42.ltscamp
	local table=$dir/table-10x100000-seed42.ltscamp
	if [[ ! -f $table ]]; then
		rm -f "$src"*
		local s
		s=$(date +%s%N)
		"$dir/ltscamp-gen" -characters 10 -events 100000 -seed 42 -o "$src" >"$dir/gen.log" 2>&1
		echo "generated $src in $((($(date +%s%N) - s) / 1000000)) ms: $(tail -1 "$dir/gen.log")" >&2
		rm -f "$table.tmp"*
		cp "$src" "$table.tmp"
		LTSCAMP_DB=$table.tmp "$lt" encounter start Boarding --foes "Pirate:ST12,DX12,IQ9,cutlass x20" >/dev/null 2>&1
		rm -f "$table.tmp-wal" "$table.tmp-shm"
		mv "$table.tmp" "$table"
		rm -f "$src"
	fi
	echo "$table"
}
