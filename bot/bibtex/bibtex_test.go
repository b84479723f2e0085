package bibtex

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.bib from the current output")

// samples are papers as corpora give them, with the cases a .bib file gets
// wrong: accents, LaTeX specials, acronyms, arXiv and DOI links, clashing keys.
var samples = []Entry{
	{ID: "v65nfk2x", Title: "Speculative Prefill: Turbocharging TTFT with Lightweight and Training-Free Token Importance Estimation",
		Authors: []string{"Jingyu Liu", "Beidi Chen", "Ce Zhang"}, Year: 2025, Venue: "ICML 2025", URL: "https://icml.cc/virtual/2025/poster/44706"},
	{ID: "arx1", Title: "The Müller–Łukasiewicz Bound for 100% of #Graphs & $k$_cores", Authors: []string{"José Núñez-García", "Søren Østergaard", "Jürgen Schmidhuber Jr."},
		Year: 2024, URL: "https://arxiv.org/abs/2401.01234v2", PrimaryClass: "cs.LG"},
	{ID: "doi1", Title: "Attention Is All You Need", Authors: []string{"Ashish Vaswani", "Noam Shazeer"}, Year: 2017,
		Venue: "Journal of Machine Learning Research", URL: "https://doi.org/10.5555/3295222.3295349"},
	{ID: "zzz", Title: "Speculative Decoding {Revisited}", Authors: []string{"Wei Liu"}, Year: 2025, Venue: "NeurIPS"},
	{ID: "bare", Title: "", Authors: nil, Year: 0, URL: "https://example.org/p?id=1&x=2"},
	{ID: "andy", Title: "On Sand and Stone", Authors: []string{"Ben Anderson", "Lee and Co"}, Year: 2023, Venue: "Unknown Venue"},
}

func TestGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, samples); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "samples.bib")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("output differs from %s (run with -update to accept):\n%s", golden, b.String())
	}
}

func TestKeys(t *testing.T) {
	keys := Keys(samples)
	want := []string{"liu2025speculative", "nunezgarcia2024mullerlukasiewicz", "vaswani2017attention", "liu2025speculativeb", "paper", "anderson2023sand"}
	for i := range want {
		if keys[i] != want[i] {
			t.Errorf("key of %s = %q, want %q", samples[i].ID, keys[i], want[i])
		}
	}
	// A key does not depend on the list's order.
	rev := []Entry{samples[3], samples[0]}
	if k := Keys(rev); k[0] != "liu2025speculativeb" || k[1] != "liu2025speculative" {
		t.Errorf("reordered keys %v", k)
	}
	// Thirty clashes stay unique.
	var many []Entry
	for i := range 30 {
		many = append(many, Entry{ID: string(rune('A' + i)), Title: "Same", Authors: []string{"A B"}, Year: 2020})
	}
	seen := map[string]bool{}
	for _, k := range Keys(many) {
		if seen[k] {
			t.Fatalf("key %s given twice", k)
		}
		seen[k] = true
	}
}

func TestType(t *testing.T) {
	for venue, want := range map[string]string{
		"ICML 2025": "inproceedings", "Proceedings of the 40th ACL": "inproceedings", "NeurIPS Workshop on X": "inproceedings",
		"Nature": "article", "IEEE Transactions on Pattern Analysis": "article", "": "misc", "Some Venue": "misc",
	} {
		if got := (Entry{Venue: venue}).Type(); got != want {
			t.Errorf("venue %q: %s, want %s", venue, got, want)
		}
	}
	if got := (Entry{URL: "http://arxiv.org/pdf/2301.00001"}).FromURL().Type(); got != "article" {
		t.Errorf("arXiv preprint: %s", got)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Müller":      `M{\"u}ller`,
		"100% & $5":   `100\% \& \$5`,
		"a_b#c":       `a\_b\#c`,
		"{x}":         `{\textbraceleft}x{\textbraceright}`,
		`back\slash`:  `back{\textbackslash}slash`,
		"Łódź":        `{\L}{\'o}d{\'z}`,
		"Šimon":       `{\v{S}}imon`,
		"naïve  \n x": `na{\"\i}ve x`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBracesBalanced(t *testing.T) {
	out := Format(Entry{Title: "}{ \\ {{{", Authors: []string{"}"}, URL: "http://x/{}"})
	depth := 0
	for i := 0; i < len(out); i++ {
		switch out[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		}
		if depth < 0 {
			t.Fatalf("unbalanced:\n%s", out)
		}
	}
	if depth != 0 || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("unbalanced:\n%s", out)
	}
}
