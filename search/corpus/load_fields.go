package corpus

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// add passes a raw record on for cleaning, or skips it with a problem when it
// has neither title nor abstract. A paper with a title only is kept, to be
// found by its title (listings and benchmarks have such papers: a search
// that dropped them could never return them), and reported once cleaned
// (pipeline.take); a stub abstract is kept and reported too.
func (l *loader) add(r rawPaper) {
	if strings.TrimSpace(r.abstract) == "" && !hasWord(r.title) {
		l.skip(r.src, "record has neither title nor abstract; skipped")
		return
	}
	l.capAbstract(&r)
	if hasWord(r.abstract) && !substantial(r.abstract) {
		l.problem(r.src, "abstract %q looks truncated; kept", cutAtWord(strings.TrimSpace(r.abstract), 60))
	}
	l.pending = append(l.pending, r)
	l.added++
	if len(l.pending) >= chunkSize {
		l.flush()
	}
}

// splitNames splits an author list: on ";" when present, else on " and "
// and ",". BibTeX-style "Last, First and Last, First" becomes "First Last".
func splitNames(s string) []string {
	s = strings.TrimSpace(s)
	var parts []string
	switch {
	case s == "":
		return nil
	case strings.Contains(s, ";"):
		parts = strings.Split(s, ";")
	case strings.Contains(s, " and "):
		bibtex := bibtexNames(s)
		for _, p := range strings.Split(s, " and ") {
			if last, first, ok := strings.Cut(p, ","); ok && bibtex {
				parts = append(parts, strings.TrimSpace(first)+" "+strings.TrimSpace(last))
				continue
			}
			parts = append(parts, strings.Split(p, ",")...)
		}
	default:
		parts = strings.Split(s, ",")
	}
	return cleanList(parts)
}

// bibtexNames reports whether every " and "-separated part of s has exactly
// one comma, as in "Zhang, Lijun and Zhou, Zhi-Hua".
func bibtexNames(s string) bool {
	for p := range strings.SplitSeq(s, " and ") {
		if strings.Count(p, ",") != 1 {
			return false
		}
	}
	return true
}

// splitKeywords splits a keyword list on ";" when present, else on ",".
func splitKeywords(s string) []string {
	sep := ","
	if strings.Contains(s, ";") {
		sep = ";"
	}
	return cleanList(strings.Split(s, sep))
}

// cleanList trims items, collapses inner white space and drops empty and
// repeated (ignoring case) items.
func cleanList(items []string) []string {
	out := make([]string, 0, len(items))
	var seen map[string]bool // for long lists only; short ones are scanned
	for _, it := range items {
		it = strings.TrimSpace(it)
		if strings.Contains(it, "  ") || strings.ContainsAny(it, "\t\n\r") {
			it = strings.Join(strings.Fields(it), " ")
		}
		if it == "" {
			continue
		}
		if len(out) >= 32 && seen == nil {
			seen = make(map[string]bool, len(items))
			for _, o := range out {
				seen[strings.ToLower(o)] = true
			}
		}
		if seen != nil {
			if seen[strings.ToLower(it)] {
				continue
			}
			seen[strings.ToLower(it)] = true
		} else if slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, it) }) {
			continue
		}
		out = append(out, it)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

var (
	yearInTextRe = regexp.MustCompile(`\b(19[5-9][0-9]|20[0-9][0-9])\b`)
	venueTailRe  = regexp.MustCompile(`(?i)\s+(accepted\s+)?(papers?|abstracts?|posters?|orals?|spotlights?|main( track| conference)?|conference|proceedings)$`)
	confFileRe   = regexp.MustCompile(`(?i)^([a-z]+)[_\-. ]?(?:cc[_\-])?((?:19|20)[0-9]{2})`)
)

// yearIn returns the first plausible year in s, or 0.
func yearIn(s string) int {
	m := yearInTextRe.FindString(s)
	if m == "" {
		return 0
	}
	y, _ := strconv.Atoi(m)
	return y
}

// normalizeVenue reduces a venue to conference and year: "ICML 2024 Poster",
// "ICLR 2024 spotlight" and "ICML 2025 Papers" become "ICML 2024", "ICLR
// 2024" and "ICML 2025"; the presentation type is dropped so that one
// conference is one venue. "NIPS" is spelled NeurIPS.
func normalizeVenue(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	if loc := yearInTextRe.FindStringIndex(v); loc != nil {
		v = v[:loc[1]]
	} else {
		for {
			t := venueTailRe.ReplaceAllString(v, "")
			if t == v {
				break
			}
			v = t
		}
	}
	if conf, rest, ok := strings.Cut(v, " "); ok || conf != "" {
		if fixed, known := conferenceNames[strings.ToLower(conf)]; known {
			v = fixed
			if ok {
				v += " " + rest
			}
		}
	}
	return v
}

// conferenceNames spells conference abbreviations that are not all capitals.
var conferenceNames = map[string]string{
	"nips": "NeurIPS", "neurips": "NeurIPS", "corl": "CoRL", "colt": "COLT", "aistats": "AISTATS",
	"tmlr": "TMLR", "jmlr": "JMLR", "siggraph": "SIGGRAPH", "interspeech": "Interspeech",
}

// venueFromFileName derives "NeurIPS 2018" from a file named nips2018.json
// and "ICML 2024" from ICML_cc_2024_Conference.csv: a leading run of letters
// and the year right after it. It returns "" when the name does not match.
func venueFromFileName(base string) string {
	m := confFileRe.FindStringSubmatch(base)
	if m == nil {
		return ""
	}
	conf := strings.ToUpper(m[1])
	if fixed, ok := conferenceNames[strings.ToLower(m[1])]; ok {
		conf = fixed
	}
	return conf + " " + m[2]
}

// cutAtWord cuts s to at most n runes at a word boundary, adding "…". It
// avoids ending inside an unclosed parenthesis when it can.
func cutAtWord(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := string(r[:n-1])
	if r[n-1] != ' ' { // the cut splits a word: drop its start
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i]
		}
	}
	if strings.Count(cut, "(") > strings.Count(cut, ")") {
		if i := strings.LastIndex(cut, " ("); i > len(cut)/2 {
			cut = cut[:i]
		}
	}
	return strings.TrimRight(cut, " ,;:-–—(") + "…"
}
