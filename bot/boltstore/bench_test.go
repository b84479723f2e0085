package boltstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
)

// BenchmarkDigestCycle measures one digest's store work: claim, choose five
// papers, mark posted (three fsynced transactions).
func BenchmarkDigestCycle(b *testing.B) {
	s, err := boltstore.Open(filepath.Join(b.TempDir(), boltstore.FileName), boltstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Create(ctx, digesttest.Sub("saaaaa", "C1", "U1", 0)); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		k := digesttest.Key("saaaaa", i)
		if _, _, err := s.Claim(ctx, digesttest.Claim(k, "C1")); err != nil {
			b.Fatal(err)
		}
		ids := []string{subID(5 * i), subID(5*i + 1), subID(5*i + 2), subID(5*i + 3), subID(5*i + 4)}
		if err := s.Choose(ctx, k, ids, digesttest.T0); err != nil {
			b.Fatal(err)
		}
		if err := s.MarkPosted(ctx, k, "1.1", digesttest.T0); err != nil {
			b.Fatal(err)
		}
	}
}
