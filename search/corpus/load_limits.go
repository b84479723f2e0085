package corpus

import (
	"strings"
	"unicode/utf8"
)

// Limits bound what one record may cost. Real abstracts stay under 3,000
// characters; a runaway record (a whole PDF pasted as the abstract) would
// otherwise cost seconds of indexing and hundreds of MB, and its every URL
// would become a code link. The zero value means the defaults.
type Limits struct {
	// MaxAbstract is the most characters (runes) of an abstract that are
	// kept; a longer abstract is cut at a word boundary and reported in
	// Corpus.Problems, the paper kept. 0 means DefaultMaxAbstract.
	MaxAbstract int
}

// DefaultMaxAbstract is far above any real abstract (the longest of 5,879
// real ones has 5,000 characters).
const DefaultMaxAbstract = 20000

// MaxCodeLinks is the most code or project links kept per paper; further
// links are dropped and reported in Corpus.Problems. Real abstracts link at
// most a handful.
const MaxCodeLinks = 20

func (lim Limits) maxAbstract() int {
	if lim.MaxAbstract <= 0 {
		return DefaultMaxAbstract
	}
	return lim.MaxAbstract
}

// capAbstract cuts r's abstract to the limit, reporting it.
func (l *loader) capAbstract(r *rawPaper) {
	limit := l.lim.maxAbstract()
	if len(r.abstract) <= limit { // bytes >= runes: short enough
		return
	}
	n := utf8.RuneCountInString(r.abstract)
	if n <= limit {
		return
	}
	r.abstract = cutRunes(r.abstract, limit)
	l.problem(r.src, "abstract has %d characters; kept the first %d (the abstract limit)", n, utf8.RuneCountInString(r.abstract))
}

// cutRunes returns the longest prefix of s of at most n runes that ends at
// a word boundary (or at n runes when the tail has no space).
func cutRunes(s string, n int) string {
	end := len(s)
	for i := range s {
		if n == 0 {
			end = i
			break
		}
		n--
	}
	cut := s[:end]
	if sp := strings.LastIndexAny(cut, " \t\n"); sp > end/2 {
		cut = cut[:sp]
	}
	return cut
}

// capLinks keeps at most MaxCodeLinks of p's code links, reporting it.
func (pl *pipeline) capLinks(p *Paper) {
	if len(p.CodeURLs) > MaxCodeLinks {
		pl.problem(p.Source, "%d code links; kept the first %d", len(p.CodeURLs), MaxCodeLinks)
		p.CodeURLs = p.CodeURLs[:MaxCodeLinks:MaxCodeLinks]
	}
}
