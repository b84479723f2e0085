package sources

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// arxivIDRe matches a bare arXiv identifier, new style (2401.14040, 0704.0001)
// or old style (hep-th/9901001, math.GT/0309136), with an optional version.
var arxivIDRe = regexp.MustCompile(`^(\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Za-z-]+)?/\d{7})(?:v(\d+))?$`)

// arxivIDPrefixes are what services put in front of an identifier. They are
// matched case-insensitively, longest first where one contains another.
var arxivIDPrefixes = []string{
	"oai:arxiv.org:",
	"https://arxiv.org/abs/", "http://arxiv.org/abs/",
	"https://export.arxiv.org/abs/", "http://export.arxiv.org/abs/",
	"https://arxiv.org/pdf/", "http://arxiv.org/pdf/",
	"arxiv:",
}

// ParseArXivID extracts the identifier and version from any of the forms
// arXiv services use: "2609.26811v1", "arXiv:2609.26811v1",
// "oai:arXiv.org:2609.26811", "http://arxiv.org/abs/cond-mat/0412498v1".
// Version is 0 when the form carries none. ok is false when s is not an
// arXiv identifier.
func ParseArXivID(s string) (id string, version int, ok bool) {
	s = strings.TrimSpace(s)
	for _, p := range arxivIDPrefixes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.TrimSuffix(s, ".pdf")
	m := arxivIDRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	if m[2] != "" {
		v, err := strconv.Atoi(m[2])
		if err != nil || v < 1 {
			return "", 0, false
		}
		version = v
	}
	return m[1], version, true
}

// doiPrefixes are the URL and scheme forms a DOI arrives in.
var doiPrefixes = []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"}

// NormDOI returns doi in the canonical form used for identity: lower-case
// (DOIs are case-insensitive), without URL or "doi:" prefix. It returns ""
// when doi is not a DOI (it must start with "10.").
func NormDOI(doi string) string {
	s := strings.TrimSpace(doi)
	for _, p := range doiPrefixes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.ToLower(s)
	if !strings.HasPrefix(s, "10.") || !strings.Contains(s, "/") {
		return ""
	}
	return s
}

// CleanSpace collapses runs of white space (arXiv hard-wraps titles and
// abstracts at 80 columns, with leading spaces) into single spaces and trims
// the ends.
func CleanSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// TitleKey is the normalised title used to recognise the same paper across
// sources that share no identifier: lower-case letters and digits only,
// words separated by one space. Punctuation, TeX markup characters, case and
// wrapping differences do not change it. It is "" for an empty title.
func TitleKey(title string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// splitAuthors splits a plain author list ("A, B and C", "A, B, C") into
// names.
func splitAuthors(s string) []string {
	s = CleanSpace(s)
	if s == "" {
		return nil
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		for _, name := range strings.Split(part, " and ") {
			name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "and "))
			if name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}
