package corpus

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAssignIDsMatchesReference checks the compact assignIDs against the
// straightforward one it replaced (kept below), on keys made to collide:
// shared first windows, longer shared prefixes and equal keys. IDs must
// never change for a corpus that did not.
func TestAssignIDsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 5000
	keys := make([]idDigest, n)
	for i := range keys {
		keys[i] = sha256.Sum256([]byte("a:paper " + strconv.Itoa(i)))
		if i > 0 && i%7 == 0 {
			// Share 5 bytes (the first window), 6, 10 or all 32 with an earlier key.
			shared := []int{5, 6, 10, 32}[rng.IntN(4)]
			copy(keys[i][:shared], keys[rng.IntN(i)][:shared])
		}
	}
	got, want := make([]Paper, n), make([]Paper, n)
	assignIDs(got, keys)
	referenceAssignIDs(want, keys)
	collided := 0
	for i := range got {
		if got[i].ID != want[i].ID {
			t.Fatalf("paper %d: ID %q, reference %q", i, got[i].ID, want[i].ID)
		}
		if got[i].ID != idEncoding.EncodeToString(keys[i][:])[:IDLen] {
			collided++
		}
	}
	if collided < n/20 {
		t.Fatalf("only %d papers moved off their first window: the test forces too few collisions", collided)
	}
}

// referenceAssignIDs is assignIDs as it was before it was made compact.
func referenceAssignIDs(papers []Paper, keys []idDigest) {
	type cand struct {
		i   int
		enc string
		key idDigest
	}
	cands := make([]cand, len(papers))
	for i, k := range keys {
		cands[i] = cand{i: i, enc: idEncoding.EncodeToString(k[:]), key: k}
	}
	slices.SortFunc(cands, func(a, b cand) int { return strings.Compare(a.enc, b.enc) })
	taken := make(map[string]bool, len(papers))
	for _, c := range cands {
		id := ""
		for off := 0; ; off++ {
			if off+IDLen <= len(c.enc) {
				id = c.enc[off : off+IDLen]
			} else {
				sum := sha256.Sum256(append(c.key[:], "#"+strconv.Itoa(off)...))
				id = idEncoding.EncodeToString(sum[:])[:IDLen]
			}
			if !taken[id] {
				break
			}
		}
		taken[id] = true
		papers[c.i].ID = id
	}
}
