package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paperbot/paperbot/search/corpus"
)

// Columns of the 9-column OpenReview TSV scrape (see ../shared/corpora/README.md).
const (
	orColTitle    = 0
	orColKeywords = 2
	orColPDF      = 5
	orColTLDR     = 7
	orColAbstract = 8
	orNumCols     = 9
)

// orTestShare: one query in orTestShare goes to the test split.
const orTestShare = 3

type orPaper struct {
	id, title, abstract, tldr string
	keywords                  []string
}

type orQuery struct {
	id, text string
	relevant []string // paper ids
}

// WriteOpenReviewBEIR turns an OpenReview scrape with author keywords and
// TL;DRs (the 9-column ICLR 2024 file of ../shared/corpora) into two
// benchmarks in BEIR's layout, out/keywords and out/tldr: each author
// keyword asked of the venue's papers, relevant where the authors listed
// it, and each TL;DR asked of them, relevant for its own paper. The queries
// are the papers' authors' words, so they measure search on machine-learning
// questions nobody here tuned it for. A query is in the test split when a
// hash of its text says so (one in three), whatever the file's order.
func WriteOpenReviewBEIR(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	papers, err := readOpenReview(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if len(papers) == 0 {
		return fmt.Errorf("%s: no paper with an abstract and a pdf link", in)
	}
	if err := writeOpenReviewBEIR(filepath.Join(out, "keywords"), papers, keywordQueries(papers), tldrEchoes(papers)); err != nil {
		return err
	}
	return writeOpenReviewBEIR(filepath.Join(out, "tldr"), papers, tldrQueries(papers), nil)
}

// tldrEcho is the token F1 with its paper's TL;DR from which an abstract
// sentence echoes it.
const tldrEcho = 0.4

// tldrEchoes maps each paper whose abstract has a sentence echoing its
// TL;DR to that sentence: what the authors themselves call the paper's
// point, the answer the keywords benchmark scores (answer accuracy on
// machine-learning abstracts, a distant label: a TL;DR states a
// contribution more often than a finding).
func tldrEchoes(papers []orPaper) map[string]string {
	out := map[string]string{}
	for _, p := range papers {
		if p.tldr == "" {
			continue
		}
		best, bestF1 := "", tldrEcho
		for _, s := range corpus.Sentences(p.abstract) {
			if f := tokenF1(s, p.tldr); f >= bestF1 {
				best, bestF1 = s, f
			}
		}
		if best != "" {
			out[p.id] = best
		}
	}
	return out
}

// readOpenReview reads the tab-separated rows; rows without an abstract or a
// pdf link (the only stable id) are skipped.
func readOpenReview(r io.Reader) ([]orPaper, error) {
	var papers []orPaper
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != orNumCols {
			return nil, fmt.Errorf("a row has %d columns, want %d (the 9-column ICLR schema)", len(f), orNumCols)
		}
		id := strings.TrimSuffix(filepath.Base(f[orColPDF]), ".pdf")
		abstract := strings.TrimSpace(f[orColAbstract])
		if id == "" || id == "." || abstract == "" || seen[id] {
			continue
		}
		seen[id] = true
		p := orPaper{id: id, title: strings.TrimSpace(f[orColTitle]), abstract: abstract, tldr: strings.TrimSpace(f[orColTLDR])}
		for _, k := range strings.Split(f[orColKeywords], ";") {
			if k = strings.Join(strings.Fields(k), " "); len(k) > 1 {
				p.keywords = append(p.keywords, k)
			}
		}
		papers = append(papers, p)
	}
	return papers, sc.Err()
}

// keywordQueries: one query per distinct keyword (case-insensitive), as
// first spelled, relevant for every paper that lists it.
func keywordQueries(papers []orPaper) []orQuery {
	byKey := map[string]*orQuery{}
	var order []string
	for _, p := range papers {
		for _, k := range p.keywords {
			key := strings.ToLower(k)
			q, ok := byKey[key]
			if !ok {
				q = &orQuery{id: fmt.Sprintf("kw%d", len(order)), text: k}
				byKey[key] = q
				order = append(order, key)
			}
			if !slices.Contains(q.relevant, p.id) {
				q.relevant = append(q.relevant, p.id)
			}
		}
	}
	qs := make([]orQuery, len(order))
	for i, key := range order {
		qs[i] = *byKey[key]
	}
	return qs
}

// tldrQueries: each paper's TL;DR, relevant for that paper.
func tldrQueries(papers []orPaper) []orQuery {
	var qs []orQuery
	for _, p := range papers {
		if p.tldr != "" {
			qs = append(qs, orQuery{id: "tldr-" + p.id, text: p.tldr, relevant: []string{p.id}})
		}
	}
	return qs
}

func orSplit(text string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(text)))
	if h.Sum32()%orTestShare == 0 {
		return "test"
	}
	return "train"
}

// writeOpenReviewBEIR writes one benchmark; with echoes, the rationale of
// each relevant paper that has one.
func writeOpenReviewBEIR(dir string, papers []orPaper, qs []orQuery, echoes map[string]string) error {
	for _, sub := range []string{"qrels", "rationales"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	docs := make([]map[string]string, len(papers))
	for i, p := range papers {
		docs[i] = map[string]string{"_id": p.id, "title": p.title, "text": p.abstract}
	}
	texts := make([]map[string]string, len(qs))
	for i, q := range qs {
		texts[i] = map[string]string{"_id": q.id, "text": q.text}
	}
	qrels := func(name string) func(w *bufio.Writer) error {
		return func(w *bufio.Writer) error {
			fmt.Fprintln(w, "query-id\tcorpus-id\tscore")
			for _, q := range qs {
				if orSplit(q.text) != name {
					continue
				}
				for _, id := range q.relevant {
					fmt.Fprintf(w, "%s\t%s\t1\n", q.id, id)
				}
			}
			return nil
		}
	}
	rationales := func(name string) func(w *bufio.Writer) error {
		return func(w *bufio.Writer) error {
			enc := json.NewEncoder(w)
			for _, q := range qs {
				if orSplit(q.text) != name {
					continue
				}
				for _, id := range q.relevant {
					if s, ok := echoes[id]; ok {
						r := struct {
							QueryID    string   `json:"query_id"`
							CorpusID   string   `json:"corpus_id"`
							Rationales []string `json:"rationales"`
						}{q.id, id, []string{s}}
						if err := enc.Encode(r); err != nil {
							return err
						}
					}
				}
			}
			return nil
		}
	}
	return errors.Join(
		writeLines(filepath.Join(dir, "corpus.jsonl"), jsonLines(docs)),
		writeLines(filepath.Join(dir, "queries.jsonl"), jsonLines(texts)),
		writeLines(filepath.Join(dir, "qrels", "train.tsv"), qrels("train")),
		writeLines(filepath.Join(dir, "qrels", "test.tsv"), qrels("test")),
		writeLines(filepath.Join(dir, "rationales", "train.jsonl"), rationales("train")),
		writeLines(filepath.Join(dir, "rationales", "test.jsonl"), rationales("test")),
	)
}

// jsonLines writes one JSON object a line.
func jsonLines(rows []map[string]string) func(*bufio.Writer) error {
	return func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func writeLines(path string, fill func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := fill(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
