package corpus

import (
	"reflect"
	"testing"
)

func TestCorpusSnapshotRoundTrip(t *testing.T) {
	seeds := seedCorpus(t)
	c := *seeds
	c.Problems = []string{"a.json:3: no abstract"}
	c.Skipped, c.Duplicates = 1, 2
	body := appendCorpus(nil, &c)
	got, err := decodeCorpus(body)
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash() != c.Hash() || got.Skipped != 1 || got.Duplicates != 2 || !reflect.DeepEqual(got.Problems, c.Problems) || !reflect.DeepEqual(got.Files, c.Files) {
		t.Fatalf("round trip changed the corpus")
	}
	for i := range c.Papers {
		if got.Papers[i].Source != c.Papers[i].Source || got.Papers[i].Authors == nil || got.Papers[i].CodeURLs == nil {
			t.Fatalf("paper %d: %+v", i, got.Papers[i])
		}
	}
}

// TestCorpusSnapshotDamage: a truncated or altered body is an error, never
// a panic or a wrong corpus.
func TestCorpusSnapshotDamage(t *testing.T) {
	seeds := seedCorpus(t)
	body := appendCorpus(nil, seeds)
	for _, n := range []int{0, 3, 4, 100, len(body) / 2, len(body) - 1} {
		if _, err := decodeCorpus(body[:n]); err == nil {
			t.Errorf("a body cut to %d bytes decoded", n)
		}
	}
	for _, at := range []int{0, 10, len(body) / 3, len(body) - 5} {
		bad := append([]byte(nil), body...)
		bad[at] ^= 0x40
		if _, err := decodeCorpus(bad); err == nil {
			t.Errorf("a body with byte %d flipped decoded", at)
		}
	}
}

// FuzzDecodeCorpus: whatever the bytes (with a valid checksum, so the
// decoder itself is exercised), decoding does not panic.
func FuzzDecodeCorpus(f *testing.F) {
	f.Add(appendCorpus(nil, &Corpus{Papers: []Paper{{ID: "x", Title: "t", Abstract: "a b"}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 {
			return
		}
		data := append([]byte(nil), b[:len(b)-4]...)
		_, _ = decodeCorpus(appendChecksum(data))
	})
}
