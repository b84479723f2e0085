package search

import (
	"math"
	"unicode"
	"unicode/utf8"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// Candidates are re-scored here with textbook BM25, because bleve's own
// scores are not: its average field length comes from dictionary sizes per
// segment (FACTS.md), term frequency is square-rooted, every term weight is
// squared into a query norm, and disjunctions multiply by a coordination
// factor. bleve finds the candidates; this decides their order.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// statsSample is how many papers, evenly spread, estimate the average
	// lengths: enough for a stable mean, cheap at any corpus size.
	statsSample = 2000
)

// bm25 is the BM25 weight of a term with frequency tf in a field of length
// dl when the average is avgdl.
func bm25(idf, tf, dl, avgdl float64) float64 {
	if tf <= 0 {
		return 0
	}
	return idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
}

// rankStats are the averages BM25 normalises by, and the document
// frequencies of character 3-grams, estimated from an even sample of at
// most about statsSample papers (exact up to that size): a 3-gram field in
// the index would cost more to build than it is worth. A 3-gram the sample
// lacks counts as the rarest. The sample is taken at build time and kept
// with the index (index_meta.go); papers added later join it while it is
// smaller than statsSample.
type rankStats struct {
	avgWords float64          // body tokens (the title counted twice)
	avgGrams float64          // body 3-grams
	gramDF   map[uint64]int32 // in the sample
	sampled  int
	// firstStage is what bleve's BM25 normalises by (firstStageStats),
	// as every search passes it (preSearch, made once: bleve only reads
	// it); nil for an index built before the sample kept title and author
	// lengths, which bleve then derives itself.
	firstStage *bsearch.BM25Stats
	preSearch  map[string]any
}

// newRankStats derives the ranking statistics from the sample; fields are
// the index's indexed fields (indexedFields).
func newRankStats(sum sampleSums, gramDF map[uint64]int32, papers int, fields []string) rankStats {
	k := float64(max(sum.Sampled, 1))
	rs := rankStats{avgWords: max(1, sum.Words/k), avgGrams: max(1, sum.Grams/k), gramDF: gramDF, sampled: sum.Sampled,
		firstStage: firstStageStats(sum, papers, fields)}
	if rs.firstStage != nil {
		rs.preSearch = map[string]any{bsearch.BM25PreSearchDataKey: rs.firstStage}
	}
	return rs
}

// firstStageShare scales the mean field lengths bleve's BM25 (the first
// stage, which picks the candidates) is given. Left to itself, bleve
// derives the average length from dictionary sizes per segment (FACTS.md):
// about a tenth of the true mean, and different for an index built in
// memory (a segment per batch) and the same papers on disk (merged). Over
// the ML papers the two gave 121 of 7,151 queries (the ICLR keywords and
// TL;DRs, SciFact's claims) a different first five. A share of the
// sample's mean is the same for every layout. Chosen on the train splits:
// 0.05 to 0.15 keep every figure of bleve's own within 0.005; 0.4 and 1
// (textbook BM25) refuse one more absent lab topic but lower SciFact's
// Recall@100 from 0.931 to 0.927 and 0.921.
const firstStageShare = 0.15

// firstStageStats are the document count and per-field token totals bleve
// divides into an average length, for each of fields: the sample's means
// times firstStageShare for the title, body and authors, one token for the
// others (keywords, numbers, dates). nil when no paper of the sample had
// its title measured (an index built before they were) or there are no
// papers.
func firstStageStats(sum sampleSums, papers int, fields []string) *bsearch.BM25Stats {
	if sum.Sampled == 0 || sum.Measured == 0 || papers == 0 {
		return nil
	}
	n := float64(papers)
	total := func(perPaper float64) int {
		// At least a token a paper: a field the sample never saw filled
		// (SciFact has no authors) may be filled in papers added later.
		return max(papers, int(math.Ceil(firstStageShare*perPaper*n)))
	}
	// "*" is the field bleve names the bitmap it ORs a filter's terms into
	// (a date range, several categories): unscored, but looked up.
	card := map[string]int{"*": papers}
	for _, f := range fields {
		card[f] = papers
	}
	measured := float64(sum.Measured)
	card[fieldTitle] = total(sum.Title / measured)
	card[fieldBody] = total(sum.Words / float64(sum.Sampled))
	card[fieldAuthors] = total(sum.Authors / measured)
	return &bsearch.BM25Stats{DocCount: n, FieldCardinality: card}
}

