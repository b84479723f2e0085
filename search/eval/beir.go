// Package eval measures paperbot's search on relevance benchmarks in BEIR's
// layout, through the same Index.Search the bot uses, beside a plain BM25
// baseline built in the same run. It exists so that ranking, refusal and
// answer changes are judged on questions nobody tuned them for.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search"
)

// Benchmark is one split of a BEIR-layout benchmark.
type Benchmark struct {
	Name  string
	Split string
	// Docs are the benchmark's documents, in file order.
	Docs []Doc
	// Corpus is Docs loaded by paperbot's own loader (cleaning, dedup, IDs);
	// DocOf maps its paper IDs to benchmark document IDs.
	Corpus *search.Corpus
	DocOf  map[string]string
	// CopiesOf maps a paper ID to the documents the loader merged into it
	// as copies (the same text), in file order. Unloaded are the documents
	// it kept out otherwise (neither title nor text, or another's title). The
	// baseline indexes every document.
	CopiesOf map[string][]string
	Unloaded []string
	// Queries of the split, in query-ID order, each with its judgments.
	Queries []Query
}

// Doc is one benchmark document.
type Doc struct {
	ID, Title, Text string
}

// Query is one benchmark query with its relevance judgments and, when the
// benchmark has them, the rationale sentences of each relevant document.
type Query struct {
	ID, Text   string
	Relevant   map[string]int      // document ID -> graded relevance (> 0)
	Rationales map[string][]string // document ID -> rationale sentences
}

