package search

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
)

// Everything derived from the papers at index time is kept in the index's
// internal storage, written in the same bleve batch as the papers it
// describes, so the two cannot disagree after a crash: the corpus hash and
// source stamp, venues, mined acronyms and the ranking sample (metaKey),
// and the sample's 3-gram document frequencies (gramsKey). Every paper's
// content hash and first-seen time (the manifest, read only to apply
// changes) is a file beside the index, named by the meta: scorch reads its
// whole internal storage at every open and writes it again with every
// snapshot, 35 MB at a million papers. An index in memory keeps the
// manifest in the internal storage (manifestKey).
const (
	metaKey     = "paperbot.meta"
	gramsKey    = "paperbot.grams"
	manifestKey = "paperbot.manifest"
	vectorsKey  = "paperbot.vectors"
)

// indexMeta is the small part of the index-time data, read at every open.
type indexMeta struct {
	Version string `json:"version"` // mappingVersion
	Hash    string `json:"hash"`    // Corpus.Hash of the papers indexed
	Papers  int    `json:"papers"`
	Skipped int    `json:"skipped"` // records skipped loading the corpus
	// Source is the caller's stamp of where the corpus came from
	// (Options.Source), opaque to search.
	Source   []byte         `json:"source,omitempty"`
	Venues   map[string]int `json:"venues"`
	Acronyms []minedPair    `json:"acronyms"`
	// Sample is the ranking sample (see rankStats): token and 3-gram sums
	// over Sampled papers.
	Sample sampleSums `json:"sample"`
	// Manifest names the file in the index directory that holds the paper
	// manifest; "" when it is in the internal storage (manifestKey).
	Manifest string `json:"manifest,omitempty"`
	// Vectors names the file in the index directory that holds the
	// papers' meaning vectors; "" when they are in the internal storage
	// (vectorsKey) or there are none.
	Vectors string `json:"vectors,omitempty"`
}

type minedPair struct {
	Short string `json:"s"`
	Long  string `json:"l"`
	Count int    `json:"n"`
}

type sampleSums struct {
	Words   float64 `json:"words"`
	Grams   float64 `json:"grams"`
	Sampled int     `json:"sampled"`
	// Title and Authors are the tokens of those fields over Measured papers
	// of the sample: fewer than Sampled in an index built before they were
	// kept (none until it is changed), see firstStageStats.
	Title    float64 `json:"title,omitempty"`
	Authors  float64 `json:"authors,omitempty"`
	Measured int     `json:"measured,omitempty"`
}

// metaBuilder accumulates indexMeta and the sample's 3-gram counts paper by
// paper, for a build (in corpus order) or a batch of changes.
type metaBuilder struct {
	an     analyzers
	meta   indexMeta
	pairs  map[[2]string]int // index in meta.Acronyms
	gramDF map[uint64]int32
	seen   map[uint64]bool
}

func newMetaBuilder(an analyzers, m indexMeta, gramDF map[uint64]int32) *metaBuilder {
	b := &metaBuilder{an: an, meta: m, pairs: map[[2]string]int{}, gramDF: gramDF, seen: map[uint64]bool{}}
	if b.meta.Venues == nil {
		b.meta.Venues = map[string]int{}
	}
	if b.gramDF == nil {
		b.gramDF = map[uint64]int32{}
	}
	b.meta.Version = mappingVersion
	b.meta.Acronyms = slices.Clone(b.meta.Acronyms)
	for i, p := range b.meta.Acronyms {
		b.pairs[[2]string{p.Short, p.Long}] = i
	}
	return b
}

// add counts p in (delta 1) or out (delta -1) of the venues and acronyms;
// sample adds it to the ranking sample.
func (b *metaBuilder) add(p *Paper, delta int, sample bool) {
	b.meta.Papers += delta
	if p.Venue != "" {
		if b.meta.Venues[p.Venue] += delta; b.meta.Venues[p.Venue] <= 0 {
			delete(b.meta.Venues, p.Venue)
		}
	}
	for _, d := range paperDefinitions(p) {
		k := [2]string{d.short, d.long}
		i, ok := b.pairs[k]
		if !ok {
			if delta < 0 {
				continue
			}
			i = len(b.meta.Acronyms)
			b.pairs[k] = i
			b.meta.Acronyms = append(b.meta.Acronyms, minedPair{Short: d.short, Long: d.long})
		}
		b.meta.Acronyms[i].Count += delta
	}
	if sample {
		b.sample(p)
	}
}

// sample adds p's lengths and 3-grams to the ranking sample.
func (b *metaBuilder) sample(p *Paper) {
	s := &b.meta.Sample
	title := float64(len(b.an.text.Analyze([]byte(titleText(p)))))
	s.Words += 2*title + float64(len(b.an.text.Analyze([]byte(p.Abstract))))
	s.Title += title
	for _, a := range p.Authors {
		s.Authors += float64(len(b.an.name.Analyze([]byte(a))))
	}
	clear(b.seen)
	count := func(k uint64) {
		s.Grams++
		if !b.seen[k] {
			b.seen[k] = true
			b.gramDF[k]++
		}
	}
	before := s.Grams
	eachGram(titleText(p), count)
	s.Grams += s.Grams - before // the title's grams count twice, as its words do
	eachGram(p.Abstract, count)
	s.Sampled++
	s.Measured++
}

