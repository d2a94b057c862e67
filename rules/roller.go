package rules

import (
	"crypto/rand"
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Roller rolls dice. Roll returns count faces, each from 1 to sides.
type Roller interface {
	Roll(count, sides int) ([]int, error)
}

// CryptoRoller rolls dice with crypto/rand, uniformly and without modulo
// bias. It is the production roller; the zero value is ready to use.
type CryptoRoller struct{}

// Roll rolls count dice of the given sides. It fails only on bad arguments
// or when the operating system's entropy source fails.
func (CryptoRoller) Roll(count, sides int) ([]int, error) {
	if err := checkRollArgs(count, sides); err != nil {
		return nil, err
	}
	faces := make([]int, count)
	n := big.NewInt(int64(sides))
	for i := range faces {
		v, err := rand.Int(rand.Reader, n)
		if err != nil {
			return nil, &Error{Code: CodeInternal, Message: "cannot roll dice: the system's random source failed: " + err.Error()}
		}
		faces[i] = int(v.Int64()) + 1
	}
	return faces, nil
}

// The most dice, and the most sides, any roller rolls at once: far past
// the game's 30d6 and d10, well short of a roll that would eat memory.
const (
	maxRollCount = 1000
	maxRollSides = 1000
)

// checkRollArgs rejects impossible rolls from any roller.
func checkRollArgs(count, sides int) error {
	if count < 1 || count > maxRollCount {
		return Errorf(CodeInvalid, "cannot roll %d dice: roll 1 to %d", count, maxRollCount)
	}
	if sides < 2 || sides > maxRollSides {
		return Errorf(CodeInvalid, "cannot roll a die with %d sides: give 2 to %d", sides, maxRollSides)
	}
	return nil
}

// GivenFaces is a Roller that hands out faces fixed in advance: the faces
// of physical dice a player rolled, or the faces a test needs. It is not
// safe for concurrent use.
type GivenFaces struct {
	faces []int
	next  int
}

// NewGivenFaces returns a roller that hands out faces in order. It keeps its
// own copy of faces.
func NewGivenFaces(faces []int) *GivenFaces {
	return &GivenFaces{faces: append([]int(nil), faces...)}
}

// Roll takes the next count faces. Each must be on the die (1 to sides) and
// there must be enough of them; otherwise it returns a CodeInvalid error and
// uses none.
func (g *GivenFaces) Roll(count, sides int) ([]int, error) {
	if err := checkRollArgs(count, sides); err != nil {
		return nil, err
	}
	left := len(g.faces) - g.next
	if left < count {
		word := "given"
		if g.next > 0 {
			word = "left"
		}
		return nil, Errorf(CodeInvalid, "%s needs %d %s, only %d %s",
			DiceExpr{Count: count, Sides: sides}, count, plural(count, "face", "faces"), left, word)
	}
	out := g.faces[g.next : g.next+count]
	for _, f := range out {
		if f < 1 || f > sides {
			return nil, Errorf(CodeInvalid, "face %d is not on a d%d (1-%d)", f, sides, sides)
		}
	}
	g.next += count
	return append([]int(nil), out...), nil
}

// Remaining returns how many faces have not been used yet; callers reject
// leftovers ("3 faces expected, 4 given").
func (g *GivenFaces) Remaining() int { return len(g.faces) - g.next }

// ParseFaces reads dice faces typed by a player: "1,3,6", "1, 3, 6" or
// "1 3 6". It checks only that each is a whole number; the roller checks
// that each is on the die. Errors are CodeInvalid.
func ParseFaces(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	fields := strings.FieldsFunc(t, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t'
	})
	if len(fields) == 0 {
		return nil, Errorf(CodeInvalid, "bad dice faces %q: no faces given; write them like 1,3,6", t)
	}
	faces := make([]int, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return nil, Errorf(CodeInvalid, "bad dice faces %q: %q is too large", t, f)
			}
			return nil, Errorf(CodeInvalid, "bad dice faces %q: %q is not a number", t, f)
		}
		faces = append(faces, n)
	}
	return faces, nil
}

// plural picks the singular or plural word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// rollChecked rolls with r and guards against a Roller that returns the
// wrong number of faces or faces off the die.
func rollChecked(r Roller, count, sides int) ([]int, error) {
	if r == nil {
		return nil, Errorf(CodeInternal, "no dice roller was given")
	}
	faces, err := r.Roll(count, sides)
	if err != nil {
		return nil, err
	}
	if len(faces) != count {
		return nil, Errorf(CodeInternal, "the dice roller returned %d faces for %dd%d", len(faces), count, sides)
	}
	for _, f := range faces {
		if f < 1 || f > sides {
			return nil, Errorf(CodeInternal, "the dice roller returned face %d for a d%d", f, sides)
		}
	}
	return faces, nil
}

// sum adds up faces.
func sum(faces []int) int {
	t := 0
	for _, f := range faces {
		t += f
	}
	return t
}
