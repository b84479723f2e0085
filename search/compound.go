package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/query"
)

// Identifiers such as G-CSF, IL-6, GPT-4o, KV-cache and SO(3) are split into
// parts by the word analyzer ("g", "csf"), where the common parts drown the
// rare whole. They are indexed and queried whole as well, joined and lower-
// cased ("gcsf", "il6", "gpt4o"), so IL6 finds IL-6 and a paper naming the
// identifier beats papers that match its parts by chance.

// compound is an identifier's byte range in a text and its joined form.
type compound struct {
	start, end int
	joined     string
}

// compounds finds the identifiers of text: two or more runs of letters and
// digits joined by a hyphen or wrapped in brackets ("SO(3)"), with a digit,
// or a part in capitals of at most four letters ("G-CSF", "KV-cache").
// Hyphenated words with a stop word among their parts ("few-shot",
// "out-of-distribution", "off-policy") count too: the analyzer drops that
// word, and with it what sets them apart from "zero-shot",
// "in-distribution" and "on-policy". Other hyphenated words
// ("Kramers-Wannier") are not identifiers.
func compounds(text string) []compound {
	var out []compound
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isAlnum(r) {
			i += size
			continue
		}
		start, end := i, i
		parts, ident, stop, content, bracket := 0, false, false, false, false
		var joined strings.Builder
		for {
			// one part
			ps, js := end, joined.Len()
			for end < len(text) {
				r, size := utf8.DecodeRuneInString(text[end:])
				if !isAlnum(r) {
					break
				}
				joined.WriteRune(unicode.ToLower(r))
				end += size
			}
			parts++
			ident = ident || identifierPart(text[ps:end])
			if query.StopWords()[joined.String()[js:]] {
				stop = true
			} else {
				content = true
			}
			// a separator followed by another part
			if sep := separatorAt(text, end); sep > 0 && end+sep < len(text) {
				next, _ := utf8.DecodeRuneInString(text[end+sep:])
				if isAlnum(next) {
					if text[end] == '(' {
						bracket = true
						close := strings.IndexByte(text[end:], ')')
						if close < 0 || close > 8 {
							break
						}
					}
					end += sep
					continue
				}
			}
			if end < len(text) && text[end] == ')' && strings.LastIndexByte(text[start:end], '(') >= 0 {
				end++
			}
			break
		}
		if parts >= 2 && (ident || stop && content && !bracket) {
			out = append(out, compound{start: start, end: end, joined: joined.String()})
		}
		i = max(end, i+size)
	}
	return out
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isHyphen reports whether r joins the parts of a word. Typeset abstracts
// join "PD‐1" with U+2010, the Unicode hyphen, or its non-breaking twin
// U+2011, where users type "-".
func isHyphen(r rune) bool { return r == '-' || r == '\u2010' || r == '\u2011' }

// hyphenAt returns the byte length of the hyphen at text[i], 0 if there is
// none.
func hyphenAt(text string, i int) int {
	if i >= len(text) {
		return 0
	}
	if r, size := utf8.DecodeRuneInString(text[i:]); isHyphen(r) {
		return size
	}
	return 0
}

// hyphenBefore reports whether a hyphen ends text[:i].
func hyphenBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return isHyphen(r)
}

// separatorAt returns the byte length of a hyphen or opening bracket at
// text[i] that may join an identifier's parts, 0 if there is none.
func separatorAt(text string, i int) int {
	if i < len(text) && text[i] == '(' {
		return 1
	}
	return hyphenAt(text, i)
}

// identifierPart reports whether one part marks its compound as an
// identifier: it has a digit, or it is a short run of capitals ("G", "CSF").
func identifierPart(p string) bool {
	if strings.IndexFunc(p, unicode.IsDigit) >= 0 {
		return true
	}
	n := utf8.RuneCountInString(p)
	return n <= 4 && strings.IndexFunc(p, func(r rune) bool { return !unicode.IsUpper(r) }) < 0
}

