package search

import "slices"

// docText is a paper's title and abstract analysed with the index's own
// analyzer, computed on first use and kept: it tells which query groups a
// candidate paper matches, where (for snippets and answers), and how well.
type docText struct {
	title, abstract []dtoken
	// sents are the abstract's sentences, for answers and confidence.
	sents []span
	// names maps author-name tokens to their credit: 1 for surnames (an
	// author's last word), firstNameCredit for other words of names, so
	// "roman" in "the roman empire" is weak evidence for an author Roman.
	names map[string]float64
}

const firstNameCredit = 0.5

// dtoken is one analysed word of a field.
type dtoken struct {
	stem       string
	start, end int32 // byte offsets in the field's text
	pos        int32 // token position; removed stop words leave gaps
	camel      bool  // the word is a CamelCase compound ("SpecPrefill")
}

// titleText is what the index holds as the title of p.
func titleText(p *Paper) string {
	if p.Title == "" {
		return p.Headline
	}
	return p.Title
}

// doc returns the analysed text of paper p. Safe for concurrent use: two
// callers racing on a cold paper both analyse it and one result is kept.
func (s *state) doc(p *record) *docText {
	if d := p.text.Load(); d != nil {
		return d
	}
	d := &docText{
		title:    s.analyse(titleText(&p.Paper)),
		abstract: s.analyse(p.Abstract),
		sents:    sentences(p.Abstract),
		names:    map[string]float64{},
	}
	for _, a := range p.Authors {
		ts := s.an.name.Analyze([]byte(a))
		for i, t := range ts {
			c := firstNameCredit
			if i == len(ts)-1 {
				c = 1
			}
			d.names[string(t.Term)] = max(d.names[string(t.Term)], c)
		}
	}
	p.text.CompareAndSwap(nil, d)
	return p.text.Load()
}

func (s *state) analyse(text string) []dtoken {
	ts := s.an.text.Analyze([]byte(text))
	out := make([]dtoken, len(ts), len(ts)+4)
	for i, t := range ts {
		out[i] = dtoken{stem: string(t.Term), start: int32(t.Start), end: int32(t.End), pos: int32(t.Position),
			camel: isCamel(text[t.Start:t.End])}
	}
	// Identifiers also stand whole, over their parts, as the index has them.
	for _, c := range slices.Concat(compounds(text), initialForms(text)) {
		if stem, ok := s.joinedStem(c.joined); ok {
			i, _ := slices.BinarySearchFunc(out, int32(c.start), func(t dtoken, start int32) int { return int(t.start - start) })
			pos := int32(0)
			if i < len(out) {
				pos = out[i].pos
			}
			out = slices.Insert(out, i, dtoken{stem: stem, start: int32(c.start), end: int32(c.end), pos: pos})
		}
	}
	return out
}

// joinedStem analyses an identifier's joined form as the index does.
func (s *state) joinedStem(joined string) (string, bool) {
	ts := s.an.text.Analyze([]byte(joined))
	if len(ts) != 1 {
		return "", false
	}
	return string(ts[0].Term), true
}

// field is one analysed field of a paper, with its text.
type field struct {
	toks []dtoken
	text string
}

// fields returns p's title and abstract, analysed.
func (s *state) fields(p *record) [2]field {
	d := s.doc(p)
	return [2]field{{d.title, titleText(&p.Paper)}, {d.abstract, p.Abstract}}
}
