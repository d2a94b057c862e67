#!/usr/bin/env bash
# Mutation testing: how many deliberate one-token bugs (a < made <=, a +
# made -, a condition negated) the tests catch, where the rules and the
# folds live (issue 27). A script for people and a scheduled job, not part
# of every CI run: each mutant is a build and a run of its package's tests.
#
#   bash bench/mutation.sh [PKG...]
#
# PKG is a package folder; with none, all of:
#
#   rules             every file                           goal: 90%
#   rules/interceptor every file                           goal: 90%
#   projections       the folds: sheet, ledger, campaign, reverts,
#                     reverts_base, audit, detailed_ship   goal: 90%
#   campaign          undo.go and undo_locate.go           goal: 85%
#
# It runs go-gremlins/gremlins v0.6.0 (from the Go module proxy, built once
# into $LTSCAMP_BENCH_DIR, default /tmp/ltscamp-bench) with its default
# mutators, each mutant against the tests of its own package, and prints
# for each package
#
#   mutation score: NN.N% (caught/tried)
#
# caught: the mutants a test failed on (killed) or that made the tests run
# out of time (timed out: an endless loop is caught too). tried: those and
# the mutants no test failed on (lived).
#
# gremlins tries a mutant only inside a block of Go's coverage profile, and
# the profile has no block over a switch's case expressions or a constant:
# it reports those "not covered" untried. The script applies each of them
# itself, one at a time in a copy of the module (the same one-token change
# gremlins names: < made <=, == made !=, + made -, ...), and runs the
# package's tests: a test that fails catches it, and one no test runs
# lives, as a mutant in code no test reaches should.
# Equivalent mutants, which cannot change what the program does, are listed
# in bench/mutation-equivalent.txt with a one-line reason each and are not
# counted; the survivors are listed after the score, to read. See
# docs/development.md, "Mutation testing". WORKERS (default: the cores)
# sets gremlins' workers; the JSON reports go to $LTSCAMP_BENCH_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# gremlins times each mutant's tests against its first, unmutated run: a
# cached result would make that run look instant and every mutant time out.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"
dir=${LTSCAMP_BENCH_DIR:-/tmp/ltscamp-bench}
mkdir -p "$dir"
workers=${WORKERS:-$(nproc)}
gremlins=$dir/gremlins-v0.6.0
if [[ ! -x $gremlins ]]; then
	GOBIN=$dir/gobin go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
	mv "$dir/gobin/gremlins" "$gremlins"
fi
command -v jq >/dev/null || { echo "mutation.sh: needs jq" >&2; exit 1; }
equivalent=bench/mutation-equivalent.txt

# targets PKG: the files of PKG not mutated, as a regexp on a file's name
# within its package (gremlins' --exclude-files), "" when every file is.
targets() {
	case $1 in
	# gremlins takes the folders under a package too: rules/interceptor
	# has its own run.
	rules) echo '^interceptor/' ;;
	projections) echo '^(attack_text|describe|detailed_reroll|detailed_rolls|dice|dice_report|dogfight|replay|shares|sheet_clone|sheet_types|ship|snapshot|timeline|turns|whatif)\.go$' ;;
	# Every file but undo.go and undo_locate.go (RE2 has no look-ahead).
	campaign) echo '^([^u]|u[^n]|un[^d]|undo[^._]|undo_[^l]|undo_l[^o]|undo_lo[^c]).*\.go$' ;;
	*) echo "" ;;
	esac
}