func (s *state) rankStats() *rankStats { return &s.stats }

// gramIDF is the BM25 idf of a 3-gram, its document frequency scaled up
// from the sample.
func (s *state) gramIDF(key uint64) float64 {
	cs := s.rankStats()
	n := float64(max(s.meta.Papers, 1))
	df := float64(cs.gramDF[key]) * n / float64(max(cs.sampled, 1))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// gramKey packs three lower-cased runes into one number.
func gramKey(a, b, c rune) uint64 {
	return uint64(a)<<42 | uint64(b)<<21 | uint64(c)
}

// eachGram calls fn with every character 3-gram of text's words, as the
// grams analyzer makes them: letters and digits lower-cased, words joined
// across a hyphen between two of them ("IL-6" is "il6").
func eachGram(text string, fn func(uint64)) {
	var w [3]rune // the last three runes of the current word
	n := 0
	prevHyphen := false
	for i := 0; i < len(text); {
		var r rune
		if c := text[i]; c < utf8.RuneSelf {
			// ASCII fast path: this runs over every candidate's text.
			r = rune(c)
			i++
			switch {
			case 'A' <= c && c <= 'Z':
				r += 'a' - 'A'
				fallthrough
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				prevHyphen = false
				w[0], w[1], w[2] = w[1], w[2], r
				if n++; n >= 3 {
					fn(gramKey(w[0], w[1], w[2]))
				}
				continue
			}
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(text[i:])
			i += size
			if d, ok := scriptDigit(r); ok {
				r = rune(d) // "IC₅₀" as "IC50", as the word analyzer reads it
			}
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
				prevHyphen = false
				r = unicode.ToLower(r)
				if name, greek := greekNames[r]; greek {
					// A Greek letter is its name, as the word analyzer spells it.
					for _, g := range name {
						w[0], w[1], w[2] = w[1], w[2], g
						if n++; n >= 3 {
							fn(gramKey(w[0], w[1], w[2]))
						}
					}
					continue
				}
				w[0], w[1], w[2] = w[1], w[2], r
				if n++; n >= 3 {
					fn(gramKey(w[0], w[1], w[2]))
				}
				continue
			}
		}
		if isHyphen(r) && n > 0 && !prevHyphen && i < len(text) {
			next, _ := utf8.DecodeRuneInString(text[i:])
			if unicode.IsLetter(next) || unicode.IsDigit(next) {
				prevHyphen = true
				continue
			}
		}
		n = 0
		prevHyphen = false
	}
}

// queryGrams are a query's distinct 3-grams: slot maps each to its place in
// idf (and in a paper's counts, so scoring a paper allocates one slice).
type queryGrams struct {
	slot map[uint64]int
	idf  []float64
	// mask has a bit set per query gram's bucket: most of a paper's grams
	// are rejected by it without a map look-up.
	mask uint64
}

// gramBucket spreads a gram key over the 64 bits of queryGrams.mask.
func gramBucket(k uint64) uint64 { return 1 << ((k * 0x9E3779B97F4A7C15) >> 58) }

func (s *state) queryGrams(words []string) *queryGrams {
	q := &queryGrams{slot: map[uint64]int{}}
	for _, w := range words {
		eachGram(w, func(k uint64) {
			if _, ok := q.slot[k]; !ok {
				q.slot[k] = len(q.idf)
				q.idf = append(q.idf, s.gramIDF(k))
				q.mask |= gramBucket(k)
			}
		})
	}
	return q
}

