package events

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// slowDecode is Decode without the fast decoders: encoding/json alone.
func slowDecode(typ string, b []byte) (Payload, error) {
	p := decoders[typ]()
	err := json.Unmarshal(b, p)
	return p, err
}

// fill sets v (addressable) to a random value: small numbers, short
// strings of letters, quotes, backslashes, newlines and multi-byte runes,
// slices of up to three elements, pointers now set and now nil.
func fill(rng *rand.Rand, v reflect.Value) {
	const alphabet = `abcXYZ019 -_/"\` + "\n\té日🎲"
	runes := []rune(alphabet)
	switch v.Kind() {
	case reflect.String:
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(runes[rng.IntN(len(runes))])
		}
		v.SetString(b.String())
	case reflect.Int:
		v.SetInt(int64(rng.IntN(2001) - 1000))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat(rng.Float64())
	case reflect.Slice:
		n := rng.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(rng, s.Index(i))
		}
		v.Set(s)
	case reflect.Pointer:
		if rng.IntN(2) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(rng, p.Elem())
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(rng, v.Field(i))
		}
	default:
		panic("fill: " + v.Kind().String())
	}
}

// TestFastDecodeMatchesEncodingJSON: every payload json.Marshal writes for
// a fast type, the fast decoder reads, and as encoding/json reads it.
func TestFastDecodeMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for typ, fast := range fastDecoders {
		for i := range 300 {
			p := decoders[typ]()
			fill(rng, reflect.ValueOf(p).Elem())
			raw, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				// Whitespace between the tokens, as a hand-written payload has.
				raw = []byte(strings.NewReplacer(`,"`, ", \"", `":`, `" : `, `{`, "{\n").Replace(string(raw)))
			}
			want, err := slowDecode(typ, raw)
			if err != nil {
				t.Fatalf("%s: %s: %v", typ, raw, err)
			}
			got, ok := fast(raw)
			if !ok {
				t.Fatalf("%s: the fast decoder declines what json.Marshal wrote: %s", typ, raw)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s\nfast     %#v\nencoding %#v", typ, raw, got, want)
			}
			dec, err := Decode(Event{Type: typ, PayloadVersion: 1, Payload: raw})
			if err != nil || !reflect.DeepEqual(dec, want) {
				t.Fatalf("%s: Decode gives %#v, %v", typ, dec, err)
			}
		}
	}
}

// TestFastDecodeDeclines: what encoding/json reads otherwise than a plain
// reading would, or refuses, the fast decoder leaves to it, and Decode
// gives what encoding/json gives.
func TestFastDecodeDeclines(t *testing.T) {
	for _, raw := range []string{
		`{"amount":1,"reason":"r","extra":2}`,     // unknown key: ignored by encoding/json
		`{"Amount":1,"reason":"r"}`,               // a key in another case
		`{"amount":1,"amount":2}`,                 // a key twice
		`{"amount":null,"reason":"r"}`,            // null leaves the field
		`{"amount":1.0}`,                          // not an integer: an error
		`{"amount":1e2}`,                          // nor this
		`{"amount":01}`,                           // not JSON
		`{"amount":"1"}`,                          // a string for a number
		`{"amount":99999999999999999999}`,         // overflows
		`{"amount":1,"reason":"\u00e9"}`,          // a \u escape
		"{\"amount\":1,\"reason\":\"\xff\"}",      // invalid UTF-8: replaced
		"{\"amount\":1,\"reason\":\"a\nb\"}",      // a raw control character
		`{"amount":1} x`,                          // trailing text
		`{"amount":1,}`,                           // trailing comma
		`{"amount":1,"at":{"adventure":1,"x":2}}`, // unknown key inside
		`{"at":null,"amount":1}`,                  // null pointer
		`null`,
		`[]`,
		``,
	} {
		if _, ok := fastDecoders[TypeXPAwarded]([]byte(raw)); ok {
			t.Errorf("the fast decoder reads %q", raw)
		}
		want, wantErr := slowDecode(TypeXPAwarded, []byte(raw))
		got, err := Decode(Event{Type: TypeXPAwarded, PayloadVersion: 1, Payload: []byte(raw)})
		if (err == nil) != (wantErr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%q) = %#v, %v; encoding/json gives %#v, %v", raw, got, err, want, wantErr)
		}
	}
}

// FuzzFastDecode: whatever the fast decoders read, they read as
// encoding/json does.
func FuzzFastDecode(f *testing.F) {
	f.Add(`{"character_id":"01KDXEWPW0AE67Z5NHD1S73TP4","character":"C0002","expr":"3/DX","kind":"check","dice":3,"sides":6,"faces":[2,3,6],"entered":false,"sum":11,"modifiers":[],"total":11,"target":18,"outcome":"pass","margin":7,"probability":1,"attribute_value":18,"edition":"2021"}`)
	f.Add(`{"at":{"adventure":1,"day":2,"encounter":3},"modifiers":[{"source":"curse ×1","value":1,"applies":"total"}],"probability":0.625,"faces":[]}`)
	f.Add(`{"days":1,"stayed_put":true,"healed":1,"note":"1 day (edition 2021 \"Recovery\")","edition":"2021"}`)
	f.Add(`{"on":"attribute","attribute":"ST","from":10,"to":11,"price":16,"formula":"current level + 6 = 10 + 6","edition":"2021"}`)
	f.Add(`{"command_id":"01KDXEWPW0AE67Z5NJ8BQGKTC3","cascade":["a","b"],"reason":"entered by mistake"}`)
	f.Add(`{"amount":-0,"reason":"a\\b\/c\td"}`)
	f.Fuzz(func(t *testing.T, raw string) {
		for typ, fast := range fastDecoders {
			got, ok := fast([]byte(raw))
			if !ok {
				continue
			}
			want, err := slowDecode(typ, []byte(raw))
			if err != nil {
				t.Fatalf("%s: the fast decoder reads %q, which encoding/json refuses: %v", typ, raw, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %q\nfast     %#v\nencoding %#v", typ, raw, got, want)
			}
		}
	})
}

// BenchmarkDecodeRoll decodes a roll's payload as a replay does, with the
// fast decoder and with encoding/json alone.
func BenchmarkDecodeRoll(b *testing.B) {
	e := Event{Type: TypeRollMade, PayloadVersion: 1, Payload: []byte(`{"character_id":"01KDXEWPW0AE67Z5NHD1S73TP4","character":"C0002","expr":"3/DX","kind":"check","dice":3,"sides":6,"faces":[2,3,6],"entered":false,"sum":11,"modifiers":[],"total":11,"target":18,"outcome":"pass","margin":7,"probability":1,"attribute_value":18,"edition":"2021"}`)}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := slowDecode(e.Type, e.Payload); err != nil {
				b.Fatal(err)
			}
		}
	})
}
