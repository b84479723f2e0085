package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBEIR writes a small benchmark in BEIR layout: each claim's abstract
// opens with background, then states the finding the rationale names.
func writeBEIR(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	topics := []string{"aspirin", "statin", "metformin", "insulin", "warfarin", "heparin", "lithium", "digoxin"}
	var corpus, queries, rats strings.Builder
	qrels := "query-id\tcorpus-id\tscore\n"
	for i, drug := range topics {
		sents := []string{
			fmt.Sprintf("BACKGROUND The effect of %s on stroke risk in adults is debated.", drug),
			fmt.Sprintf("METHODS We followed 1,200 adults taking %s or placebo for two years.", drug),
			fmt.Sprintf("RESULTS Stroke risk fell by %d%% with %s (95%% CI 10 to 30).", 10+i, drug),
			fmt.Sprintf("CONCLUSIONS %s lowers stroke risk in adults.", strings.ToUpper(drug[:1])+drug[1:]),
		}
		doc, _ := json.Marshal(map[string]string{"_id": fmt.Sprint(100 + i), "title": drug + " and stroke", "text": strings.Join(sents, " ")})
		corpus.Write(append(doc, '\n'))
		q, _ := json.Marshal(map[string]string{"_id": fmt.Sprint(i + 1), "text": drug + " reduces stroke risk in adults"})
		queries.Write(append(q, '\n'))
		qrels += fmt.Sprintf("%d\t%d\t1\n", i+1, 100+i)
		r, _ := json.Marshal(map[string]any{"query_id": fmt.Sprint(i + 1), "corpus_id": fmt.Sprint(100 + i), "rationales": []string{sents[2]}})
		rats.Write(append(r, '\n'))
	}
	for name, data := range map[string]string{
		"corpus.jsonl": corpus.String(), "queries.jsonl": queries.String(),
		"qrels/train.tsv": qrels, "qrels/test.tsv": qrels, "rationales/train.jsonl": rats.String(),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEvalFitAnswers(t *testing.T) {
	dir := writeBEIR(t)
	code, out, errOut := runCmd(t, t.Context(), "eval", dir, "--split", "train", "--fit-answers")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"8 judged (claim, abstract) pairs", "cross-validation by abstract", "earlier cue scorer",
		"var fittedAnswerWeights = answerFeatures{", "\tfeatCov: ", "held (fixedAnswerWeights)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A plain run judges both scorers' answers on the same queries.
	code, out, errOut = runCmd(t, t.Context(), "eval", dir, "--split", "train")
	if code != exitOK || !strings.Contains(out, "the same queries with the earlier cue scorer: ") {
		t.Errorf("eval: exit %d, %s %s; want both scorers' answer accuracy", code, out, errOut)
	}
	// Fitting is for train: the held-out split is refused before any work.
	code, _, errOut = runCmd(t, t.Context(), "eval", dir, "--split", "test", "--fit-answers")
	if code != exitUsage || !strings.Contains(errOut, "test split is held out") {
		t.Errorf("fit on test: exit %d, %q; want a usage error", code, errOut)
	}
}

func TestEvalFitRefusal(t *testing.T) {
	dir := writeBEIR(t)
	off := filepath.Join(t.TempDir(), "off.txt")
	if err := os.WriteFile(off, []byte("recipes for sourdough bread\nmedieval history of France\nfootball match results\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, t.Context(), "eval", dir, "--split", "train", "--off-domain-queries", off, "--fit-refusal")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"8 answerable queries", "off-domain set 1: " + off, "domain threshold  false refusals  refused 1",
		"   0.08 ", "best (most off-domain queries refused on average): domain "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runCmd(t, t.Context(), "eval", dir, "--split", "test", "--off-domain-queries", off, "--fit-refusal")
	if code != exitUsage || !strings.Contains(errOut, "test split is held out") {
		t.Errorf("fit on test: exit %d, %q; want a usage error", code, errOut)
	}
	code, _, errOut = runCmd(t, t.Context(), "eval", dir, "--split", "train", "--fit-refusal")
	if code != exitUsage || !strings.Contains(errOut, "needs off-domain queries") {
		t.Errorf("fit without off-domain queries: exit %d, %q; want a usage error", code, errOut)
	}
}
