package corpus

import "testing"

// Every form people paste of one paper's link gives the same key, so a
// pasted link finds the paper whatever page or version it points to.
func TestPaperLinkKey(t *testing.T) {
	for key, forms := range map[string][]string{
		"arxiv:2309.17453": {
			"https://arxiv.org/abs/2309.17453", "http://arxiv.org/abs/2309.17453v2", "arxiv.org/abs/2309.17453",
			"https://arxiv.org/pdf/2309.17453v1.pdf", "https://arxiv.org/pdf/2309.17453", "https://www.arxiv.org/html/2309.17453v3",
			"https://export.arxiv.org/abs/2309.17453", "https://huggingface.co/papers/2309.17453", "arXiv:2309.17453",
			"https://www.alphaxiv.org/abs/2309.17453", "https://alphaxiv.org/overview/2309.17453v2",
			"2309.17453", "2309.17453v4", "arXiv 2309.17453", "arxiv: 2309.17453v1", "<https://arxiv.org/abs/2309.17453|this paper>", "<https://arxiv.org/abs/2309.17453>",
			"https://arxiv.org/abs/2309.17453.", "(https://arxiv.org/abs/2309.17453)",
		},
		"arxiv:hep-th/9901001": {"https://arxiv.org/abs/hep-th/9901001v1", "hep-th/9901001"},
		"openreview:DLTjFFiuUJ": {
			"https://openreview.net/forum?id=DLTjFFiuUJ", "openreview.net/forum?id=DLTjFFiuUJ&noteId=abc",
			"https://openreview.net/pdf?id=DLTjFFiuUJ", "https://openreview.net/forum?id=DLTjFFiuUJ#discussion",
		},
		"doi:10.1038/nature14539":           {"https://doi.org/10.1038/nature14539", "doi:10.1038/NATURE14539", "http://dx.doi.org/10.1038/nature14539"},
		"icml.cc/virtual/2025/poster/45068": {"https://icml.cc/virtual/2025/poster/45068", "http://www.ICML.cc/virtual/2025/poster/45068/", "icml.cc/virtual/2025/poster/45068#top"},
	} {
		for _, f := range forms {
			if got, ok := PaperLinkKey(f); !ok || got != key {
				t.Errorf("PaperLinkKey(%q) = %q, %v; want %q", f, got, ok, key)
			}
		}
	}
	// OpenReview keeps the case of its IDs: two papers can differ by it.
	if a, _ := PaperLinkKey("https://openreview.net/forum?id=abcDEF"); a != "openreview:abcDEF" {
		t.Errorf("OpenReview ID case lost: %q", a)
	}
	for _, notLink := range []string{"", "kv cache", "e.g.", "transformers", "arxiv.org", "2309", "github", "foo:bar"} {
		if key, ok := PaperLinkKey(notLink); ok {
			t.Errorf("PaperLinkKey(%q) = %q; want no link", notLink, key)
		}
	}
}
