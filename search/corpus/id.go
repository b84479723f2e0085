package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"slices"
	"strconv"
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
//
// It holds a sorted index and a set of 64-bit IDs (an ID of IDLen = 8
// bytes is one uint64), about 30 bytes a paper, not every key's encoding:
// base32 with an ascending alphabet keeps byte order, so sorting the
// digests sorts their encodings.
func assignIDs(papers []Paper, keys []idDigest) {
	for i, id := range idsFor(keys) {
		papers[i].ID = string(id[:])
	}
}

// paperID is an assigned ID, IDLen bytes.
type paperID [IDLen]byte

// idsFor is assignIDs returning the IDs, in the order of keys.
func idsFor(keys []idDigest) []paperID {
	ids := make([]paperID, len(keys))
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return bytes.Compare(keys[a][:], keys[b][:]) // equal only for equal keys
	})
	taken := make(map[uint64]struct{}, len(keys))
	var enc [52]byte // idEncoding of a SHA-256
	for _, i := range order {
		k := keys[i]
		idEncoding.Encode(enc[:], k[:])
		var id []byte
		for off := 0; ; off++ {
			if off+IDLen <= len(enc) {
				id = enc[off : off+IDLen]
			} else {
				sum := sha256.Sum256(append(k[:], "#"+strconv.Itoa(off)...))
				id = []byte(idEncoding.EncodeToString(sum[:])[:IDLen])
			}
			if _, ok := taken[binary.LittleEndian.Uint64(id)]; !ok {
				break
			}
		}
		taken[binary.LittleEndian.Uint64(id)] = struct{}{}
		ids[i] = paperID(id)
	}
	return ids
}
