package bibtex

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// keyStopWords are title words a key skips: "The Attention Is …" keys on
// "attention".
var keyStopWords = map[string]bool{"a": true, "an": true, "the": true, "on": true, "of": true, "in": true,
	"for": true, "to": true, "and": true, "with": true, "towards": true, "toward": true, "is": true, "are": true,
	"do": true, "does": true, "how": true, "what": true, "when": true, "why": true, "can": true, "via": true}

// keyFolds spell in ASCII the letters LaTeX names by a command of their own.
var keyFolds = map[rune]string{'ø': "o", 'Ø': "o", 'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ı': "i", 'þ': "th", 'Þ': "th", 'ð': "d", 'Ð': "d"}

// nameSuffixes end a name without being its surname.
var nameSuffixes = map[string]bool{"jr": true, "sr": true, "ii": true, "iii": true, "iv": true}

// BaseKey is the entry's key before clashes are resolved: the first author's
// surname, the year and the first title word that is not a stop word, in
// lower-case ASCII ("liu2025speculative"). Missing parts are left out; an
// entry with none is keyed "paper".
func BaseKey(e Entry) string {
	var b strings.Builder
	if len(e.Authors) > 0 {
		b.WriteString(keyWord(surname(e.Authors[0])))
	}
	if e.Year > 0 {
		b.WriteString(strconv.Itoa(e.Year))
	}
	for _, w := range strings.Fields(e.Title) {
		if k := keyWord(w); k != "" && !keyStopWords[k] {
			b.WriteString(k)
			break
		}
	}
	if b.Len() == 0 {
		return "paper"
	}
	return b.String()
}

// surname is the last word of a name given as "First Last" (before a suffix
// like "Jr."), or the part before the comma of "Last, First".
func surname(name string) string {
	if last, _, ok := strings.Cut(name, ","); ok {
		return last
	}
	words := strings.Fields(name)
	for len(words) > 1 && nameSuffixes[strings.ToLower(strings.Trim(words[len(words)-1], "."))] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return ""
	}
	return words[len(words)-1]
}

// keyWord folds s to lower-case ASCII letters and digits: "Müller-Lüdenscheidt"
// is "mullerludenscheidt".
func keyWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if base, ok := accented[r]; ok {
			b.WriteString(strings.ToLower(base.letter))
			continue
		}
		if f, ok := keyFolds[r]; ok {
			b.WriteString(f)
			continue
		}
		r = unicode.ToLower(r)
		if r < unicode.MaxASCII && isAlnum(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Keys gives each entry a key unique among them. Entries sharing a base key
// are told apart by a letter in the order of their IDs ("liu2025speculative",
// "liu2025speculativeb"), so an entry's key does not depend on where it
// stands in the list.
func Keys(entries []Entry) []string {
	groups := map[string][]int{}
	for i, e := range entries {
		k := BaseKey(e)
		groups[k] = append(groups[k], i)
	}
	keys := make([]string, len(entries))
	taken := map[string]bool{}
	for k := range groups {
		taken[k] = true
	}
	bases := make([]string, 0, len(groups))
	for k := range groups {
		bases = append(bases, k)
	}
	slices.Sort(bases)
	for _, base := range bases {
		idx := groups[base]
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(entries[a].ID, entries[b].ID) })
		keys[idx[0]] = base
		suffix := 'b'
		for _, i := range idx[1:] {
			for taken[base+suffixString(suffix)] {
				suffix++
			}
			keys[i] = base + suffixString(suffix)
			taken[keys[i]] = true
			suffix++
		}
	}
	return keys
}

// suffixString is b, c, …, z, then ba, bb, … for the 26th clash on.
func suffixString(n rune) string {
	if n <= 'z' {
		return string(n)
	}
	return suffixString('a'+(n-'a')/26) + string('a'+(n-'a')%26)
}
