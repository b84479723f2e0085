package search

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Hash returns a hex SHA-256 over the content of every paper (all fields but
// Source), taken in ID order: it does not depend on file order, and it
// changes when any paper, or the set of papers, changes. It is safe to call
// concurrently with other reads of c.
func (c *Corpus) Hash() string {
	ps := make([]*Paper, len(c.Papers))
	for i := range c.Papers {
		ps[i] = &c.Papers[i]
	}
	slices.SortFunc(ps, func(a, b *Paper) int { return strings.Compare(a.ID, b.ID) })
	h := sha256.New()
	for _, p := range ps {
		writeField(h, p.ID, p.Title, p.Headline, p.Venue, strconv.Itoa(p.Year), p.URL, p.Abstract)
		writeField(h, p.Authors...)
		writeField(h, p.CodeURLs...)
		writeField(h, p.Keywords...)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeField writes length-prefixed strings, so field boundaries cannot shift.
func writeField(h hash.Hash, ss ...string) {
	fmt.Fprintf(h, "%d;", len(ss))
	for _, s := range ss {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
}

// corpus cleans the loaded records into papers, drops duplicates and
// assigns IDs.
func (l *loader) corpus(names []string) (*Corpus, error) {
	c := &Corpus{Skipped: l.skipped, Problems: l.problems}
	if l.omitted > 0 {
		c.Problems = append(c.Problems, fmt.Sprintf("... and %d more problems not listed", l.omitted))
	}
	papers := cleanAll(l.raws)
	seen := make(map[string]bool, 2*len(papers))
	keys := make([]string, 0, len(papers))
	for i, p := range papers {
		tk, ak := "t:"+normKey(p.Title), "a:"+normKey(p.Abstract)
		if (tk != "t:" && seen[tk]) || (ak != "a:" && seen[ak]) {
			c.Duplicates++
			continue
		}
		seen[tk], seen[ak] = true, true
		c.Papers = append(c.Papers, p)
		keys = append(keys, idKey(l.raws[i]))
	}
	if len(c.Papers) == 0 {
		return nil, invalidf(opLoad, "no papers found in %s", strings.Join(names, ", "))
	}
	assignIDs(c.Papers, keys)
	return c, nil
}

// normKey normalises text for comparison: lower case, letters and digits
// only, single spaces.
func normKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
