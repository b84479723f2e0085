package bibtex

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bibtool runs Debian's bibtool over a .bib file with the given resources
// and returns what it printed; the test fails on any error or warning it
// reports (bibtool exits 0 even then). CI installs it (.ci/run).
func bibtool(t *testing.T, bib []byte, resources ...string) string {
	t.Helper()
	path, err := exec.LookPath("bibtool")
	if err != nil {
		t.Skip("bibtool is not installed (apt-get install bibtool): the .bib output is not checked by a real parser")
	}
	file := filepath.Join(t.TempDir(), "out.bib")
	if err := os.WriteFile(file, bib, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-q"}
	for _, r := range resources {
		args = append(args, "--", r)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(path, append(args, file)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bibtool: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "ERROR") || strings.Contains(stderr.String(), "WARNING") {
		t.Fatalf("bibtool rejects the output:\n%s\n--- input:\n%s", stderr.String(), bib)
	}
	return stdout.String()
}

var bibtoolEntry = regexp.MustCompile(`(?m)^@(\w+)\{\s*([^,\s]*),`)

// TestBibtoolReadsEveryEntry: bibtool parses the samples and a list of
// hostile titles and names without a complaint, finding every entry with
// our key and type.
func TestBibtoolReadsEveryEntry(t *testing.T) {
	entries := append([]Entry(nil), samples...)
	hostile := []string{`}{`, `\end{document}`, `@article{x,`, `"quoted" , comma`, "50% off # & _ ^ ~ $", "tab\there\nnewline",
		"ÆØÅ æøå ŁŃŚ ıİ", "α-β trade-off ≤ 3 × 4", "中文标题", "{{{", "}}}", "a and b", "x = {y}"}
	for i, h := range hostile {
		entries = append(entries, Entry{ID: fmt.Sprintf("h%02d", i), Title: h, Authors: []string{h, "Ann " + h},
			Venue: h, Year: 2000 + i, URL: "https://x.org/" + h, PrimaryClass: h, ArXivID: "2401.0000" + fmt.Sprint(i%10)})
	}
	var b bytes.Buffer
	if err := Write(&b, entries); err != nil {
		t.Fatal(err)
	}
	out := bibtool(t, b.Bytes())
	found := bibtoolEntry.FindAllStringSubmatch(out, -1)
	if len(found) != len(entries) {
		t.Fatalf("bibtool found %d entries, wrote %d:\n%s", len(found), len(entries), out)
	}
	keys := Keys(entries)
	for i, m := range found {
		if !strings.EqualFold(m[1], entries[i].Type()) || m[2] != keys[i] {
			t.Errorf("entry %d read as @%s{%s}, wrote @%s{%s}", i, m[1], m[2], entries[i].Type(), keys[i])
		}
	}
}

// TestBibtoolReadsTheAuthors: the author field splits into the right people,
// each with the right surname, as BibTeX styles will read it.
func TestBibtoolReadsTheAuthors(t *testing.T) {
	var b bytes.Buffer
	es := []Entry{
		{ID: "1", Title: "T", Authors: []string{"Jingyu Liu", "Beidi Chen", "Ce Zhang"}},
		{ID: "2", Title: "T", Authors: []string{"Jürgen Schmidhuber Jr.", "Ben Anderson"}},
	}
	if err := Write(&b, es); err != nil {
		t.Fatal(err)
	}
	// bibtool makes each key from the surnames of all authors, joined by ".".
	out := bibtool(t, b.Bytes(), "key.generation=on", "key.format={%3n(author)}", "key.number.separator={}")
	want := []string{"Liu.Chen.Zhang", "Schmidhuber.Anderson"}
	found := bibtoolEntry.FindAllStringSubmatch(out, -1)
	if len(found) != len(want) {
		t.Fatalf("bibtool found %d entries:\n%s", len(found), out)
	}
	for i, m := range found {
		if m[2] != want[i] {
			t.Errorf("entry %d: bibtool reads the authors as %s, want %s", i, m[2], want[i])
		}
	}
}