// LoadBEIR reads dir (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv and,
// when present, rationales/SPLIT.jsonl). Only queries with a positive
// judgment in the split are kept.
func LoadBEIR(dir, split string) (*Benchmark, error) {
	b := &Benchmark{Name: filepath.Base(filepath.Clean(dir)), Split: split}
	corpusFile := filepath.Join(dir, "corpus.jsonl")
	docAt := map[int]int{} // a line of corpusFile -> its document's index
	err := eachJSONLine(corpusFile, func(n int, line []byte) error {
		var d struct {
			ID    jsonID `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		docAt[n] = len(b.Docs)
		b.Docs = append(b.Docs, Doc{ID: string(d.ID), Title: d.Title, Text: d.Text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	qrels, err := readQrels(filepath.Join(dir, "qrels", split+".tsv"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s split (qrels/%s.tsv); its splits: %s", dir, split, split, splitsOf(dir))
	}
	if err != nil {
		return nil, err
	}
	texts := map[string]string{}
	err = eachJSONLine(filepath.Join(dir, "queries.jsonl"), func(_ int, line []byte) error {
		var q struct {
			ID   jsonID `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		texts[string(q.ID)] = q.Text
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, rel := range qrels {
		t, ok := texts[id]
		if !ok {
			return nil, fmt.Errorf("%s: qrels name query %q that queries.jsonl lacks", split, id)
		}
		b.Queries = append(b.Queries, Query{ID: id, Text: t, Relevant: rel, Rationales: map[string][]string{}})
	}
	slices.SortFunc(b.Queries, func(a, c Query) int { return compareIDs(a.ID, c.ID) })
	if err := b.readRationales(filepath.Join(dir, "rationales", split+".jsonl")); err != nil {
		return nil, err
	}
	// The corpus goes through paperbot's loader, as a team's file would.
	c, err := search.LoadFiles([]string{corpusFile})
	if err != nil {
		return nil, err
	}
	b.Corpus = c
	b.DocOf = make(map[string]string, len(c.Papers))
	loaded := make([]string, len(b.Docs))
	for _, p := range c.Papers {
		i := strings.LastIndexByte(p.Source, ':')
		line, err := strconv.Atoi(p.Source[i+1:])
		d, ok := docAt[line]
		if i < 0 || err != nil || !ok {
			return nil, fmt.Errorf("paper %s comes from %q, not a document line of %s", p.ID, p.Source, corpusFile)
		}
		b.DocOf[p.ID] = b.Docs[d].ID
		loaded[d] = p.ID
	}
	b.CopiesOf, b.Unloaded = copiesOf(b.Docs, loaded)
	return b, nil
}

// copiesOf finds, for each document the loader did not index, the paper
// it was merged into as a copy: the one whose document has the same text,
// compared by its letters and digits (the loader compares it cleaned).
// The rest were kept out: neither title nor text, or a kept paper has the same title
// and other text, which ranking with it would credit unread. loaded maps
// a document's index to its paper ID, "" when none.
func copiesOf(docs []Doc, loaded []string) (map[string][]string, []string) {
	byText := map[string]string{}
	for i, id := range loaded {
		if k := textKey(docs[i].Text); id != "" && k != "" {
			if _, ok := byText[k]; !ok {
				byText[k] = id
			}
		}
	}
	copies := map[string][]string{}
	var unloaded []string
	for i, id := range loaded {
		if id != "" {
			continue
		}
		if pid, ok := byText[textKey(docs[i].Text)]; ok {
			copies[pid] = append(copies[pid], docs[i].ID)
		} else {
			unloaded = append(unloaded, docs[i].ID)
		}
	}
	return copies, unloaded
}

// textKey is s reduced to its lower-case letters and digits.
func textKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docsOf returns the documents paper id stands for: its own, then its
// copies, as the baseline would rank identical documents side by side.
func (b *Benchmark) docsOf(id string) []string {
	return append([]string{b.DocOf[id]}, b.CopiesOf[id]...)
}

// jsonID is an "_id" written as a string or, in some exports, a number.
type jsonID string

func (id *jsonID) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*id = jsonID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("_id %s is neither a string nor a number", data)
	}
	*id = jsonID(n.String())
	return nil
}

// splitsOf lists the splits dir's qrels hold, "none" when it has none.
func splitsOf(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "qrels", "*.tsv"))
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".tsv"))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// readRationales adds rationale sentences; a missing file means none.
func (b *Benchmark) readRationales(file string) error {
	if _, err := os.Stat(file); os.IsNotExist(err) {
		return nil
	}
	byID := map[string]*Query{}
	for i := range b.Queries {
		byID[b.Queries[i].ID] = &b.Queries[i]
	}
	return eachJSONLine(file, func(_ int, line []byte) error {
		var r struct {
			QueryID    jsonID   `json:"query_id"`
			CorpusID   jsonID   `json:"corpus_id"`
			Rationales []string `json:"rationales"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if q := byID[string(r.QueryID)]; q != nil && len(r.Rationales) > 0 {
			q.Rationales[string(r.CorpusID)] = append(q.Rationales[string(r.CorpusID)], r.Rationales...)
		}
		return nil
	})
}

// readQrels reads judgments: query-id TAB corpus-id TAB score, as BEIR
// writes them after a header line; TREC's four columns (query-id, an
// unused iteration, corpus-id, score) and space-separated columns too. A
// score may be written as a decimal ("1.0"); 0 and below are not relevant.
func readQrels(file string) (map[string]map[string]int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			f = strings.Fields(line)
		}
		if len(f) == 4 {
			f = []string{f[0], f[2], f[3]} // TREC: query, iteration, document, score
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated columns (query-id, corpus-id, score)", file, n+1)
		}
		score, err := strconv.ParseFloat(f[2], 64)
		if err != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			if n == 0 {
				continue // the header
			}
			return nil, fmt.Errorf("%s:%d: score %q is not a number", file, n+1, f[2])
		}
		if score <= 0 {
			continue
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]int{}
		}
		out[f[0]][f[1]] = max(1, int(math.Round(score)))
	}
	return out, nil
}

// eachJSONLine calls fn with each non-blank line of file and its number,
// from 1.
func eachJSONLine(file string, fn func(n int, line []byte) error) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff")) // a byte-order mark
		}
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", file, n, err)
		}
	}
	return sc.Err()
}

// compareIDs orders numeric IDs by value, others as strings.
func compareIDs(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x - y
	}
	return strings.Compare(a, b)
}
