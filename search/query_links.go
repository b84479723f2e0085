package search

import (
	"strings"

	"github.com/paperbot/paperbot/search/corpus"
)

// A pasted link is searched whole, as a phrase (textGroups): its parts
// ("https", "github.com", "abs") are in every link and say nothing of a
// paper.

// linkOf returns the link in word as papers may write it: without the
// punctuation around it, its scheme and "www."; ok is false when word is
// no link.
func linkOf(word string) (link string, ok bool) {
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
