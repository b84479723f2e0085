package search

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"
)

// surnameSample is how many papers bearing a name token are read to learn
// how often it is their authors' surname.
const surnameSample = 16

// usedAsWord reports whether the corpus's papers use a one-token name as a
// word more often than their authors bear it as a surname: "long" (long
// context) and "black" (black-box) are words here, "Wang" and "Song" are
// names. A first name alone is rarely whom a user means: "Adam" is the
// optimizer and "BO" Bayesian optimisation, although many authors are
// called Adam or Bo. Read as names, such words ranked papers by Mingsheng
// Long above the long-tailed ones for "long tail distribution", and papers
// by an Adam above those comparing Adam with SGD.
func (s *state) usedAsWord(stem string, names []string) bool {
	if len(names) != 1 {
		return false
	}
	df := s.vocab.df(stem)
	return df > 0 && float64(df) > s.surnames(names[0])
}

// surnames estimates how many papers have an author whose surname (last
// word of the name) is token: the papers bearing it at all, times the
// surname share of a sample of them. Kept per index state.
func (s *state) surnames(token string) float64 {
	key := "surnames " + token
	if v, ok := s.memo.Load(key); ok {
		return v.(float64)
	}
	n := s.vocab.name(token)
	share := 1.0
	if n > 0 {
		cands, _, err := s.run(context.Background(), termsQuery(fieldAuthors, []string{token}, 1), surnameSample)
		if err == nil && len(cands) > 0 {
			last := 0
			for _, c := range cands {
				if s.surnameOf(c.doc.Authors, token) {
					last++
				}
			}
			share = float64(last) / float64(len(cands))
		}
	}
	v := float64(n) * share
	s.memo.Store(key, v)
	return v
}

// surnameOf reports whether token is the last word of one of authors' names.
func (s *state) surnameOf(authors []string, token string) bool {
	for _, a := range authors {
		ts := s.an.name.Analyze([]byte(a))
		if len(ts) > 0 && string(ts[len(ts)-1].Term) == token {
			return true
		}
	}
	return false
}

// fullName reports whether some paper has an author named by first then
// second, in that order and next to each other ("Adam White"): two words
// that are each mostly words ("black box") are a name only then.
func (s *state) fullName(first, second []string) bool {
	terms := append(append([]string(nil), first...), second...)
	key := "full name " + strings.Join(terms, " ")
	if v, ok := s.memo.Load(key); ok {
		return v.(bool)
	}
	cands, _, err := s.run(context.Background(), termsQuery(fieldAuthors, terms, 1), 1)
	found := err == nil && len(cands) > 0
	s.memo.Store(key, found)
	return found
}

// surnameTypoSample is how many papers by a first name are read for the
// surname typed amiss.
const surnameTypoSample = 200

// surnameTypo returns the surname an author whose first name is first
// bears, when typed is one edit from it (two from a surname of seven
// letters or more) and from no other such author's: "Yoshua Bengo" is
// Yoshua Bengio, "Sergey Levin" Sergey Levine (the corpus has a Levin, but
// no Sergey Levin).
func (s *state) surnameTypo(first, typed string) (string, bool) {
	r, _ := utf8.DecodeRuneInString(typed)
	if !unicode.IsUpper(r) || !lettersOnly(typed) || utf8.RuneCountInString(typed) < 3 {
		return "", false
	}
	fn := s.nameTokens(first)
	if len(fn) != 1 {
		return "", false
	}
	typed = strings.ToLower(typed)
	key := "surname typo " + fn[0] + " " + typed
	if v, ok := s.memo.Load(key); ok {
		sur := v.(string)
		return sur, sur != ""
	}
	limit := 1
	if utf8.RuneCountInString(typed) >= 7 {
		limit = 2
	}
	found, many, exact := "", false, false
	cands, _, err := s.run(context.Background(), termsQuery(fieldAuthors, fn, 1), surnameTypoSample)
	for _, c := range cands {
		for _, a := range c.doc.Authors {
			ts := s.an.name.Analyze([]byte(a))
			if len(ts) < 2 || string(ts[0].Term) != fn[0] {
				continue
			}
			switch sur := string(ts[len(ts)-1].Term); {
			case sur == typed:
				exact = true // "Mingsheng Long" is no typo for Mingsheng Hong
			case sur == found:
			default:
				if _, ok := editDistance(sur, typed, limit); ok {
					many = many || found != ""
					found = sur
				}
			}
		}
	}
	if err != nil || many || exact {
		found = "" // two authors it could be, or the one typed: guess neither
	}
	s.memo.Store(key, found)
	return found, found != ""
}

// stopWordSurname reports whether word, which the text analyzer drops as
// a stop word ("He", "An", "Do"), is typed as a surname after first, a
// first name, and the two are some author's name ("Kaiming He").
func (s *state) stopWordSurname(first, word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	f, _ := utf8.DecodeRuneInString(first)
	if !unicode.IsUpper(r) || !unicode.IsUpper(f) || !lettersOnly(word) {
		return false
	}
	fn, sn := s.nameTokens(first), s.nameTokens(word)
	return len(fn) == 1 && len(sn) == 1 && s.fullName(fn, sn)
}

// namesBesideNames gives a word that is mostly a word ("long") its name
// reading back when it stands next to a name ("Mingsheng Long"), or when it
// and its neighbour are together some author's name ("Adam White").
func (s *state) namesBesideNames(groups []group) {
	named := make([]bool, len(groups))
	for i, g := range groups {
		named[i] = len(g.names) > 0
	}
	single := func(g group) bool { return len(g.alts) > 0 && len(g.alts[0].terms) == 1 }
	for i := 0; i+1 < len(groups); i++ {
		a, b := &groups[i], &groups[i+1]
		if named[i] || named[i+1] || !single(*a) || !single(*b) {
			continue
		}
		na, nb := s.nameTokens(a.surface), s.nameTokens(b.surface)
		if len(na) > 0 && len(nb) > 0 && s.fullName(na, nb) {
			a.names, b.names = na, nb
			a.weight, b.weight = s.groupWeight(*a), s.groupWeight(*b)
			named[i], named[i+1] = true, true
		}
	}
	for i := range groups {
		g := &groups[i]
		if named[i] || !single(*g) {
			continue
		}
		if (i > 0 && named[i-1]) || (i+1 < len(groups) && named[i+1]) {
			if names := s.nameTokens(g.surface); len(names) > 0 {
				g.names = names
				g.weight = s.groupWeight(*g)
			}
		}
	}
}
