package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// fuzzLoad loads files from memory and checks the loader's contract: no
// panic, errors are Invalid and name the file, papers are well formed.
func fuzzLoad(t *testing.T, name string, files fstest.MapFS) {
	c, err := LoadFS(files, name)
	if err != nil {
		if kindOf(err) != Invalid || !strings.Contains(message(err), name) && !strings.Contains(message(err), sidecarName) {
			t.Fatalf("error %v: kind %v, message %q does not name %s", err, kindOf(err), message(err), name)
		}
		return
	}
	ids := map[string]bool{}
	for _, p := range c.Papers {
		if p.Abstract == "" && p.Title == "" || len(p.ID) == 0 || len(p.ID) > IDLen || ids[p.ID] {
			t.Fatalf("bad paper %+v", p)
		}
		ids[p.ID] = true
		if utf8.RuneCountInString(p.Headline) > MaxHeadline || p.Headline == "" {
			t.Fatalf("headline %q", p.Headline)
		}
	}
	if len(c.Problems) > maxProblems+1 || c.Skipped < 0 {
		t.Fatalf("%d problems, %d skipped", len(c.Problems), c.Skipped)
	}
	c.Hash()
}

// addFiles adds the sample files matching pattern to the fuzz corpus.
func addFiles(f *testing.F, pattern string) {
	f.Helper()
	names, err := filepath.Glob(filepath.Join(corporaDir, pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no samples for %s: %v", pattern, err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzLoadJSON(f *testing.F) {
	addFiles(f, "json/*")
	addFiles(f, "bad/*.json*")
	f.Add([]byte(`{"papers": [{"title": "T", "abstract": "A b c."}]}`))
	f.Add([]byte(`[{"abstract": 5, "authors": [{"name": 1}, "x"], "year": "20x"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.json", fstest.MapFS{"f.json": {Data: data}})
		fuzzLoad(t, "f.jsonl", fstest.MapFS{"f.jsonl": {Data: data}})
	})
}

func FuzzLoadTSV(f *testing.F) {
	addFiles(f, "tsv/*")
	addFiles(f, "bad/cols.tsv")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.tsv", fstest.MapFS{"f.tsv": {Data: data}})
		fuzzLoad(t, "f.csv", fstest.MapFS{"f.csv": {Data: data}})
	})
}

func FuzzLoadSeedText(f *testing.F) {
	meta, err := os.ReadFile(filepath.Join(corporaDir, "text/metadata.tsv"))
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range []string{"text/a.txt", "text/b.txt", "bad/empty.txt"} {
		data, err := os.ReadFile(filepath.Join(corporaDir, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, meta)
	}
	f.Add([]byte("Header\n\nOne.\n\n\n\nTwo"), []byte("file\tparagraph\tauthors\na.txt\t2\tA; B\n"))
	f.Fuzz(func(t *testing.T, text, meta []byte) {
		fuzzLoad(t, "a.txt", fstest.MapFS{"a.txt": {Data: text}, "metadata.tsv": {Data: meta}})
	})
}
