package projections

import (
	"reflect"
	"testing"
)

// TestXPAuditFailed: Failed lists the assertions that do not hold, in
// order, and none when every one holds.
func TestXPAuditFailed(t *testing.T) {
	balance := Assertion{Name: AssertBalance, OK: true, Detail: "earned 20 − spent 18 = 2 = the sheet's 2"}
	negative := Assertion{Name: AssertNeverNegative, OK: false, Detail: "−8 after seq 3"}
	prices := Assertion{Name: AssertPrices, OK: false, Detail: "seq 3 recorded 10; the rules charge 18 (current level + 6)"}
	for _, c := range []struct {
		as   []Assertion
		want []Assertion
	}{
		{nil, nil},
		{[]Assertion{balance}, nil},
		{[]Assertion{balance, negative, prices}, []Assertion{negative, prices}},
		{[]Assertion{prices, balance}, []Assertion{prices}},
	} {
		a := XPAudit{Character: "Ajax", Assertions: c.as}
		if got := a.Failed(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Failed() of %+v = %+v, want %+v", c.as, got, c.want)
		}
	}
}
