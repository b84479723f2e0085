package sources

import "testing"

func TestParseArXivID(t *testing.T) {
	tests := []struct {
		name, in string
		id       string
		version  int
		ok       bool
	}{
		{"bare", "2609.26811", "2609.26811", 0, true},
		{"version", "2609.26811v12", "2609.26811", 12, true},
		{"arXiv prefix", "arXiv:2609.26811v1", "2609.26811", 1, true},
		{"oai prefix", "oai:arXiv.org:2205.06398v2", "2205.06398", 2, true},
		{"abs url", "http://arxiv.org/abs/1303.6954v2", "1303.6954", 2, true},
		{"pdf url", "https://arxiv.org/pdf/2609.28471v1", "2609.28471", 1, true},
		{"old style", "http://arxiv.org/abs/cond-mat/0412498v1", "cond-mat/0412498", 1, true},
		{"old style subject class", "math.GT/0309136", "math.GT/0309136", 0, true},
		{"four digit", "0704.0001", "0704.0001", 0, true},
		{"spaces", "  2401.14040 \n", "2401.14040", 0, true},
		{"junk", "abc", "", 0, false},
		{"v0", "2401.14040v0", "", 0, false},
		{"empty", "", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, v, ok := ParseArXivID(tt.in)
			if id != tt.id || v != tt.version || ok != tt.ok {
				t.Errorf("ParseArXivID(%q) = %q, %d, %v; want %q, %d, %v", tt.in, id, v, ok, tt.id, tt.version, tt.ok)
			}
		})
	}
}

func TestNormDOI(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "10.1093/bioinformatics/btac431", "10.1093/bioinformatics/btac431"},
		{"upper", "10.1103/PhysRevLett.1", "10.1103/physrevlett.1"},
		{"https", "https://doi.org/10.1007/978-3-032-39150-6_7", "10.1007/978-3-032-39150-6_7"},
		{"dx", "http://dx.doi.org/10.1016/J.ACHA.2012.03.009", "10.1016/j.acha.2012.03.009"},
		{"scheme", "doi:10.1209/0295-5075/124/60006", "10.1209/0295-5075/124/60006"},
		{"not a doi", "http://arxiv.org/abs/2401.14040", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormDOI(tt.in); got != tt.want {
				t.Errorf("NormDOI(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTitleKey(t *testing.T) {
	same := [][]string{
		{"Reproducing Kernel Banach Spaces with the l1 Norm", "Reproducing kernel\n  Banach spaces with the $l1$ norm."},
		{"Outlier Detection for Multi-Network Data", "outlier detection for multi network data"},
	}
	for _, p := range same {
		if a, b := TitleKey(p[0]), TitleKey(p[1]); a != b || a == "" {
			t.Errorf("TitleKey(%q) = %q, TitleKey(%q) = %q; want equal", p[0], a, p[1], b)
		}
	}
	if TitleKey("Attention is all you need") == TitleKey("Attention is all you need 2") {
		t.Error("different titles share a key")
	}
}

func TestSplitAuthors(t *testing.T) {
	got := splitAuthors("Raphael Chetrite, Shamik Gupta, Izaak Neri and \\'Edgar Rold\\'an")
	want := []string{"Raphael Chetrite", "Shamik Gupta", "Izaak Neri", "\\'Edgar Rold\\'an"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("author %d = %q, want %q", i, got[i], want[i])
		}
	}
}
