package sources

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAtom(t *testing.T) {
	tests := []struct {
		file       string
		total, n   int
		first      string
		version    int
		primary    string
		doi        string
		oldStyleID bool
	}{
		{"arxiv-api-2026-search-cat-cs.CL-max3.atom.xml", 119894, 3, "2609.28471", 1, "cs.CL", "10.1007/978-3-032-39150-6_7", false},
		{"arxiv-api-2026-search-all-testing-start0-max10.atom.xml", 214881, 10, "2202.12139", 1, "", "", false},
		{"arxiv-api-2026-search-all-testing-start0-max100.atom.xml", 214881, 100, "2202.12139", 1, "", "", true},
		{"arxiv-api-2025-search-cat-cs.RO-AND-neural.atom.xml", 5619, 2, "", 0, "", "", false},
		{"arxiv-api-2016-search-au-del_maestro.atom.xml", 31, 10, "", 0, "", "", true},
		{"arxiv-api-2026-idlist-empty-result.atom.xml", 0, 0, "", 0, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := ParseAtom(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if f.Total != tt.total || len(f.Records) != tt.n {
				t.Fatalf("total %d records %d", f.Total, len(f.Records))
			}
			if tt.n == 0 {
				return
			}
			r := f.Records[0]
			if tt.first != "" && (r.ArXivID != tt.first || r.Version != tt.version) {
				t.Errorf("first %s v%d", r.ArXivID, r.Version)
			}
			if tt.primary != "" && r.Categories[0] != tt.primary {
				t.Errorf("categories %q", r.Categories)
			}
			if tt.doi != "" && r.DOI != tt.doi {
				t.Errorf("doi %q", r.DOI)
			}
			old := false
			for _, r := range f.Records {
				if r.Title == "" || r.Abstract == "" || len(r.Authors) == 0 || len(r.Categories) == 0 || r.Announced.IsZero() {
					t.Errorf("%s incomplete: %+v", r.ArXivID, r)
				}
				if strings.Contains(r.Abstract, "\n") || strings.Contains(r.Title, "\n") {
					t.Errorf("%s not unwrapped", r.ArXivID)
				}
				old = old || strings.Contains(r.ArXivID, "/")
			}
			if old != tt.oldStyleID {
				t.Errorf("old-style ids seen: %v, want %v", old, tt.oldStyleID)
			}
		})
	}
}

func TestParseAtomErrors(t *testing.T) {
	for _, file := range []string{"arxiv-api-2026-error-http400-bad-id.atom.xml", "arxiv-api-2019-error-invalid-id.atom.xml"} {
		t.Run(file, func(t *testing.T) {
			_, err := ParseAtom(fixture(t, file))
			var ae *APIError
			if !errors.As(err, &ae) || !strings.HasPrefix(ae.Message, "incorrect id format for") {
				t.Errorf("err = %v, want the error entry", err)
			}
		})
	}
}
