package bibtex

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Write writes entries as a .bib file, in their order, each with the key
// Keys gives it, and returns the first write error.
func Write(w io.Writer, entries []Entry) error {
	keys := Keys(entries)
	for i, e := range entries {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, format(e, keys[i])); err != nil {
			return err
		}
	}
	return nil
}

// Format is one entry alone, keyed BaseKey(e).
func Format(e Entry) string { return format(e, BaseKey(e)) }

// field is one "name = {value}" line.
type field struct{ name, value string }

func format(e Entry, key string) string {
	e = e.FromURL()
	typ := e.Type()
	var fields []field
	add := func(name, value string) {
		if strings.TrimSpace(value) != "" {
			fields = append(fields, field{name, value})
		}
	}
	add("title", protectCase(Escape(title(e))))
	add("author", authors(e.Authors))
	switch typ {
	case "inproceedings":
		add("booktitle", Escape(e.Venue))
	case "article":
		journal := e.Venue
		if e.ArXivID != "" && (journal == "" || strings.EqualFold(strings.TrimSpace(journal), "arxiv")) {
			journal = "arXiv preprint arXiv:" + e.ArXivID
		}
		add("journal", Escape(journal))
	default:
		add("howpublished", Escape(e.Venue))
	}
	if e.Year > 0 {
		add("year", strconv.Itoa(e.Year))
	}
	if e.ArXivID != "" {
		add("eprint", e.ArXivID)
		add("archivePrefix", "arXiv")
		add("primaryClass", safeValue(e.PrimaryClass))
	}
	add("doi", safeValue(e.DOI))
	add("url", safeValue(e.URL))
	var b strings.Builder
	fmt.Fprintf(&b, "@%s{%s,\n", typ, key)
	for i, f := range fields {
		fmt.Fprintf(&b, "  %-13s = {%s}", f.name, f.value)
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.String()
}

// title is the entry's title, or its ID when it has none.
func title(e Entry) string {
	if strings.TrimSpace(e.Title) != "" {
		return e.Title
	}
	return "Untitled paper " + e.ID
}

// authors joins names with BibTeX's "and"; a name's own "and" is braced
// so that it is not read as a separator.
func authors(names []string) string {
	var out []string
	for _, n := range names {
		n = Escape(withSuffixLast(n))
		if n == "" {
			continue
		}
		words := strings.Fields(n)
		for i, w := range words {
			if strings.EqualFold(w, "and") {
				words[i] = "{" + w + "}"
			}
		}
		out = append(out, strings.Join(words, " "))
	}
	return strings.Join(out, " and ")
}

// withSuffixLast writes "First Last Jr." as BibTeX wants it, "Last, Jr., First";
// other names are kept as they are.
func withSuffixLast(name string) string {
	words := strings.Fields(name)
	if len(words) < 3 || strings.Contains(name, ",") || !nameSuffixes[strings.ToLower(strings.Trim(words[len(words)-1], "."))] {
		return name
	}
	n := len(words)
	return words[n-2] + ", " + words[n-1] + ", " + strings.Join(words[:n-2], " ")
}

// safeValue keeps a URL, DOI or category verbatim (BibTeX reads them as they
// are), without the braces and spaces that would end or split the field.
func safeValue(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '{', '}', '\\', '\n', '\r', '\t', ' ', '"':
			return -1
		}
		return r
	}, s)
}
