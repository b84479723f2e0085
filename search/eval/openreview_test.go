package eval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func openReviewRow(title, keywords, pdf, tldr, abstract string) string {
	return strings.Join([]string{title, "A. Author;B. Author", keywords, "area", "ICLR 2024 poster", pdf, "", tldr, abstract}, "\t")
}

func TestWriteOpenReviewBEIR(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "iclr.csv")
	rows := []string{
		openReviewRow("Diffusion for graphs", "Diffusion Models; graph generation", "https://openreview.net/pdf/aaa.pdf", "We generate graphs with diffusion.", "We study diffusion models for graph generation. We generate graphs with diffusion in one step."),
		openReviewRow("Faster diffusion", "diffusion models;;x", "https://openreview.net/pdf/bbb.pdf", "", "Sampling diffusion models in fewer steps."),
		openReviewRow("No abstract", "graph generation", "https://openreview.net/pdf/ccc.pdf", "Lost.", " "),
	}
	if err := os.WriteFile(in, []byte(strings.Join(rows, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := WriteOpenReviewBEIR(in, out); err != nil {
		t.Fatal(err)
	}
	queries := map[string]map[string]int{} // text -> relevant, over both splits
	rationales := map[string][]string{}    // name: query text: rationales
	for _, split := range []string{"train", "test"} {
		for _, name := range []string{"keywords", "tldr"} {
			b, err := LoadBEIR(filepath.Join(out, name), split)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Docs) != 2 {
				t.Errorf("%s: %d papers, want the 2 with an abstract", name, len(b.Docs))
			}
			for _, q := range b.Queries {
				if _, dup := queries[q.Text]; dup {
					t.Errorf("%q is in both splits", q.Text)
				}
				queries[q.Text] = q.Relevant
				for id, rs := range q.Rationales {
					for _, r := range rs {
						rationales[name+": "+q.Text] = append(rationales[name+": "+q.Text], id+": "+r)
					}
				}
			}
		}
	}
	// A keyword's rationale is the sentence of each relevant paper that
	// echoes the paper's TL;DR; a TL;DR query has none (it is the TL;DR).
	echo := []string{"aaa: We generate graphs with diffusion in one step."}
	wantRationales := map[string][]string{"keywords: Diffusion Models": echo, "keywords: graph generation": echo}
	if len(rationales) != len(wantRationales) {
		t.Errorf("rationales %q, want %q", rationales, wantRationales)
	}
	for q, want := range wantRationales {
		if !slices.Equal(rationales[q], want) {
			t.Errorf("%s: rationales %q, want %q", q, rationales[q], want)
		}
	}
	want := map[string][]string{
		"Diffusion Models":                   {"aaa", "bbb"}, // one query for both spellings
		"graph generation":                   {"aaa"},        // the paper without an abstract is dropped
		"We generate graphs with diffusion.": {"aaa"},
	}
	if len(queries) != len(want) {
		t.Errorf("queries %v, want those of %v", queries, want)
	}
	for text, docs := range want {
		var got []string
		for id := range queries[text] {
			got = append(got, id)
		}
		slices.Sort(got)
		if !slices.Equal(got, docs) {
			t.Errorf("%q relevant %v, want %v", text, got, docs)
		}
	}
	if err := os.WriteFile(in, []byte("title\tonly three\tcolumns"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteOpenReviewBEIR(in, out); err == nil || !strings.Contains(err.Error(), "9-column") {
		t.Errorf("a 3-column file: error %v, want one naming the 9-column schema", err)
	}
}

// mlCorpora holds the real ML corpora beside the repository (../shared/corpora).
var mlCorpora = filepath.Join("..", "..", "..", "shared", "corpora")

// mlCorpusFiles lists the ML corpus files; none when they are absent.
func mlCorpusFiles() []string {
	files, _ := filepath.Glob(filepath.Join(mlCorpora, "*", "*"))
	return files
}

// iclr is the ICLR 2024 scrape with author keywords and TL;DRs.
var iclr = filepath.Join(mlCorpora, "dotd-NeurIPS2024Scrape", "ICLR_cc_2024_Conference.csv")

// Bounds of the authors' keyword and TL;DR queries' held-out split: the
// share of them refused although the authors name a paper for each (a
// keyword the abstracts never use is refused rightly, so not 0).
const (
	maxKeywordRefusals = 0.03
	maxTLDRRefusals    = 0.01
)

// TestOpenReviewHeldOut: on machine-learning queries nobody here wrote, the
// ICLR 2024 authors' own keywords and TL;DRs, paperbot ranks at least as
// well as plain BM25 and rarely refuses.
func TestOpenReviewHeldOut(t *testing.T) {
	if raceEnabled {
		t.Skip("a minute under the race detector; .ci/run runs it without")
	}
	if _, err := os.Stat(iclr); err != nil {
		t.Skip("the ICLR 2024 scrape is not beside the repository:", err)
	}
	out := t.TempDir()
	if err := WriteOpenReviewBEIR(iclr, out); err != nil {
		t.Fatal(err)
	}
	for name, maxRefused := range map[string]float64{"keywords": maxKeywordRefusals, "tldr": maxTLDRRefusals} {
		b, err := LoadBEIR(filepath.Join(out, name), "test")
		if err != nil {
			t.Fatal(err)
		}
		r := heldOut(t, b)
		if share := float64(r.Refused) / float64(r.Queries); share > maxRefused {
			t.Errorf("%s: %d of %d answerable queries refused (%.3f), want at most %.2f", name, r.Refused, r.Queries, share, maxRefused)
		}
		if name != "keywords" {
			continue
		}
		// Papers like a paper: those sharing an author keyword with it.
		sr, err := RunSimilar(t.Context(), b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("similar papers, keywords test: precision@10 paperbot %.3f, baseline %.3f over %d papers", sr.Paperbot, sr.Baseline, sr.Papers)
		if sr.Paperbot < minSimilarShare*sr.Baseline {
			t.Errorf("papers like a paper: precision@10 %.3f, under %.2f of plain BM25's %.3f", sr.Paperbot, minSimilarShare, sr.Baseline)
		}
	}
}

// minSimilarShare bounds "papers like this one" from below against plain
// BM25 of the paper's whole text (eval --similar): 0.162 against 0.163 on
// the keywords' test split, 0.130 before similar ranked by BM25.
const minSimilarShare = 0.95
