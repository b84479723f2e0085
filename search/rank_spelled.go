package search

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/query"
)

// Names written as one CamelCase word ("FlashAttention", "LongLoRA") are
// typed apart in Slack ("flash attention"). bleve's OR of the words ranks
// them below the many papers that repeat the commoner word, so the papers
// that write the name are looked up by its joined form in a run of their
// own, and join the re-ranking when they write it CamelCase: "health care"
// gains nothing from "healthcare".

// spelledPapersMax bounds the papers one spelled name adds.
const spelledPapersMax = 10

// spelledPapers returns the papers, not among cands, that write two
// adjacent words of the query as one CamelCase name, re-scored as cands
// were; filters apply as in the main run.
func (s *state) spelledPapers(ctx context.Context, q *query.Parsed, groups []group, mt *matcher, cands []candidate) []candidate {
	var alts []alt
	for i := 0; i+1 < len(groups); i++ {
		a, b := groups[i].surface, groups[i+1].surface
		switch {
		case spellsCamelPart(a) && spellsCamelPart(b) && len(mt.camel[i]) > 0 && len(mt.camel[i+1]) > 0:
			a, b = unclipped(a), unclipped(b) // "flash attn": FlashAttention
		case mt.typed[i] != "" && mt.typed[i+1] != "":
			// Short words the name is made of, whole: "stealth ink".
		default:
			continue
		}
		if stem, ok := s.joinedStem(strings.ToLower(a + b)); ok && s.vocab.has(stem) {
			alts = append(alts, alt{kind: altExact, terms: []string{stem}})
		}
	}
	if len(alts) == 0 {
		return nil
	}
	lookup, err := s.bleveQuery(q, []group{{surface: groups[0].surface, alts: alts, weight: 1}})
	if err != nil {
		return nil
	}
	found, _, err := s.run(ctx, lookup, spelledPapersMax)
	if err != nil {
		return nil
	}
	found = slices.DeleteFunc(notAmong(found, cands), func(c candidate) bool { return !s.writesCamelSpelled(c.doc, mt) })
	s.rerank(found, mt, mt.grams)
	return found
}

// writesCamelSpelled reports whether paper p's title or abstract has a
// CamelCase word that two adjacent query words spell.
func (s *state) writesCamelSpelled(p *record, mt *matcher) bool {
	for _, f := range s.fields(p) {
		for _, t := range f.toks {
			if !t.camel {
				continue
			}
			for gi := 0; gi+1 < len(mt.camel); gi++ {
				if mt.typedJoin(f.text[t.start:t.end], gi) {
					return true
				}
				for _, w := range mt.camel[gi] {
					if camelSpells(f.text[t.start:t.end], w, mt.camel[gi+1]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// unclipped is the word a clipped word stands for ("attn": attention),
// else the word.
func unclipped(w string) string {
	if full := query.Clipping(w); full != "" {
		return full
	}
	return w
}

// spellsCamelPart reports whether a typed word can be a part of a CamelCase
// name the matcher looks for: letters only, at least four of them.
func spellsCamelPart(w string) bool {
	return utf8.RuneCountInString(w) >= 4 && lettersOnly(w)
}
