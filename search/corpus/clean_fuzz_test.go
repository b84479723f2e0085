package corpus

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paperbot/paperbot/seeds"
)

// FuzzCleanText checks that CleanText and Headline never panic, stay linear
// and return tidy, valid text and well-formed links.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{
		"We **propose** $k$-hop \\textit{Tensor-Var}\\footnote{https://x.org/a}.",
		`$\frac{\sqrt{x_1^2}}{\mathbb{R}}$ \url{www.a.org} [t](https://b.org) ***x** y*`,
		"{{{{\\textbf{\\emph{$$a$$}}}}}} ~10 ``q'' \\", "$5 and $x$ and 50\\%", "https://github.com/\nuser/repo",
	} {
		f.Add(s)
	}
	for _, name := range []string{"000_8d1a1c065f1e3899.txt", "001_8893ce334eb3ad9c.txt"} {
		data, err := seeds.FS.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data[:2000]))
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, urls := CleanText(s)
		if !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if text != strings.TrimSpace(text) || strings.Contains(text, "  ") || strings.ContainsAny(text, "\n\t") {
			t.Fatalf("untidy output %q", text)
		}
		if len(text) > 4*len(s)+16 {
			t.Fatalf("output of %d bytes for %d bytes in", len(text), len(s))
		}
		for _, u := range urls {
			if absoluteURL(u) != u {
				t.Fatalf("bad link %q from %q", u, s)
			}
		}
		if h := Headline("", text); utf8.RuneCountInString(h) > MaxHeadline || !utf8.ValidString(h) {
			t.Fatalf("headline %q", h)
		}
		if h := Headline(text, ""); utf8.RuneCountInString(h) > MaxHeadline {
			t.Fatalf("title headline %q", h)
		}
	})
}
