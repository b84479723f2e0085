package query

import (
	"slices"
	"strings"

	"github.com/paperbot/paperbot/search/corpus"
)

// A pasted link is searched whole, as a phrase (textGroups): its parts
// ("https", "github.com", "abs") are in every link and say nothing of a
// paper.

// LinkOf returns the link in word as papers may write it: without the
// punctuation around it, its scheme and "www."; ok is false when word is
// no link.
func LinkOf(word string) (link string, ok bool) {
	link = strings.TrimLeft(word, "<([\"'")
	if i := strings.IndexByte(link, '|'); i >= 0 {
		link = link[:i] // Slack's <url|label>
	}
	link = strings.TrimRight(link, ".,;:!?)>]'\"")
	if !corpus.LooksLikeURL(link) && !hostPath(link) {
		return "", false
	}
	for _, p := range []string{"https://", "http://", "www."} {
		if len(link) >= len(p) && strings.EqualFold(link[:len(p)], p) {
			link = link[len(p):]
		}
	}
	return link, true
}

// hostPath reports whether s is a link written without its scheme, a host
// name and a path ("github.com/org/repo", as Slack shows a link it made).
func hostPath(s string) bool {
	host, path, ok := strings.Cut(s, "/")
	host = strings.ToLower(host)
	dot := strings.LastIndexByte(host, '.')
	if !ok || path == "" || dot <= 0 {
		return false
	}
	tld := host[dot+1:]
	if len(tld) < 2 || strings.IndexFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return false
	}
	return strings.IndexFunc(host, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-')
	}) < 0
}

// paperIDsAsLinks writes an arXiv identifier or DOI typed with its label as
// the identifier alone, which names a paper's link as a pasted link does:
// "arXiv:2305.14314", "arxiv 2305.14314" and "doi 10.1145/…" were searched
// as words, and "arxiv" found the papers that use the ogbn-arxiv dataset.
func paperIDsAsLinks(text []Clause) []Clause {
	if !slices.ContainsFunc(text, func(c Clause) bool { return !c.Phrase && idLabel(c.Text) != "" }) {
		return text
	}
	out := clausesFor(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		label := idLabel(c.Text)
		if c.Phrase || label == "" {
			out = append(out, c)
			continue
		}
		if _, rest, _ := strings.Cut(c.Text, ":"); rest != "" {
			if id := paperID(label, rest); id != "" {
				out = append(out, Clause{Text: id}) // "arXiv:2305.14314"
				continue
			}
		} else if i+1 < len(text) && !text[i+1].Phrase && (!EndsClause(c.Text) || strings.HasSuffix(c.Text, ":")) {
			if id := paperID(label, text[i+1].Text); id != "" {
				out = append(out, Clause{Text: id}) // "arxiv 2305.14314", "doi: 10.1145/…"
				i++
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// idLabel is "arxiv" or "doi" when w is that label, maybe with a colon and
// what follows it; "" otherwise.
func idLabel(w string) string {
	label, _, _ := strings.Cut(w, ":")
	switch {
	case strings.EqualFold(label, "arxiv"):
		return "arxiv"
	case strings.EqualFold(label, "doi"):
		return "doi"
	}
	return ""
}

// paperID is s as the identifier the label names, as a link can be looked
// up ("2305.14314", "https://doi.org/10.1145/…"); "" when s is none.
func paperID(label, s string) string {
	s = strings.TrimRight(s, ".,;:!?)")
	if label == "doi" {
		if strings.HasPrefix(s, "10.") && strings.Contains(s, "/") {
			return "https://doi.org/" + s
		}
		return ""
	}
	if key, ok := corpus.PaperLinkKey(s); ok && strings.HasPrefix(key, "arxiv:") {
		return s
	}
	return ""
}