// joinedIdentifiers lists the joined forms of text's identifiers, and the
// initial forms of its Greek-lettered names, for the index to hold beside
// the parts.
func joinedIdentifiers(text string) string {
	var b strings.Builder
	for _, c := range compounds(text) {
		b.WriteString(c.joined)
		b.WriteByte(' ')
	}
	for _, c := range initialForms(text) {
		b.WriteString(c.joined)
		b.WriteByte(' ')
	}
	return b.String()
}

// Biologists type a Greek letter as its Latin initial: NF-kB for NF-κB,
// IL-1b for IL-1β, TNF-a, HIF-1a, GSK3b. The index holds that form of a
// name written with the letter or its spelled name (NF-κB, NF-kappaB) beside
// its joined form, so either finds the other.

// initialLetters are the Greek letters biology names use; each is typed as
// its name's first letter.
const initialLetters = "αβγδεζκ"

// greekInitial returns the Latin initial of r, a lower-case Greek letter of
// initialLetters.
func greekInitial(r rune) (byte, bool) {
	if !strings.ContainsRune(initialLetters, r) {
		return 0, false
	}
	return greekNames[r][0], true
}

// initialForms finds the names of text with a Greek letter, or a part after
// the first that opens with a spelled one, and gives each its joined form
// with the letter as its initial ("nfkb", "il1b", "tgfb1"). A form of fewer
// than four letters is left out: Aβ as "ab" would be any "AB".
func initialForms(text string) []compound {
	var out []compound
	var b strings.Builder
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isAlnum(r) {
			i += size
			continue
		}
		start, end, cuts := i, i, 0 // cuts: the parts' ends but the last
		greek := false
		for {
			for end < len(text) {
				r, size := utf8.DecodeRuneInString(text[end:])
				if !isAlnum(r) {
					break
				}
				_, ok := greekInitial(unicode.ToLower(r))
				greek = greek || ok
				end += size
			}
			if sep := hyphenAt(text, end); sep > 0 && end+sep < len(text) {
				if next, _ := utf8.DecodeRuneInString(text[end+sep:]); isAlnum(next) {
					end += sep
					cuts++
					continue
				}
			}
			break
		}
		i = end
		if !greek && cuts == 0 {
			continue // most words: no letter, and no later part to spell one
		}
		b.Reset()
		changed, part := false, 0
		for ps := start; ps < end; part++ {
			pe := ps
			for pe < end {
				r, size := utf8.DecodeRuneInString(text[pe:])
				if !isAlnum(r) {
					break
				}
				pe += size
			}
			changed = writeInitials(&b, text[ps:pe], part > 0) || changed
			ps = pe + hyphenAt(text, pe)
		}
		if changed && b.Len() >= 4 {
			out = append(out, compound{start: start, end: end, joined: b.String()})
		}
	}
	return out
}

// writeInitials writes part lower-cased to b with its Greek letters as
// their initials, and, when spelled is set, a name it opens with after its
// digits ("1beta", "kappaB", not "betaine"); it reports whether it changed
// any.
func writeInitials(b *strings.Builder, part string, spelled bool) bool {
	changed := false
	digits := len(part) - len(strings.TrimLeft(part, "0123456789"))
	b.WriteString(part[:digits])
	rest := part[digits:]
	if spelled {
		for _, letter := range initialLetters {
			name := greekNames[letter]
			if len(rest) < len(name) || !strings.EqualFold(rest[:len(name)], name) {
				continue
			}
			after := rest[len(name):]
			if next, _ := utf8.DecodeRuneInString(after); after == "" || unicode.IsDigit(next) || unicode.IsUpper(next) {
				b.WriteByte(name[0])
				rest, changed = after, true
			}
			break
		}
	}
	for _, r := range rest {
		r = unicode.ToLower(r)
		if c, ok := greekInitial(r); ok {
			b.WriteByte(c)
			changed = true
			continue
		}
		b.WriteRune(r)
	}
	return changed
}

// greekAsInitials returns s with its Greek letters as their initials.
func greekAsInitials(s string) string {
	return strings.Map(func(r rune) rune {
		if c, ok := greekInitial(unicode.ToLower(r)); ok {
			return rune(c)
		}
		return r
	}, s)
}
