package search

import (
	"slices"
	"strings"
	"testing"
)

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		name, in string
		msg      []string // substrings of the friendly message
	}{
		{"empty", "   ", []string{"empty", "type a few words"}},
		{"unclosed quote", `"flow matching`, []string{"never closed", `add a closing "`}},
		{"unclosed quote in filter", `title:"flow`, []string{"never closed"}},
		{"year not a number", "year:abc", []string{"year:abc", "year:2025", "year:2020..2024"}},
		{"year two digits", "year:25", []string{"year:25"}},
		{"year range backwards", "year:2024..2020", []string{"backwards", "year:2020..2024"}},
		{"empty filter", "title:", []string{"title:", "needs a value", "title:transformer"}},
		{"filter before a filter", "title: year:2025", []string{"title:", "needs a value"}},
		{"has other", "has:data", []string{"has:data", "has:code"}},
		{"only exclusions", "-image -video", []string{"only excludes", "add at least one word"}},
		{"only negated filter", "-has:code", []string{"only excludes"}},
		{"contradicting years", "year:2020 year:2024", []string{"cannot both hold"}},
		{"contradicting has", "has:code -has:code", []string{"cannot both hold"}},
		{"too long", strings.Repeat("word ", 300), []string{"too long", "similar"}},
		{"too many words", strings.Repeat("a ", 70), []string{"too many words"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseQuery(tt.in)
			if err == nil {
				t.Fatalf("parseQuery(%q): no error", tt.in)
			}
			if KindOf(err) != Invalid {
				t.Errorf("kind %v, want invalid", KindOf(err))
			}
			msg := Message(err)
			for _, want := range tt.msg {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if strings.Contains(strings.ToLower(msg), "syntax error") || strings.Contains(msg, "bleve") {
				t.Errorf("message %q leaks parser internals", msg)
			}
		})
	}
}

// A microRNA is written "miR-17" or "miRNA" as often as "microRNA": the
// paper on the miR-17-92 cluster in cancer stem cells is one on microRNAs.
func TestMicroRNASpellings(t *testing.T) {
	papers := []Paper{
		{ID: "mir", Title: "DNMT1 inhibition reprograms pancreatic cancer stem cells", Abstract: "DNMT1 regulates the miR-17-92 cluster; blocking it turns pancreatic cancer stem cells into non-tumorigenic cells."},
		{ID: "other", Title: "Cancer stem cells in the colon", Abstract: "We trace how cancer stem cells of the colon divide and what regulates their number."},
	}
	ix := papersIndex(t, papers)
	res := mustFind(t, ix, "microRNA regulation of cancer stem cells")
	if len(res.Results) == 0 || res.Results[0].ID != "mir" || !slices.Contains(res.Results[0].Matched, "microRNA (miR)") {
		t.Fatalf("results %v, want the miR-17-92 paper first, matched as a microRNA", ids(res.Results))
	}
}

// British and American spellings find each other's papers, which the Porter
// stemmer keeps apart ("behaviour"/"behavior", "fibre"/"fiber",
// "dialogue"/"dialog", "ischaemic"/"ischemic"), and a word is no rarer for
// being spelled the uncommon way.
func TestBritishAndAmericanSpellings(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "fibre", Title: "Imaging through multimode optical fibres", Abstract: "We invert the transmission effects of multimode fibres with a deep network."},
		{ID: "behaviour", Title: "Modelling animal behaviour", Abstract: "Behavioural data of mice, modelled with recurrent networks."},
		{ID: "dialogue", Title: "Task-oriented dialogue", Abstract: "A dialogue system that books flights."},
		{ID: "ischemic", Title: "Ischemic stroke outcomes", Abstract: "Patients with ischemic stroke were followed for a year."},
		{ID: "register", Title: "Image registration", Abstract: "Registration of medical images by deformable networks."},
		{ID: "other", Title: "Graph kernels", Abstract: "Kernels over graphs for molecules."},
	})
	for q, want := range map[string]string{
		"multimode fiber imaging":   "fibre",
		"animal behavior modeling":  "behaviour",
		"dialog systems":            "dialogue",
		"ischaemic stroke outcomes": "ischemic",
	} {
		res := mustFind(t, ix, q)
		if res.NoMatch || res.Results[0].ID != want {
			t.Errorf("%q: first %s (no_match %v), want %s", q, res.Results[0].ID, res.NoMatch, want)
		}
	}
	// An ending rule would make "register" "registre", stemmed as
	// "registration" is.
	if v := altsOfKind(t, liveState(t, ix), "register allocation", altSpelling); len(v) > 0 {
		t.Errorf("register allocation is also searched as %q", v)
	}
}
