package corpus

import (
	"net/url"
	"strings"
)

// PaperLinkKey returns what identifies the paper a link points to, the same
// for every form people paste of one paper's link:
//   - arXiv's abstract, PDF and HTML pages of any version, the Hugging Face
//     paper page, and the identifier ("arXiv 2309.17453"): "arxiv:2309.17453";
//   - OpenReview's forum and PDF pages: "openreview:DLTjFFiuUJ";
//   - a DOI and its resolver links: "doi:10.1038/nature14539";
//   - any other link without its scheme, "www.", case, fragment or trailing
//     slash: "icml.cc/virtual/2025/poster/45068".
//
// Slack's <url|label> and <url> forms are read as the url. ok is false when
// s is not one link or identifier.
func PaperLinkKey(s string) (key string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "<([\"'")
	if i := strings.IndexAny(s, "|>"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, ".,;:!?)]'\"")
	if f := strings.Fields(s); len(f) == 2 && strings.EqualFold(strings.TrimSuffix(f[0], ":"), "arxiv") {
		s = f[1] // "arXiv 2309.17453"
	}
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return "", false
	}
	if id, ok := arxivIDOf(s); ok {
		return "arxiv:" + id, true
	}
	if doi, ok := strings.CutPrefix(strings.ToLower(s), "doi:"); ok && strings.HasPrefix(doi, "10.") {
		return "doi:" + doi, true
	}
	rest, marked := s, false // marked: a scheme or "www." says it is a link
	for _, p := range []string{"https://", "http://", "www."} {
		if hasPrefixFold(rest, p) {
			rest, marked = rest[len(p):], true
		}
	}
	host, path, slash := strings.Cut(rest, "/")
	host = strings.ToLower(host)
	// Without a scheme, only a host with a path is a link ("arxiv.org/abs/…"):
	// "e.g." is not.
	if !marked && (!slash || path == "") || !looksLikeURL("https://"+host) {
		return "", false
	}
	path, query, _ := strings.Cut(path, "?")
	path, _, _ = strings.Cut(path, "#")
	query, _, _ = strings.Cut(query, "#")
	path = strings.TrimRight(path, "/")
	switch host {
	case "arxiv.org", "export.arxiv.org":
		for _, page := range []string{"abs/", "pdf/", "html/"} {
			if id, ok := strings.CutPrefix(path, page); ok {
				if id, ok := arxivIDOf(id); ok {
					return "arxiv:" + id, true
				}
			}
		}
	case "huggingface.co":
		if id, ok := strings.CutPrefix(path, "papers/"); ok {
			if id, ok := arxivIDOf(id); ok {
				return "arxiv:" + id, true
			}
		}
	case "alphaxiv.org":
		for _, page := range []string{"abs/", "overview/", "pdf/"} {
			if id, ok := strings.CutPrefix(path, page); ok {
				if id, ok := arxivIDOf(id); ok {
					return "arxiv:" + id, true
				}
			}
		}
	case "openreview.net":
		if v, err := url.ParseQuery(query); err == nil && v.Get("id") != "" {
			switch path {
			case "forum", "pdf", "attachment":
				return "openreview:" + v.Get("id"), true
			}
		}
	case "doi.org", "dx.doi.org":
		if strings.HasPrefix(path, "10.") {
			return "doi:" + strings.ToLower(path), true
		}
	}
	if query != "" {
		path += "?" + query
	}
	return urlKey(host + "/" + path), true
}

// arxivIDOf returns the arXiv identifier s is, without its version or ".pdf"
// ("arXiv:2309.17453v2" is 2309.17453).
func arxivIDOf(s string) (string, bool) {
	if hasPrefixFold(s, "arxiv:") {
		s = s[len("arxiv:"):]
	}
	s = strings.TrimSuffix(s, ".pdf")
	m := arxivIDPattern.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return strings.TrimSuffix(s, m[3]), true
}
