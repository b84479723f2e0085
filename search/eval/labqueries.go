package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/paperbot/paperbot/search"
)

// labQuery is one query of a judged query file (search/testdata/labqueries):
// what a lab member types in Slack, and the papers that answer it, named by
// their corpus file and record (line of a TSV, 1-based position in a JSON
// array). A query with no relevant paper is about a topic the corpus lacks.
type labQuery struct {
	Query    string `json:"query"`
	Kind     string `json:"kind"`
	Relevant []struct {
		File   string `json:"file"`
		Record int    `json:"record"`
		Grade  int    `json:"grade"`
		Title  string `json:"title"`
	} `json:"relevant"`
}

// WriteLabQueriesBEIR writes, into out, a BEIR-layout benchmark of the
// corpus files (as paperbot loads them) and the judged query files
// queryDir/train.json and queryDir/test.json: corpus.jsonl, queries.jsonl,
// qrels/SPLIT.tsv, and absent/SPLIT.txt with the queries nothing answers
// (for eval --off-domain-queries).
func WriteLabQueriesBEIR(corpusFiles []string, queryDir, out string) error {
	c, err := search.LoadFiles(corpusFiles)
	if err != nil {
		return err
	}
	// A paper's Source is "path:line" or "path#record".
	idOf := make(map[string]string, len(c.Papers))
	docs := make([]map[string]string, 0, len(c.Papers))
	for _, p := range c.Papers {
		i := strings.LastIndexAny(p.Source, ":#")
		if i < 0 {
			return fmt.Errorf("paper %s: source %q names no record", p.ID, p.Source)
		}
		idOf[filepath.Base(p.Source[:i])+"#"+p.Source[i+1:]] = p.ID
		doc := map[string]string{"_id": p.ID, "title": p.Title, "text": p.Abstract, "authors": strings.Join(p.Authors, "; "), "venue": p.Venue}
		if p.Year > 0 {
			doc["year"] = strconv.Itoa(p.Year)
		}
		docs = append(docs, doc)
	}
	for _, sub := range []string{"qrels", "absent"} {
		if err := os.MkdirAll(filepath.Join(out, sub), 0o755); err != nil {
			return err
		}
	}
	var texts []map[string]string
	errs := []error{writeLines(filepath.Join(out, "corpus.jsonl"), jsonLines(docs))}
	for _, split := range []string{"train", "test"} {
		qs, err := readLabQueries(filepath.Join(queryDir, split+".json"))
		if err != nil {
			return err
		}
		var qrels, absent strings.Builder
		qrels.WriteString("query-id\tcorpus-id\tscore\n")
		for i, q := range qs {
			if len(q.Relevant) == 0 {
				absent.WriteString(q.Query + "\n")
				continue
			}
			qid := fmt.Sprintf("%s-%d", split, i+1)
			texts = append(texts, map[string]string{"_id": qid, "text": q.Query})
			for _, r := range q.Relevant {
				id, ok := idOf[r.File+"#"+strconv.Itoa(r.Record)]
				if !ok {
					return fmt.Errorf("%s query %d: %s record %d (%q) is not among the loaded papers", split, i+1, r.File, r.Record, r.Title)
				}
				fmt.Fprintf(&qrels, "%s\t%s\t%d\n", qid, id, r.Grade)
			}
		}
		errs = append(errs,
			os.WriteFile(filepath.Join(out, "qrels", split+".tsv"), []byte(qrels.String()), 0o644),
			os.WriteFile(filepath.Join(out, "absent", split+".txt"), []byte(absent.String()), 0o644))
	}
	errs = append(errs, writeLines(filepath.Join(out, "queries.jsonl"), jsonLines(texts)))
	return errors.Join(errs...)
}

func readLabQueries(file string) ([]labQuery, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var qs []labQuery
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return qs, nil
}
