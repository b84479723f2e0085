package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// spooled returns the papers of s, read back with Each.
func spooled(t *testing.T, s *Spool) []Paper {
	t.Helper()
	var out []Paper
	if err := s.Each(func(p *Paper) error {
		out = append(out, *p) // Each gives every paper its own strings and lists
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// spool is SpoolFilesStamped into a test directory, closed with the test.
func spool(t *testing.T, patterns []string) (*Spool, []byte, error) {
	t.Helper()
	s, stamp, err := SpoolFilesStamped(patterns, Limits{}, t.TempDir())
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, stamp, err
}

// TestSpoolMatchesLoad: a spooled corpus is the loaded one, field for
// field, with the same counts, problems, files and stamp; a load that fails
// fails the same way spooled.
func TestSpoolMatchesLoad(t *testing.T) {
	sent := seedSentences(t)
	gen := t.TempDir()
	generated := map[string]synthetic{
		"big.jsonl": {n: 20000, dupEvery: 9, badEvery: 101},
		"arr.json":  {n: 3000, dupEvery: 7, badEvery: 53},
		"rows.tsv":  {n: 3000, dupEvery: 5, badEvery: 61},
		"rows.csv":  {n: 3000, dupEvery: 6, badEvery: 47},
	}
	for name, s := range generated {
		s.write(t, filepath.Join(gen, name), sent)
	}
	type tc struct {
		name     string
		patterns []string
		dups     bool // the case has duplicates and skipped records
	}
	tests := []tc{
		{"all good fixtures", []string{corporaDir + "/json/*", corporaDir + "/tsv/*", corporaDir + "/text/*.txt", corporaDir + "/arxiv/*"}, true},
		{"seeds", []string{"../../seeds/*.txt"}, false},
		{"generated JSON Lines", []string{filepath.Join(gen, "big.jsonl")}, true},
		{"generated JSON array", []string{filepath.Join(gen, "arr.json")}, true},
		{"generated TSV", []string{filepath.Join(gen, "rows.tsv")}, true},
		{"generated CSV", []string{filepath.Join(gen, "rows.csv")}, true},
		{"generated together", []string{filepath.Join(gen, "*")}, true},
	}
	fixtures, err := filepath.Glob(filepath.Join(corporaDir, "*", "*"))
	if err != nil || len(fixtures) < 10 {
		t.Fatalf("fixtures: %v, %v", fixtures, err)
	}
	for _, f := range fixtures {
		tests = append(tests, tc{name: strings.TrimPrefix(f, corporaDir+"/"), patterns: []string{f}})
	}
	if _, err := os.Stat(realCorpora[0]); err == nil {
		tests = append(tests, tc{"shared corpora", []string{"../../../shared/corpora/*/*.csv", "../../../shared/corpora/*/*.json"}, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cStamp, cErr := LoadFilesStamped(tt.patterns, Limits{})
			s, sStamp, sErr := spool(t, tt.patterns)
			if cErr != nil || sErr != nil {
				if cErr == nil || sErr == nil || cErr.Error() != sErr.Error() || kindOf(cErr) != kindOf(sErr) {
					t.Fatalf("load error %v, spool error %v", cErr, sErr)
				}
				return
			}
			if tt.dups && (c.Duplicates == 0 || c.Skipped == 0) {
				t.Errorf("duplicates %d, skipped %d: the case should have both", c.Duplicates, c.Skipped)
			}
			if s.Len() != c.Len() || s.Skipped != c.Skipped || s.Duplicates != c.Duplicates ||
				!slices.Equal(s.Problems, c.Problems) || !slices.Equal(s.Files, c.Files) {
				t.Errorf("spool: %d papers, skipped %d, duplicates %d, files %q, problems %q\nload:  %d papers, skipped %d, duplicates %d, files %q, problems %q",
					s.Len(), s.Skipped, s.Duplicates, s.Files, s.Problems, c.Len(), c.Skipped, c.Duplicates, c.Files, c.Problems)
			}
			if string(sStamp) != string(cStamp) {
				t.Errorf("stamps differ:\nspool %s\nload  %s", sStamp, cStamp)
			}
			var want []Paper
			c.Each(func(p *Paper) error { want = append(want, *p); return nil })
			got := spooled(t, s)
			if len(got) != len(want) {
				t.Fatalf("%d papers read back, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("paper %d:\nspool %#v\nload  %#v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestSpoolEachAndClose: Each gives the same papers every time; fn's error
// stops it; Close removes the file, twice is fine, and a closed spool says
// so.
func TestSpoolEachAndClose(t *testing.T) {
	s, _, err := SpoolFilesStamped([]string{corporaDir + "/json/*"}, Limits{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first, second := spooled(t, s), spooled(t, s)
	if len(first) < 3 || !reflect.DeepEqual(first, second) {
		t.Errorf("Each twice: %d and %d papers, equal %v", len(first), len(second), reflect.DeepEqual(first, second))
	}
	stop := errors.New("stop")
	calls := 0
	if err := s.Each(func(*Paper) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("Each with a failing fn: %v after %d calls, want stop after 1", err, calls)
	}
	name := s.name
	if _, err := os.Stat(name); err != nil {
		t.Fatalf("spool file: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Close the spool file is still there: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := s.Each(func(*Paper) error { return nil }); kindOf(err) != fault.Internal || err == nil {
		t.Errorf("Each after Close: %v, want an internal error", err)
	}
}

// TestSpoolLeavesNothingOnError: a load that fails removes its spool file.
func TestSpoolLeavesNothingOnError(t *testing.T) {
	dir := t.TempDir()
	_, _, err := SpoolFilesStamped([]string{corporaDir + "/json/*", corporaDir + "/bad/broken.json"}, Limits{}, dir)
	if kindOf(err) != Invalid || !strings.Contains(message(err), "broken.json") {
		t.Errorf("error %v, want the broken file named", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the spool directory: %v", left)
	}
	if _, _, err := SpoolFilesStamped([]string{corporaDir + "/json/*"}, Limits{}, filepath.Join(dir, "nope")); kindOf(err) != fault.Internal {
		t.Errorf("a spool directory that does not exist: %v, want an internal error", err)
	}
}

// TestSpoolDamaged: a spool file cut short or overwritten gives an internal
// error, not a panic or wrong papers.
func TestSpoolDamaged(t *testing.T) {
	damage := []struct {
		name string
		do   func(t *testing.T, path string, size int64)
	}{
		{"truncated", func(t *testing.T, path string, size int64) {
			if err := os.Truncate(path, size/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"overwritten", func(t *testing.T, path string, size int64) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte(strings.Repeat("\xff", 64)), size/3); err != nil {
				t.Fatal(err)
			}
		}},
		{"lengths inflated", func(t *testing.T, path string, size int64) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte{0x7f}, 0); err != nil { // the first record's length
				t.Fatal(err)
			}
		}},
		{"removed", func(t *testing.T, path string, size int64) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			s, _, err := spool(t, []string{corporaDir + "/json/*"})
			if err != nil {
				t.Fatal(err)
			}
			d.do(t, s.name, s.size)
			err = s.Each(func(*Paper) error { return nil })
			if err == nil || kindOf(err) != fault.Internal {
				t.Errorf("Each over a damaged spool: %v, want an internal error", err)
			}
		})
	}
}

// TestSpoolCodecRoundTrip: every field comes back as written, nil lists
// as nil and empty ones as empty.
func TestSpoolCodecRoundTrip(t *testing.T) {
	at := time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)
	papers := []Paper{
		{},
		{ID: "abcd1234", Title: "T", Headline: "H", Authors: []string{"A", ""}, Venue: "V", Year: -3, URL: "u",
			CodeURLs: []string{}, Abstract: strings.Repeat("é ", 5000), Keywords: []string{}, Categories: []string{"cs.CL", "cs.IR"},
			Announced: at, FirstSeen: at.Add(time.Hour), Source: "f.jsonl:7"},
		{Authors: nil, CodeURLs: nil, Keywords: []string{"x"}, Announced: at.In(time.FixedZone("", 5*3600+1800))},
	}
	for i, p := range papers {
		var got Paper
		if err := decodePaper(appendPaper(nil, &p), &got); err != nil {
			t.Fatalf("paper %d: %v", i, err)
		}
		if !got.Announced.Equal(p.Announced) || !got.FirstSeen.Equal(p.FirstSeen) {
			t.Errorf("paper %d: times %v %v, want %v %v", i, got.Announced, got.FirstSeen, p.Announced, p.FirstSeen)
		}
		if _, off := got.Announced.Zone(); !p.Announced.IsZero() && off != func() int { _, o := p.Announced.Zone(); return o }() {
			t.Errorf("paper %d: zone offset %d lost", i, off)
		}
		if p.Announced.Location() == time.UTC {
			if !reflect.DeepEqual(got, p) {
				t.Errorf("paper %d:\ngot  %#v\nwant %#v", i, got, p)
			}
			continue
		}
		got.Announced, p.Announced = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("paper %d:\ngot  %#v\nwant %#v", i, got, p)
		}
	}
	rec := appendPaper(nil, &papers[1])
	for n := range len(rec) { // every cut is damage, none a panic
		if err := decodePaper(rec[:n], new(Paper)); err == nil {
			t.Fatalf("a record cut to %d of %d bytes decoded", n, len(rec))
		}
	}
}

// TestRemoveSpools: a spool a crashed process left is removed; an open
// one stays readable (on Unix a removed file lives while it is open).
func TestRemoveSpools(t *testing.T) {
	dir := t.TempDir()
	left := filepath.Join(dir, "paperbot-spool-123")
	if err := os.WriteFile(left, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "papers.jsonl")
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := SpoolFilesStamped([]string{"../../seeds/*.txt"}, Limits{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	RemoveSpools(dir)
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the crashed spool is still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a corpus file beside the spools was removed: %v", err)
	}
	if runtime.GOOS != "windows" {
		if n := len(spooled(t, s)); n != s.Len() || n == 0 {
			t.Errorf("the open spool gave %d papers after the removal, want %d", n, s.Len())
		}
	}
}

// TestSpoolWatchedReportsBytes: progress climbs to the files' total size.
func TestSpoolWatchedReportsBytes(t *testing.T) {
	patterns := []string{"../../seeds/*.txt"}
	names, _ := filepath.Glob(patterns[0])
	var want int64
	for _, n := range names {
		fi, err := os.Stat(n)
		if err != nil {
			t.Fatal(err)
		}
		want += fi.Size()
	}
	var last, total int64
	calls := 0
	s, _, err := SpoolFilesWatched(context.Background(), patterns, Limits{}, t.TempDir(), func(read, all int64) {
		if read < last {
			t.Errorf("progress went back from %d to %d", last, read)
		}
		last, total = read, all
		calls++
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if calls == 0 || last != want || total != want {
		t.Errorf("progress ended at %d of %d after %d calls, want %d of %d", last, total, calls, want, want)
	}
}

// TestSpoolCancelled: cancelling the context stops reading with an
// error that says so, and leaves no spool file.
func TestSpoolCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	s, _, err := SpoolFilesWatched(ctx, []string{"../../seeds/*.txt"}, Limits{}, dir, func(read, total int64) {
		cancel() // as the first bytes arrive
	})
	if err == nil {
		s.Close()
		t.Fatal("a cancelled load succeeded")
	}
	if !strings.Contains(err.Error(), "interrupted") || !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want it to say the load was interrupted", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}
