package rules

import (
	"strings"
	"unicode/utf8"
)

// Suggest returns the candidate nearest to input, for "did you mean"
// messages. Names are compared case-insensitively, rune by rune (so accented
// names count one edit per letter), ignoring surrounding space. A candidate
// is returned only when its edit distance is at most max(2, runes/3) of the
// trimmed input and it differs from the input (in spelling, case or
// surrounding space); ties go to the earliest candidate.
func Suggest(input string, candidates []string) (string, bool) {
	in := strings.TrimSpace(input)
	if in == "" || len(candidates) == 0 {
		return "", false
	}
	inRunes := []rune(strings.ToLower(in))
	limit := max(2, utf8.RuneCountInString(in)/3)
	best, bestDist := -1, 0
	for i, c := range candidates {
		d := levenshtein(inRunes, []rune(strings.ToLower(strings.TrimSpace(c))))
		if best < 0 || d < bestDist {
			best, bestDist = i, d
		}
	}
	if bestDist > limit || candidates[best] == input {
		return "", false
	}
	return candidates[best], true
}

// SuggestPrefix returns the one candidate that starts with input (at least
// three letters, compared ignoring case and surrounding space), for "did
// you mean" when a name was cut short: "Nav" finds "Navigation, Stellar".
// Several candidates sharing the prefix are no suggestion.
func SuggestPrefix(input string, candidates []string) (string, bool) {
	in := strings.ToLower(strings.TrimSpace(input))
	if utf8.RuneCountInString(in) < 3 {
		return "", false
	}
	found := ""
	for _, c := range candidates {
		if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(c)), in) || strings.EqualFold(strings.TrimSpace(c), in) {
			continue
		}
		if found != "" && found != c {
			return "", false
		}
		found = c
	}
	return found, found != ""
}

// levenshtein is the edit distance between a and b (insertions, deletions
// and substitutions each cost one), using two rows of memory as long as b.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
