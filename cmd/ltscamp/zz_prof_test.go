package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
)

func BenchmarkZZPlayRoll(b *testing.B) {
	dir := b.TempDir()
	tt := &testing.T{}
	_ = tt
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Now: time.Now}
	db := filepath.Join(dir, "c.ltscamp")
	for _, a := range [][]string{{"init"}, {"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"}} {
		e := *env
		e.Args = append([]string{"--db", db, "--actor", "gm"}, a...)
		if Main(&e) != 0 {
			b.Fatal(a)
		}
	}
	s, err := campaign.Open(db, campaign.Options{Now: time.Now, Actor: "gm", SnapEvery: playSnapEvery})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	p := &playSession{env: env, db: db, svc: s, actor: "gm"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := p.Run("roll 3/DX --char Ajax --dice 1,2,3 -q", io.Discard, io.Discard); c != 0 {
			b.Fatal(c)
		}
	}
}