// gramScore is the BM25 score of paper p for the query's 3-grams.
func (s *state) gramScore(p *record, q *queryGrams) float64 {
	if len(q.idf) == 0 {
		return 0
	}
	tf := make([]float64, len(q.idf))
	dl := 0.0
	count := func(weight float64) func(uint64) {
		return func(k uint64) {
			dl += weight
			if q.mask&gramBucket(k) == 0 {
				return
			}
			if j, ok := q.slot[k]; ok {
				tf[j] += weight
			}
		}
	}
	eachGram(titleText(&p.Paper), count(2))
	eachGram(p.Abstract, count(1))
	avg := s.rankStats().avgGrams
	var score float64
	for j, f := range tf {
		score += bm25(q.idf[j], f, dl, avg)
	}
	return score
}

// wordScore is the BM25 score of a matched paper over the query's groups:
// each group's frequency counts its hits (title twice) at their credit.
func (s *state) wordScore(p *record, m *docMatch, groups []group) float64 {
	d := s.doc(p)
	dl := float64(2*len(d.title) + len(d.abstract))
	avg := s.rankStats().avgWords
	var score float64
	for gi, g := range groups {
		score += bm25(g.weight, m.tf[gi], dl, avg)
	}
	return score
}

// pairScore is the BM25 of the query's neighbouring word pairs as pairs:
// how often the paper has the two next to each other, in order, with at
// most one stop word between ("model merging", "loss of function"), the
// title counted twice. A pair weighs as rare as papers write it
// (mt.pairIDF), and never less than its commoner word.
func (s *state) pairScore(p *record, mt *matcher) float64 {
	groups := mt.groups
	if len(groups) < 2 {
		return 0
	}
	d := s.doc(p)
	// word reports whether stem is one of group gi's single words (the
	// matcher's index, as match uses it).
	word := func(stem string, gi int) bool {
		for _, r := range mt.byStem[stem] {
			if r.group == gi && r.terms == nil {
				return true
			}
		}
		return false
	}
	tf := make([]float64, len(groups)-1)
	count := func(toks []dtoken, times float64) {
		for j, t := range toks {
			prev := -1
			for _, r := range mt.byStem[t.stem] {
				// A group's refs are contiguous (newMatcher): count each once.
				gi := r.group
				if r.terms != nil || gi == prev || gi+1 >= len(groups) {
					continue
				}
				prev = gi
				for k := j + 1; k < len(toks) && toks[k].pos <= t.pos+2; k++ {
					if toks[k].pos > t.pos && word(toks[k].stem, gi+1) {
						tf[gi] += times
						break
					}
				}
			}
		}
	}
	count(d.title, 2)
	count(d.abstract, 1)
	dl := float64(2*len(d.title) + len(d.abstract))
	var score float64
	for gi, f := range tf {
		w := min(groups[gi].weight, groups[gi+1].weight)
		if mt.pairIDF != nil {
			w = max(w, mt.pairIDF[gi])
		}
		score += bm25(w, f, dl, s.rankStats().avgWords)
	}
	return score
}

// A pair whose rarer word is in more than 1/pairCommon of the papers, or in
// more than pairMaxWalk of them, keeps the weight of its words: counting
// walks the rarer word's papers with their positions.
const (
	pairCommon  = 10
	pairMaxWalk = 1000
)

// pairIDFs returns, per pair of neighbouring single-word groups, the idf of
// the two words written together: "model collapse" is far rarer than
// "model" and "collapse" apart, and the papers that write it are about it.
// 0 for pairs that are not two single words, or that no paper writes.
func (s *state) pairIDFs(groups []group) []float64 {
	if len(groups) < 2 {
		return nil
	}
	out := make([]float64, len(groups)-1)
	// Past this, both words are common: written together often too, and
	// costly to count.
	maxRarer := min(s.vocab.n/pairCommon, pairMaxWalk)
	for gi := range out {
		a, b := groups[gi].alts[0], groups[gi+1].alts[0]
		if len(a.terms) != 1 || len(b.terms) != 1 || groups[gi].isMeta() || groups[gi+1].isMeta() {
			continue
		}
		if df := s.vocab.pairDF(a.terms[0], b.terms[0], maxRarer); df > 0 {
			out[gi] = bm25IDF(df, s.vocab.n)
		}
	}
	return out
}
