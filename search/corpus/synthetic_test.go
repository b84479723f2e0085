package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// seedSentences are the sentences of the seed abstracts, the material of
// synthetic corpora.
func seedSentences(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, p := range seedCorpus(tb).Papers {
		out = append(out, Sentences(p.Abstract)...)
	}
	return out
}

// synthetic describes a generated corpus: n records of seed sentences with
// unique titles; every dupEvery-th record repeats an earlier one (0: none)
// and every badEvery-th line is a bad record (0: none).
type synthetic struct {
	n, dupEvery, badEvery int
}

// record returns record i's fields: paper j, where j < i for a duplicate.
func (s synthetic) record(sent []string, i int) (title, abstract, authors string, year int) {
	j := i
	if s.dupEvery > 0 && i%s.dupEvery == s.dupEvery-1 {
		j = i / 2
	}
	var b strings.Builder
	for k := range 5 + j%4 {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sent[(j*7+k*13+k*k)%len(sent)])
	}
	fmt.Fprintf(&b, " We report result %d.", j)
	return fmt.Sprintf("Synthetic paper %d on %s", j, strings.Fields(sent[j%len(sent)])[0]),
		b.String(), fmt.Sprintf("Author %d; Author %d", j%97, j%89), 2000 + j%25
}

// write writes the corpus to path in the format its extension names
// (.jsonl, .json, .tsv, .csv), with a modification time in the past so
// stamps taken seconds apart agree.
func (s synthetic) write(tb testing.TB, path string, sent []string) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	switch {
	case strings.HasSuffix(path, ".tsv"):
		w.WriteString("title\tabstract\tauthors\tyear\n")
	case strings.HasSuffix(path, ".csv"):
		w.WriteString("title,abstract,authors,year\n")
	case strings.HasSuffix(path, ".json"):
		w.WriteString("[\n")
	}
	for i := range s.n {
		title, abstract, authors, year := s.record(sent, i)
		bad := s.badEvery > 0 && i%s.badEvery == s.badEvery-1
		switch {
		case strings.HasSuffix(path, ".tsv"):
			if bad {
				w.WriteString("too\tfew\n")
				continue
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", title, abstract, authors, year)
		case strings.HasSuffix(path, ".csv"):
			if bad {
				w.WriteString("too,few\n")
				continue
			}
			fmt.Fprintf(w, "%s,%q,%q,%d\n", title, abstract, authors, year)
		default:
			rec, _ := json.Marshal(map[string]any{"title": title, "abstract": abstract, "authors": authors, "year": year})
			if bad {
				rec = []byte(`{"title": "", "abstract": " ", "year": 2020}`) // no paper
			}
			if strings.HasSuffix(path, ".json") {
				if i > 0 {
					w.WriteString(",\n")
				}
				w.WriteString("  ")
			}
			w.Write(rec)
			if strings.HasSuffix(path, ".jsonl") {
				w.WriteByte('\n')
			}
		}
	}
	if strings.HasSuffix(path, ".json") {
		w.WriteString("\n]\n")
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		tb.Fatal(err)
	}
}
