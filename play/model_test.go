package play

import "testing"

// TestLastWord: the word being typed is read as a shell reads it, quotes
// and backslashes undone, with where it starts.
func TestLastWord(t *testing.T) {
	tests := []struct {
		line, word string
		start      int
	}{
		{"", "", 0},
		{"sheet Hec", "Hec", 6},
		{"sheet ", "", 6},
		{"attack Ajax 'Pirate ", "Pirate ", 12},
		{`attack Ajax "Pirate 2`, "Pirate 2", 12},
		{`attack Ajax Pirate\ 2`, "Pirate 2", 12},
		{"attack Ajax 'Pirate 2' ", "", 23},
		{"xp spend Ajax skill:Me", "skill:Me", 14},
		{"roll 3/DX\t--char K", "K", 17},
	}
	for _, tc := range tests {
		word, start := lastWord(tc.line)
		if word != tc.word || start != tc.start {
			t.Errorf("lastWord(%q) = %q, %d; want %q, %d", tc.line, word, start, tc.word, tc.start)
		}
	}
}

// TestQuoteWord: a word with a space or a quote is quoted as a shell
// reads it, closed or left open for the next Tab.
func TestQuoteWord(t *testing.T) {
	tests := []struct {
		w      string
		closed bool
		want   string
	}{
		{"Hector", true, "Hector"},
		{"Pirate 1", true, "'Pirate 1'"},
		{"Pirate ", false, "'Pirate "},
		{"O'Neil 2", true, `'O'\''Neil 2'`},
	}
	for _, tc := range tests {
		if got := quoteWord(tc.w, tc.closed); got != tc.want {
			t.Errorf("quoteWord(%q, %v) = %q, want %q", tc.w, tc.closed, got, tc.want)
		}
		if w, _ := lastWord("sheet " + quoteWord(tc.w, tc.closed)); w != tc.w {
			t.Errorf("lastWord reads %q back as %q", tc.w, w)
		}
	}
}
