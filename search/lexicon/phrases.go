package lexicon

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Phrases are the patterns of one role and anchor: words around a focal
// word that give it the role ("under the [hood]", "any [idea]"). A
// pattern is words separated by spaces:
//
//	[w]        the focal word; w as any other token
//	a|b        one of these words
//	@role/anch a word of the lexicon's role under anch (Words); may be an
//	           alternative ("@context/before-know|people")
//	!a|b       any word but these, or none
//	*          any word (there is one)
//	,          the word before ends a clause ("link?" after "paper,")
//	_          the word before does not end a clause
//	^ (first)  the pattern starts the text; $ (last) it ends it
//
// A word before the focal one that ends a clause matches no word: a
// pattern does not reach back over a comma into the sentence before.
type Phrases struct {
	byWord map[string][]*pattern
}

type pattern struct {
	src        string
	toks       []ptok
	focal      int
	start, end bool
}

type tokKind uint8

const (
	tokWords tokKind = iota
	tokAny
	tokNot
)

type ptok struct {
	kind  tokKind
	words map[string]bool
	// ends: 0 no condition, 1 the word ends a clause, 2 it does not.
	ends uint8
}

// Patterns returns the patterns of the rows with role and anchor, whose
// Word column holds a pattern. It panics when there is none or one does
// not parse, as Words does.
func Patterns(role, anchor string) *Phrases {
	p := &Phrases{byWord: map[string][]*pattern{}}
	n := 0
	for _, r := range rows() {
		if r.Role != role || r.Anchor != anchor {
			continue
		}
		pt, err := parsePattern(r.Word)
		if err != nil {
			panic(fmt.Sprintf("lexicon.tsv:%d: %v", r.Line, err))
		}
		for w := range pt.toks[pt.focal].words {
			p.byWord[w] = append(p.byWord[w], pt)
		}
		n++
	}
	if n == 0 {
		panic(fmt.Sprintf("lexicon: no patterns of role %q under anchor %q", role, anchor))
	}
	return p
}

// Focal returns the words pattern src gives its role to.
func Focal(src string) ([]string, error) {
	pt, err := parsePattern(src)
	if err != nil {
		return nil, err
	}
	var out []string
	for w := range pt.toks[pt.focal].words {
		out = append(out, w)
	}
	return out, nil
}

func parsePattern(src string) (*pattern, error) {
	pt := &pattern{src: src, focal: -1}
	fields := strings.Fields(src)
	for k, f := range fields {
		switch {
		case f == "^" && k == 0:
			pt.start = true
			continue
		case f == "$" && k == len(fields)-1:
			pt.end = true
			continue
		case f == "," || f == "_":
			if len(pt.toks) == 0 {
				return nil, fmt.Errorf("pattern %q: %s before any word", src, f)
			}
			pt.toks[len(pt.toks)-1].ends = map[string]uint8{",": 1, "_": 2}[f]
			continue
		}
		t := ptok{kind: tokWords}
		if strings.HasPrefix(f, "[") && strings.HasSuffix(f, "]") {
			if pt.focal >= 0 {
				return nil, fmt.Errorf("pattern %q: two focal words", src)
			}
			pt.focal = len(pt.toks)
			f = f[1 : len(f)-1]
		}
		switch {
		case f == "*":
			t.kind = tokAny
		case strings.HasPrefix(f, "!"):
			t.kind = tokNot
			f = f[1:]
		}
		if t.kind != tokAny {
			t.words = map[string]bool{}
			for _, alt := range strings.Split(f, "|") {
				if ref, ok := strings.CutPrefix(alt, "@"); ok {
					role, anchor, _ := strings.Cut(ref, "/")
					for w := range Words(role, anchor) {
						t.words[w] = true
					}
				} else if alt != "" {
					t.words[alt] = true
				}
			}
			if len(t.words) == 0 {
				return nil, fmt.Errorf("pattern %q: %q names no word", src, f)
			}
		}
		pt.toks = append(pt.toks, t)
	}
	if pt.focal < 0 || pt.toks[pt.focal].kind != tokWords {
		return nil, fmt.Errorf("pattern %q: no [focal] word", src)
	}
	return pt, nil
}

// At reports whether a pattern matches a text of n words with its focal
// word at i. word(j) returns word j without the punctuation around it, in
// any case ("" for a quoted phrase, which no pattern matches), and whether
// it ends a clause. At allocates nothing for ASCII words: the parser runs
// it on every word of every query.
func (p *Phrases) At(n, i int, word func(j int) (w string, ends bool)) bool {
	_, _, ok := p.Match(n, i, word)
	return ok
}

// Match is At that also returns the span of the words the first pattern
// that matches covers, [start, end): the caller drops or keeps them whole
// ("related work section on …").
func (p *Phrases) Match(n, i int, word func(j int) (w string, ends bool)) (start, end int, ok bool) {
	w, _ := word(i)
	var buf [maxFold]byte
	var cands []*pattern
	if b, ok := foldASCII(&buf, w); ok {
		cands = p.byWord[string(b)]
	} else {
		cands = p.byWord[strings.ToLower(w)]
	}
	for _, pt := range cands {
		if pt.at(n, i, word) {
			start = i - pt.focal
			return start, start + len(pt.toks), true
		}
	}
	return 0, 0, false
}

func (pt *pattern) at(n, i int, word func(j int) (string, bool)) bool {
	base := i - pt.focal
	if pt.start && base != 0 || pt.end && base+len(pt.toks) != n {
		return false
	}
	for k, t := range pt.toks {
		j := base + k
		if j < 0 || j >= n {
			if t.kind == tokNot && t.ends == 0 {
				continue
			}
			return false
		}
		w, ends := word(j)
		if j < i && ends {
			w = ""
		}
		switch t.kind {
		case tokWords:
			if !has(t.words, w) {
				return false
			}
		case tokNot:
			if has(t.words, w) {
				return false
			}
		}
		if t.ends == 1 && !ends || t.ends == 2 && ends {
			return false
		}
	}
	return true
}

// maxFold is the longest word folded to lower case on the stack.
const maxFold = 48

// has reports whether set holds w lower-cased, allocating nothing for a
// short ASCII word.
func has(set map[string]bool, w string) bool {
	var buf [maxFold]byte
	if b, ok := foldASCII(&buf, w); ok {
		return set[string(b)]
	}
	return set[strings.ToLower(w)]
}

// foldASCII writes w lower-cased into buf, when w is ASCII and fits.
func foldASCII(buf *[maxFold]byte, w string) ([]byte, bool) {
	if len(w) > len(buf) {
		return nil, false
	}
	for k := 0; k < len(w); k++ {
		c := w[k]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	return buf[:len(w)], true
}
