# mutate.awk: prints a Go file with one mutant applied, the one gremlins
# names by its place and type (bench/mutation.sh applies those gremlins
# reports "not covered" and so never tries). The operator at line L,
# column C (in bytes, from 1, as go/token counts) is replaced as gremlins
# v0.6.0's default mutators replace it:
#
#   CONDITIONALS_BOUNDARY  <  <=  >  >=   made  <=  <  >=  >
#   CONDITIONALS_NEGATION  == != < <= > >=  made  != == >= > <= <
#   ARITHMETIC_BASE        + - * / %      made  - + / * *
#   INVERT_NEGATIVES       unary -        made  +
#   INCREMENT_DECREMENT    ++ --          made  -- ++
#
#   awk -v L=LINE -v C=COLUMN -v T=TYPE -f bench/mutate.awk FILE
#
# It exits 1, the file printed unchanged, when no such operator is there.
BEGIN {
	m["CONDITIONALS_BOUNDARY", "<"] = "<="; m["CONDITIONALS_BOUNDARY", "<="] = "<"
	m["CONDITIONALS_BOUNDARY", ">"] = ">="; m["CONDITIONALS_BOUNDARY", ">="] = ">"
	m["CONDITIONALS_NEGATION", "=="] = "!="; m["CONDITIONALS_NEGATION", "!="] = "=="
	m["CONDITIONALS_NEGATION", "<"] = ">="; m["CONDITIONALS_NEGATION", "<="] = ">"
	m["CONDITIONALS_NEGATION", ">"] = "<="; m["CONDITIONALS_NEGATION", ">="] = "<"
	m["ARITHMETIC_BASE", "+"] = "-"; m["ARITHMETIC_BASE", "-"] = "+"
	m["ARITHMETIC_BASE", "*"] = "/"; m["ARITHMETIC_BASE", "/"] = "*"
	m["ARITHMETIC_BASE", "%"] = "*"
	m["INVERT_NEGATIVES", "-"] = "+"
	m["INCREMENT_DECREMENT", "++"] = "--"; m["INCREMENT_DECREMENT", "--"] = "++"
	two["<="] = two[">="] = two["=="] = two["!="] = two["++"] = two["--"] = 1
	done = 0
}
NR == L {
	op = substr($0, C, 2)
	if (!(op in two)) op = substr($0, C, 1)
	if ((T, op) in m) {
		$0 = substr($0, 1, C - 1) m[T, op] substr($0, C + length(op))
		done = 1
	}
}
{ print }
END { exit !done }