// finish drops acronym pairs no paper defines any more.
func (b *metaBuilder) finish() indexMeta {
	b.meta.Acronyms = slices.DeleteFunc(b.meta.Acronyms, func(p minedPair) bool { return p.Count <= 0 })
	return b.meta
}

// paperDefinitions are the acronym definitions of one paper, each once.
func paperDefinitions(p *Paper) []acronymPair {
	var out []acronymPair
	seen := map[[2]string]bool{}
	for _, text := range []string{p.Title, p.Abstract} {
		for _, d := range definitions(text) {
			d.long = strings.ToLower(d.long)
			k := [2]string{d.short, d.long}
			if !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// acronymPairs turns the mined pairs into the acronym table's input.
func (m *indexMeta) acronymPairs() []acronymPair {
	out := make([]acronymPair, len(m.Acronyms))
	for i, p := range m.Acronyms {
		out[i] = acronymPair{short: p.Short, long: p.Long, count: p.Count}
	}
	return out
}

// venues lists the corpus's venues in order.
func (m *indexMeta) venues() []string { return slices.Sorted(maps.Keys(m.Venues)) }

// sampleStep is the spacing of a build's ranking sample: at most about
// statsSample papers, evenly spread (all of a small corpus).
func sampleStep(total int) int { return max(1, total/statsSample) }

func encodeGrams(df map[uint64]int32) []byte {
	keys := slices.Sorted(maps.Keys(df))
	out := make([]byte, 0, len(keys)*10)
	for _, k := range keys {
		out = binary.AppendUvarint(out, k)
		out = binary.AppendUvarint(out, uint64(df[k]))
	}
	return out
}

func decodeGrams(b []byte) (map[uint64]int32, error) {
	df := map[uint64]int32{}
	for len(b) > 0 {
		k, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, fmt.Errorf("damaged 3-gram table")
		}
		c, m := binary.Uvarint(b[n:])
		if m <= 0 {
			return nil, fmt.Errorf("damaged 3-gram table")
		}
		df[k] = int32(c)
		b = b[n+m:]
	}
	return df, nil
}

// readMeta reads the index-time data of bi; ok is false when bi has none
// (an index of another paperbot version).
func readMeta(bi bleve.Index) (m indexMeta, ok bool, err error) {
	b, err := bi.GetInternal([]byte(metaKey))
	if err != nil {
		return m, false, fmt.Errorf("read index metadata: %w", err)
	}
	if b == nil {
		return m, false, nil
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, false, fmt.Errorf("read index metadata: %w", err)
	}
	return m, m.Version == mappingVersion, nil
}

// liveSkipped is how many records the load of bi's corpus skipped, as its
// metadata says in any format version; ok is false when it does not say.
func liveSkipped(bi bleve.Index) (skipped int, ok bool) {
	b, err := bi.GetInternal([]byte(metaKey))
	if err != nil || b == nil {
		return 0, false
	}
	var m struct {
		Skipped *int `json:"skipped"`
	}
	if json.Unmarshal(b, &m) != nil || m.Skipped == nil {
		return 0, false
	}
	return *m.Skipped, true
}

func readGrams(bi bleve.Index) (map[uint64]int32, error) {
	b, err := bi.GetInternal([]byte(gramsKey))
	if err != nil {
		return nil, fmt.Errorf("read 3-gram table: %w", err)
	}
	return decodeGrams(b)
}

// setMeta puts the meta, 3-gram table and manifest into a batch. With an
// index directory dir the manifest goes to a new file there, named in the
// meta, and file is its name: the caller removes it if the batch fails, and
// the previous one once it succeeds. In memory it goes to the internal
// storage.
func setMeta(b *bleve.Batch, m indexMeta, gramDF map[uint64]int32, man manifest, dir string, pv *paperVectors) (file, vecFile string, err error) {
	m.Manifest, m.Vectors = "", ""
	if dir != "" {
		if m.Manifest, err = writeManifest(dir, man); err != nil {
			return "", "", err
		}
		b.DeleteInternal([]byte(manifestKey)) // an index built before kept it there
		if pv != nil {
			if m.Vectors, err = writeVectors(dir, pv); err != nil {
				removeManifest(dir, m.Manifest)
				return "", "", err
			}
		}
	} else {
		b.SetInternal([]byte(manifestKey), man.encode())
		if pv != nil {
			b.SetInternal([]byte(vectorsKey), pv.encode())
		} else {
			b.DeleteInternal([]byte(vectorsKey))
		}
	}
	mb, err := json.Marshal(m)
	if err != nil {
		return m.Manifest, m.Vectors, err
	}
	b.SetInternal([]byte(metaKey), mb)
	b.SetInternal([]byte(gramsKey), encodeGrams(gramDF))
	return m.Manifest, m.Vectors, nil
}

// readVectors reads the papers' meaning vectors of an index: from the file
// the meta names, or from the internal storage of an index in memory. An
// index without any gives nil; a damaged file is an error.
func readVectors(bi bleve.Index, dir string, m indexMeta) (*paperVectors, error) {
	if m.Vectors != "" {
		pv, err := mapVectors(filepath.Join(dir, m.Vectors))
		if err != nil {
			return nil, fmt.Errorf("read paper vectors: %w", err)
		}
		return pv, nil
	}
	b, err := bi.GetInternal([]byte(vectorsKey))
	if err != nil {
		return nil, fmt.Errorf("read paper vectors: %w", err)
	}
	if b == nil {
		return nil, nil
	}
	return decodeVectors(b)
}
