package query

import "testing"

func TestHostPath(t *testing.T) {
	for s, want := range map[string]bool{
		"github.com/org/repo": true, "arxiv.org/abs/2310.06825": true, "huggingface.co/x": true, "GitHub.com/x": true,
		"TCP/IP": false, "e.g./i.e.": false, "1.5/2.0": false, "github.com": false, "a.b/": false,
	} {
		if got := hostPath(s); got != want {
			t.Errorf("hostPath(%q) = %v, want %v", s, got, want)
		}
	}
}
