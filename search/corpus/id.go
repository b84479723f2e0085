package corpus

import (
	"crypto/sha256"
	"encoding/base32"
	"slices"
	"strconv"
	"strings"
)

// IDLen is the length of a paper ID.
const IDLen = 8

// idEncoding is lower-case Crockford base32: digits and letters without i,
// l, o and u, so IDs are easy to read aloud and type.
var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// idKey is what a paper's ID is derived from: its abstract as found in the
// file (before clean-up, so improving clean-up never renames papers),
// normalised to lower-case letters and digits. Titles are left out so that
// adding or correcting metadata keeps IDs; the abstract is unique after
// de-duplication.
func idKey(r rawPaper) string {
	if k := normKey(r.abstract); k != "" {
		return "a:" + k
	}
	return "t:" + normKey(r.title)
}

// idDigest is the SHA-256 of a paper's idKey.
type idDigest [sha256.Size]byte

// assignIDs gives every paper an ID of IDLen characters taken from the
// SHA-256 of its key (keys are those digests). IDs depend only on content, not on file order. When
// two keys share a prefix, the paper with the smaller hash keeps it and the
// other takes the next window of its hash, so resolution is deterministic.
func assignIDs(papers []Paper, keys []idDigest) {
	type cand struct {
		i   int
		enc string
		key idDigest
	}
	cands := make([]cand, len(papers))
	for i, k := range keys {
		cands[i] = cand{i: i, enc: idEncoding.EncodeToString(k[:]), key: k}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return strings.Compare(a.enc, b.enc) // equal only for equal keys
	})
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
