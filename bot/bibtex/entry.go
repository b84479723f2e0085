package bibtex

import (
	"regexp"
	"strings"
)

// Entry is one paper to cite. ID only breaks ties between papers whose keys
// would clash; it is not written.
type Entry struct {
	ID      string
	Title   string
	Authors []string
	Year    int // 0 when unknown
	Venue   string
	URL     string
	// DOI and ArXivID are found in URL when empty (see FromURL).
	DOI          string
	ArXivID      string
	PrimaryClass string // arXiv's primary category, e.g. "cs.CL"
}

var (
	arxivRe = regexp.MustCompile(`(?i)arxiv\.org/(?:abs|pdf|html)/((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?`)
	doiRe   = regexp.MustCompile(`(?i)(?:doi\.org/|doi:\s*)(10\.\d{4,9}/[^\s"{}]+)`)
)

// FromURL fills DOI and ArXivID from the entry's URL when they are empty:
// "https://arxiv.org/abs/2401.01234v2" is arXiv 2401.01234,
// "https://doi.org/10.1145/3292500" DOI 10.1145/3292500.
func (e Entry) FromURL() Entry {
	if e.ArXivID == "" {
		if m := arxivRe.FindStringSubmatch(e.URL); m != nil {
			e.ArXivID = m[1]
		}
	}
	if e.DOI == "" {
		if m := doiRe.FindStringSubmatch(e.URL); m != nil {
			e.DOI = strings.TrimRight(m[1], ".,;")
		}
	}
	return e
}

// Type is the entry type: "inproceedings" for a conference or workshop,
// "article" for a journal or an arXiv preprint (its URL says so), "misc"
// otherwise.
func (e Entry) Type() string {
	v := strings.ToLower(e.Venue)
	switch {
	case containsAny(v, conferenceWords):
		return "inproceedings"
	case containsAny(v, journalWords), e.FromURL().ArXivID != "":
		return "article"
	}
	return "misc"
}

// conferenceWords and journalWords tell a venue's kind from its name:
// "ICML 2025" and "Proceedings of ACL" are conferences, "Nature" and
// "Transactions on …" journals. A venue naming neither is a journal.
var (
	conferenceWords = []string{"conference", "proceedings", "workshop", "symposium", "congress", "meeting",
		"icml", "neurips", "nips", "iclr", "aaai", "ijcai", "acl", "emnlp", "naacl", "coling", "cvpr", "iccv",
		"eccv", "kdd", "sigir", "www", "uai", "aistats", "colt", "interspeech", "icassp", "miccai", "corl", "icra", "iros"}
	journalWords = []string{"journal", "transactions", "letters", "review", "nature", "science", "cell", "lancet",
		"jmlr", "tmlr", "tacl", "bioinformatics", "plos", "annals", "quarterly", "magazine", "bulletin", "arxiv"}
)

// containsAny reports whether one of words is a whole word of s.
func containsAny(s string, words []string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !isAlnum(r) }) {
		for _, w := range words {
			if f == w {
				return true
			}
		}
	}
	return false
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