# byhand PKG MUTANTS: applies each NOT_COVERED mutant of the list MUTANTS
# ("file:line:col TYPE STATUS" lines) in a copy of the module, runs PKG's
# tests on it, and writes the list again with the outcome in its place.
byhand() {
	local pkg=$1 list=$2 copy line file ln col type t0 limit status res rc
	grep -q ' NOT_COVERED$' "$list" || return 0
	copy=$(mktemp -d)
	git ls-files -co --exclude-standard -z | tar --null --ignore-failed-read -cf - -T - 2>/dev/null | tar -xf - -C "$copy"
	t0=$(date +%s)
	(cd "$copy" && go test "./$pkg" >/dev/null 2>&1) || { echo "mutation.sh: $pkg's tests fail before any mutant" >&2; rm -rf "$copy"; return 1; }
	limit=$(( ($(date +%s) - t0 + 1) * 10 ))
	(( limit >= 60 )) || limit=60
	echo "== $pkg: $(grep -c ' NOT_COVERED$' "$list") mutants gremlins did not try, applied one at a time (limit ${limit}s each)" >&2
	while read -r line; do
		read -r file type status <<<"$line"
		if [[ $status != NOT_COVERED ]]; then
			echo "$line"
			continue
		fi
		IFS=: read -r file ln col <<<"$file"
		cp "$file" "$copy/$file.orig"
		if ! awk -v L="$ln" -v C="$col" -v T="$type" -f bench/mutate.awk "$file" >"$copy/$file"; then
			mv "$copy/$file.orig" "$copy/$file"
			echo "$file:$ln:$col $type NOT_COVERED (no $type at that place to apply)"
			continue
		fi
		rc=0
		res=$(cd "$copy" && timeout "$limit" go test "./$pkg" 2>&1) || rc=$?
		case $rc in
		0) status=LIVED ;;
		124) status=TIMED_OUT ;;
		*) if grep -q '\[build failed\]\|\[setup failed\]' <<<"$res"; then status=NOT_VIABLE; else status=KILLED; fi ;;
		esac
		mv "$copy/$file.orig" "$copy/$file"
		echo "$file:$ln:$col $type $status (applied by the script: gremlins did not cover it)"
	done <"$list" >"$list.new"
	mv "$list.new" "$list"
	rm -rf "$copy"
}

pkgs=("$@")
(( ${#pkgs[@]} )) || pkgs=(rules rules/interceptor projections campaign)
for pkg in "${pkgs[@]}"; do
	pkg=${pkg#./}
	pkg=${pkg%/}
	[[ -d $pkg ]] || { echo "mutation.sh: no package folder $pkg" >&2; exit 2; }
	out=$dir/mutation-${pkg//\//-}.json
	mutants=$dir/mutants-${pkg//\//-}.txt
	args=(unleash --workers "$workers" --timeout-coefficient 10 -o "$out")
	ex=$(targets "$pkg")
	[[ -n $ex ]] && args+=(--exclude-files "$ex")
	echo "== $pkg: gremlins ${args[*]} ./$pkg" >&2
	rm -f "$out" # a run that stops writes none: never read the last one's
	"$gremlins" "${args[@]}" "./$pkg" >"$dir/mutation-${pkg//\//-}.log" 2>&1 || true
	[[ -s $out ]] || { echo "mutation.sh: gremlins wrote no report for $pkg (see $dir/mutation-${pkg//\//-}.log)" >&2; exit 1; }
	# Every mutant as "file:line:col TYPE STATUS", the file relative to the
	# module (gremlins names it within the package).
	jq -r --arg pkg "$pkg" '.files[] | .file_name as $f | .mutations[] |
		"\(if ($f | startswith($pkg + "/")) then $f else $pkg + "/" + $f end):\(.line):\(.column) \(.type) \(.status | gsub(" "; "_"))"' "$out" |
		sort -t: -k1,1 -k2,2n -k3,3n >"$mutants"
	byhand "$pkg" "$mutants"
	equiv=$(awk 'NF && $1 !~ /^#/ { print $1 " " $2 }' "$equivalent" 2>/dev/null | sort -u || true)
	awk -v equiv="$equiv" '
		BEGIN { n = split(equiv, e, "\n"); for (i = 1; i <= n; i++) skip[e[i]] = 1 }
		{
			key = $1 " " $2
			if ($3 == "NOT_VIABLE" || $3 == "SKIPPED") next
			if (key in skip) { eq++; next }
			tried++
			if ($3 == "KILLED" || $3 == "TIMED_OUT") caught++
			else missed[++m] = $0
		}
		END {
			printf "%s: mutation score: %.1f%% (%d/%d)", PKG, tried ? 100 * caught / tried : 0, caught, tried
			if (eq) printf ", %d equivalent left out", eq
			printf "\n"
			for (i = 1; i <= m; i++) print "  survived: " missed[i]
		}' PKG="$pkg" "$mutants"
done
