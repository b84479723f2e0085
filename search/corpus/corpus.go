package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Hash returns a hex SHA-256 over every paper's ID and ContentHash, taken
// in ID order: it does not depend on file order, and it changes when any
// paper, or the set of papers, changes. An index can keep it up to date
// from per-paper hashes alone (HashOf). It is safe to call concurrently
// with other reads of c.
func (c *Corpus) Hash() string {
	entries := make([]HashEntry, len(c.Papers))
	for i := range c.Papers {
		entries[i] = HashEntry{ID: c.Papers[i].ID, Content: ContentHash(&c.Papers[i])}
	}
	slices.SortFunc(entries, func(a, b HashEntry) int { return strings.Compare(a.ID, b.ID) })
	return HashOf(entries)
}

// HashEntry is one paper in a corpus hash.
type HashEntry struct {
	ID      string
	Content [16]byte
}

// HashOf is Corpus.Hash over entries already sorted by ID.
func HashOf(entries []HashEntry) string {
	var h Hasher
	for _, e := range entries {
		h.Add(e)
	}
	return h.Sum()
}

// Hasher computes HashOf one entry at a time, for callers that keep the
// entries in another form. The zero Hasher is ready to use.
type Hasher struct {
	h   hash.Hash
	buf []byte
}

// Add adds the next entry, in ID order.
func (h *Hasher) Add(e HashEntry) {
	if h.h == nil {
		h.h = sha256.New()
	}
	h.buf = appendFields(h.buf[:0], e.ID)
	h.h.Write(append(h.buf, e.Content[:]...))
}

// Sum returns the hash of the entries added.
func (h *Hasher) Sum() string {
	if h.h == nil {
		h.h = sha256.New()
	}
	return hex.EncodeToString(h.h.Sum(nil))
}

// ContentHash digests everything of p that is shown or indexed (all fields
// but ID, Source and FirstSeen): two versions of a paper differ exactly
// when their content hashes do.
func ContentHash(p *Paper) [16]byte {
	var buf []byte
	buf = appendFields(buf, p.Title, p.Headline, p.Venue, strconv.Itoa(p.Year), p.URL, p.Abstract)
	buf = appendFields(buf, p.Authors...)
	buf = appendFields(buf, p.CodeURLs...)
	buf = appendFields(buf, p.Keywords...)
	buf = appendFields(buf, p.Categories...)
	if !p.Announced.IsZero() {
		buf = appendFields(buf, p.Announced.UTC().Format(time.RFC3339Nano))
	} else {
		buf = appendFields(buf)
	}
	sum := sha256.Sum256(buf)
	return [16]byte(sum[:16])
}

// appendFields appends a count and length-prefixed strings, so field
// boundaries cannot shift.
func appendFields(buf []byte, ss ...string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(ss)))
	for _, s := range ss {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	return buf
}

// minAbstractWords is the size below which an abstract is reported as
// suspicious (scrapers leave stubs such as "Part of") and does not count as
// the same paper as another with the same stub.
const minAbstractWords = 8

// substantial reports whether an abstract has at least minAbstractWords words.
func substantial(abstract string) bool {
	n := 0
	for range strings.FieldsSeq(abstract) {
		if n++; n >= minAbstractWords {
			return true
		}
	}
	return false
}

// minTitleWords is the fewest words a title needs to name one paper, so
// that two records with it are one paper. Scrapes put placeholders where
// the title goes ("Summary", "Corresponding author:"): SciFact has three
// different abstracts under two of them. Shorter titles of one paper read
// twice still meet as the same abstract.
const minTitleWords = 3

// namesAPaper reports whether title has minTitleWords words.
func namesAPaper(title string) bool {
	n := 0
	for w := range strings.FieldsSeq(title) {
		if hasWord(w) {
			if n++; n >= minTitleWords {
				return true
			}
		}
	}
	return false
}

// normKey normalises text for comparison: lower case, letters and digits
// only, single spaces.
func normKey(s string) string { return string(appendNormKey(nil, s)) }

// appendNormKey appends the normKey of s to dst.
func appendNormKey(dst []byte, s string) []byte {
	dst = slices.Grow(dst, len(s))
	space := false
	start := len(dst)
	for i := 0; i < len(s); {
		ch := s[i]
		if ch < utf8.RuneSelf {
			if asciiKey[ch] == 0 {
				space = len(dst) > start
				i++
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			// Copy the whole ASCII word, then lower its case.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && asciiKey[s[j]] != 0 {
				j++
			}
			w := len(dst)
			dst = append(dst, s[i:j]...)
			for k := w; k < len(dst); k++ {
				dst[k] = asciiKey[dst[k]]
			}
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if d, ok := scriptDigits[r]; ok {
			r = d // "ℓ₁" and "l1" are the same key
		} else if r == 'ℓ' {
			r = 'l'
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// scriptDigits maps sub- and superscript digits to plain ones.
var scriptDigits = func() map[rune]rune {
	m := map[rune]rune{}
	for _, t := range []map[rune]rune{subscripts, superscripts} {
		for plain, script := range t {
			if '0' <= plain && plain <= '9' {
				m[script] = plain
			}
		}
	}
	return m
}()

// asciiKey maps ASCII letters and digits to their lower case, others to 0.
var asciiKey = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = c, c
	}
	return t
}()

// hasWord reports whether s has a letter or digit.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// dedupKey is a digest of a normalised title or abstract, tagged by kind;
// the zero key means the text was empty.
type dedupKey [sha256.Size]byte

// fingerprints is the set of titles and abstracts seen so far, held as the
// first 64 bits of their dedupKeys: 8 bytes a key instead of 32, so a
// million papers take tens of megabytes, not hundreds. Two different texts
// share a fingerprint with odds of about n²/2⁶⁵ (10⁻⁷ at two million keys),
// which would drop one of them as a duplicate.
type fingerprints map[uint64]struct{}

func (f fingerprints) has(k dedupKey) bool {
	if k == (dedupKey{}) {
		return false // empty text identifies nothing
	}
	_, ok := f[binary.LittleEndian.Uint64(k[:8])]
	return ok
}

func (f fingerprints) add(k dedupKey) {
	if k != (dedupKey{}) {
		f[binary.LittleEndian.Uint64(k[:8])] = struct{}{}
	}
}

func newDedupKey(kind byte, s string, buf []byte) (dedupKey, []byte) {
	buf = appendNormKey(append(buf[:0], kind), s)
	if len(buf) == 1 {
		return dedupKey{}, buf
	}
	return sha256.Sum256(buf), buf
}
