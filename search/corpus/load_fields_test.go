package corpus

import (
	"slices"
	"testing"
)

func TestSplitLists(t *testing.T) {
	tests := []struct {
		in          string
		authors, kw []string
	}{
		{"Ruochen Wang;Ting Liu; Cho-Jui Hsieh", []string{"Ruochen Wang", "Ting Liu", "Cho-Jui Hsieh"}, []string{"Ruochen Wang", "Ting Liu", "Cho-Jui Hsieh"}},
		{"Lijun Zhang, Zhi-Hua Zhou", []string{"Lijun Zhang", "Zhi-Hua Zhou"}, []string{"Lijun Zhang", "Zhi-Hua Zhou"}},
		{"Ann One, Bob Two and Cy Three", []string{"Ann One", "Bob Two", "Cy Three"}, []string{"Ann One", "Bob Two and Cy Three"}},
		{"Zhang, Lijun and Zhou, Zhi-Hua", []string{"Lijun Zhang", "Zhi-Hua Zhou"}, []string{"Zhang", "Lijun and Zhou", "Zhi-Hua"}},
		{"Reinforcement Learning and Control", []string{"Reinforcement Learning", "Control"}, []string{"Reinforcement Learning and Control"}},
		{" Solo  Author ; ; solo author", []string{"Solo Author"}, []string{"Solo Author"}},
		{"", nil, nil},
	}
	for _, tt := range tests {
		if got := splitNames(tt.in); !slices.Equal(got, tt.authors) {
			t.Errorf("splitNames(%q) = %q, want %q", tt.in, got, tt.authors)
		}
		if got := splitKeywords(tt.in); !slices.Equal(got, tt.kw) {
			t.Errorf("splitKeywords(%q) = %q, want %q", tt.in, got, tt.kw)
		}
	}
}

func TestNormalizeVenue(t *testing.T) {
	tests := map[string]string{
		"ICML 2024 Poster":         "ICML 2024",
		"ICLR 2024 spotlight":      "ICLR 2024",
		"ICML 2025 Papers":         "ICML 2025",
		"NIPS 2017":                "NeurIPS 2017",
		"ICLR 2023 notable top 5%": "ICLR 2023",
		"  Workshop   on Things  ": "Workshop on Things",
		"TMLR Accepted Papers":     "TMLR",
		"":                         "",
	}
	for in, want := range tests {
		if got := normalizeVenue(in); got != want {
			t.Errorf("normalizeVenue(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"nips2018.json": "NeurIPS 2018", "ICML_cc_2024_Conference.csv": "ICML 2024", "iclr-2023.jsonl": "ICLR 2023", "papers.json": ""} {
		if got := venueFromFileName(in); got != want {
			t.Errorf("venueFromFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
