package eval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeBEIR writes a BEIR-layout benchmark with one split, "test".
func writeBEIR(t *testing.T, corpus, queries, qrels string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels} {
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// loadTestSplit loads dir's test split.
func loadTestSplit(t *testing.T, dir string) *Benchmark {
	t.Helper()
	b, err := LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runOrFail runs b with the default options.
func runOrFail(t *testing.T, b *Benchmark) *Report {
	t.Helper()
	r, err := Run(t.Context(), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Benchmarks hold copies (one text under several IDs), documents with no
// abstract and documents with another's title. paperbot's loader merges
// copies and keeps out a document with another's title, where the baseline
// indexes them all. A copy is ranked with the paper it was merged into, so
// that relevant copies are not counted as never found; a document with
// another's title and its own text is not (its text was never read). A
// document with a title and no text is indexed, and found by its title.
// The report says how many documents paperbot did not index.
func TestCopiesRankWithTheirPaper(t *testing.T) {
	dir := writeBEIR(t,
		`{"_id": "d1", "title": "Cholesterol and breast cancer", "text": "Cholesterol feeds breast cancer cells and increases their growth in culture."}
{"_id": "d2", "title": "Cholesterol and Breast Cancer.", "text": "A second copy of the same study of cholesterol in breast cancer cells."}
{"_id": "d3", "title": "", "text": "Cholesterol feeds breast cancer cells, and increases their growth in culture!"}
{"_id": "d4", "title": "Statins", "text": ""}
{"_id": "d5", "title": "Vitamin D and bone health", "text": "Vitamin D supplementation improves bone mineral density in older adults."}
`,
		`{"_id": "q1", "text": "Breast cancer cells feed on cholesterol"}
{"_id": "q2", "text": "statins"}
`,
		"query-id\tcorpus-id\tscore\nq1\td3\t1\nq2\td4\t1\n")
	b := loadTestSplit(t, dir)
	var d1 string
	for pid, did := range b.DocOf {
		if did == "d1" {
			d1 = pid
		}
	}
	if got := b.docsOf(d1); !slices.Equal(got, []string{"d1", "d3"}) {
		t.Errorf("d1's paper stands for %q, want d1 and its copy d3", got)
	}
	if !slices.Equal(b.Unloaded, []string{"d2"}) {
		t.Errorf("not indexed: %q, want d2 (d1's title) alone", b.Unloaded)
	}
	r := runOrFail(t, b)
	if r.Docs != 5 || r.Copies != 1 || r.Unloaded != 1 {
		t.Errorf("report: %d docs, %d merged, %d not indexed; want 5, 1, 1", r.Docs, r.Copies, r.Unloaded)
	}
	if q := r.PerQuery[1]; q.NDCG10 != 1 {
		t.Errorf("q2: nDCG@10 %.3f, top %q; want d4, which has a title and no text, first", q.NDCG10, q.Top)
	}
	if q := r.PerQuery[0]; q.NDCG10 == 0 || !slices.Contains(q.Top, "d3") {
		t.Errorf("q1: nDCG@10 %.3f, top %q; want its relevant copy d3 found with d1", q.NDCG10, q.Top)
	}
}

// Some benchmarks ask whole paragraphs (ArguAna's arguments run to two
// hundred words), longer than any query may be. The bot and the CLI take
// such text as pasted and list the papers like it; so does eval, rather
// than score the query 0 as rejected.
func TestParagraphQueryFindsPapersLikeIt(t *testing.T) {
	dir := writeBEIR(t,
		`{"_id": "a1", "title": "School uniforms reduce bullying", "text": "Requiring school uniforms lowers bullying over clothing and brands, since pupils from poorer families no longer stand out by what they wear, and teachers report calmer classrooms."}
{"_id": "a2", "title": "Nuclear power and climate", "text": "Nuclear power stations emit almost no carbon dioxide while running, so replacing coal plants with reactors cuts a country's emissions sharply."}
{"_id": "a3", "title": "Zoos and conservation", "text": "Zoos breed endangered species in captivity and return some of them to the wild, which has saved several species from extinction."}
`,
		`{"_id": "q1", "text": "School uniforms should be mandatory. When every pupil wears the same clothes, children from poorer families are not singled out for wearing cheap or old clothing, and the pressure to buy expensive brands disappears. Bullying about appearance falls, and classrooms are calmer, because attention moves from what pupils wear to what they learn. Uniforms also make pupils easy to recognise on school trips, which keeps them safer, and they save parents time and money every morning and every term of the school year."}
`,
		"query-id\tcorpus-id\tscore\nq1\ta1\t1\n")
	b := loadTestSplit(t, dir)
	r := runOrFail(t, b)
	q := r.PerQuery[0]
	if q.Error != "" || len(q.Top) == 0 || q.Top[0] != "a1" {
		t.Errorf("paragraph query: top %q, error %q; want a1 first", q.Top, q.Error)
	}
}

// Judgments come as BEIR writes them, and in the forms other exports use:
// no header, TREC's four columns, spaces, decimal scores. None is lost.
func TestQrelsForms(t *testing.T) {
	for name, body := range map[string]string{
		"BEIR":       "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\nq2\td3\t1\nq2\td4\t0\n",
		"no header":  "q1\td1\t1\nq1\td2\t2\nq2\td3\t1\nq2\td4\t0\n",
		"TREC":       "q1 0 d1 1\nq1 0 d2 2\nq2 0 d3 1\nq2 0 d4 0\n",
		"decimals":   "query-id\tcorpus-id\tscore\nq1\td1\t1.0\nq1\td2\t2.0\nq2\td3\t0.5\nq2\td4\t0.0\n",
		"CRLF, tabs": "query-id\tcorpus-id\tscore\r\nq1\td1\t1\r\nq1\td2\t2\r\nq2\td3\t1\r\n",
	} {
		file := filepath.Join(t.TempDir(), "test.tsv")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readQrels(file)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(got) != 2 || got["q1"]["d1"] != 1 || got["q1"]["d2"] != 2 || got["q2"]["d3"] != 1 || len(got["q2"]) != 1 {
			t.Errorf("%s: read %v, want q1: d1 1, d2 2; q2: d3 1", name, got)
		}
	}
	file := filepath.Join(t.TempDir(), "test.tsv")
	if err := os.WriteFile(file, []byte("query-id\tcorpus-id\tscore\nq1\td1\tyes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readQrels(file); err == nil || !strings.Contains(err.Error(), `score "yes" is not a number`) {
		t.Errorf("a score in words: %v, want it named", err)
	}
}

// Some exports write "_id" as a number; it is the same ID.
func TestNumericIDs(t *testing.T) {
	dir := writeBEIR(t,
		`{"_id": 1, "title": "Cholesterol and breast cancer", "text": "Cholesterol feeds breast cancer cells and increases their growth in culture."}
{"_id": 2, "title": "Vitamin D and bone health", "text": "Vitamin D supplementation improves bone mineral density in older adults."}
`,
		`{"_id": 7, "text": "vitamin d bones"}
`,
		"query-id\tcorpus-id\tscore\n7\t2\t1\n")
	b := loadTestSplit(t, dir)
	if len(b.Queries) != 1 || b.Queries[0].Text != "vitamin d bones" || b.Docs[1].ID != "2" {
		t.Errorf("queries %v, docs %v; want query 7 and document 2", b.Queries, b.Docs)
	}
}

// Asking for a split the benchmark lacks says which it has.
func TestMissingSplitNamesTheOthers(t *testing.T) {
	dir := writeBEIR(t, `{"_id": "d1", "title": "A paper", "text": "An abstract about vitamin D and bones."}`+"\n",
		`{"_id": "q1", "text": "vitamin d"}`+"\n", "query-id\tcorpus-id\tscore\nq1\td1\t1\n")
	_, err := LoadBEIR(dir, "dev")
	if err == nil || !strings.Contains(err.Error(), "no dev split") || !strings.Contains(err.Error(), "its splits: test") {
		t.Errorf("a missing split: %v, want it named with the splits there are", err)
	}
}

// Blank lines in corpus.jsonl, and a byte-order mark, are no documents:
// each paper still maps to its own document (the loader numbers the
// file's lines).
func TestBlankLinesInTheCorpus(t *testing.T) {
	dir := writeBEIR(t,
		"\ufeff\n"+`{"_id": "d1", "title": "Cholesterol and breast cancer", "text": "Cholesterol feeds breast cancer cells and increases their growth in culture."}`+"\n\n"+
			`{"_id": "d2", "title": "Vitamin D and bone health", "text": "Vitamin D supplementation improves bone mineral density in older adults."}`+"\n"+
			`{"_id": "d3", "title": "Fish oil and the heart", "text": "Fish oil lowers triglycerides in patients with heart disease, a trial finds."}`+"\n",
		`{"_id": "q1", "text": "vitamin d bones"}`+"\n"+`{"_id": "q2", "text": "fish oil heart"}`+"\n",
		"query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td3\t1\n")
	b := loadTestSplit(t, dir)
	r := runOrFail(t, b)
	for _, q := range r.PerQuery {
		if q.NDCG10 != 1 {
			t.Errorf("%s: nDCG@10 %.3f, top %q; want its document first", q.ID, q.NDCG10, q.Top)
		}
	}
}
