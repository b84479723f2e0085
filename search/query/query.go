// Package query is query understanding: text in, a parsed query out whose
// words carry roles (topic, frame, count, channel, action, filter, …). It
// needs no index: the word lists it reads are search/lexicon/lexicon.tsv,
// and the steps that ask the index (its vocabulary, authors, venues,
// acronyms and joined words) are package search's, run on the parse.
package query

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The query language, parsed here into a small AST of our own. User text is
// never handed to bleve's query-string syntax (which turns a trailing "?"
// into a wildcard); package search builds bleve queries from this AST
// (query_bleve.go).
//
//	free text            words, matched with stemming, acronyms and typo tolerance
//	"a phrase"           words next to each other, in this order
//	-word, -"a phrase"   papers containing it are left out
//	title:word           title:"a phrase"  (also author:, venue:)
//	year:2025            year:2020..2024  year:>=2023  year:<2020
//	has:code             papers whose abstract links to code; -has:code for none
//	cat:cs.LG  since:7d  date:2026-11   what the feeds recorded (dates.go)

// MaxLen and MaxClauses bound what the parser reads.
const (
	MaxLen     = 1000 // characters; longer input is pasted text, see search.Index.SimilarText
	MaxClauses = 64
)

// Parsed is a parsed query-language string.
type Parsed struct {
	Text    []Clause      // positive free text, in the order typed
	Exclude []Clause      // -word, -"phrase"
	Fields  []FieldClause // title:, author:, venue:
	Years   []YearClause
	HasCode *bool // nil: no has: filter
	// Question is true when the text reads as a natural-language Question.
	Question bool
	// Answer: the caller wants an Answer sentence whatever the text.
	Answer bool
	// Quantity: the question asks how much or how many ("how much faster
	// is ...?"): its answer is a sentence with the number.
	Quantity bool
	// Defines: the question asks what an acronym stands for; its answer
	// is the sentence that spells it out.
	Defines bool
	// Newest: the query asks for the Newest papers first ("latest papers
	// by Sergey Levine").
	Newest bool
	// Filter is the cat:, since: (as a date) and date: filters typed, and
	// at search time search.Request.Filter as well (WithRequest).
	Filter Filter
	// SinceAgo is a since:7d filter, resolved against the clock at search time.
	SinceAgo time.Duration
}

// Clause is a word or a quoted phrase, as typed.
type Clause struct {
	Text   string
	Phrase bool
	// Apart: words typed Apart, joined with hyphens as papers write them
	// ("few shot": "few-shot"); a paper that writes them Apart still has
	// them all.
	Apart bool
}

// FieldClause restricts one field; not inverts it.
type FieldClause struct {
	Field string // FieldTitle, FieldAuthors or FieldVenue
	Clause
	Not bool
}

// YearClause is an inclusive year range; 0 leaves a side open.
type YearClause struct {
	Min, Max int
	Not      bool
}

// Positive reports whether q asks for something rather than only excluding.
func (q *Parsed) Positive() bool {
	if len(q.Text) > 0 || (q.HasCode != nil && *q.HasCode) || q.HasFeedFilter() {
		return true
	}
	for _, f := range q.Fields {
		if !f.Not {
			return true
		}
	}
	for _, y := range q.Years {
		if !y.Not {
			return true
		}
	}
	return false
}

// Narrowed reports whether q has a filter or an exclusion beside its text,
// typed or from the request.
func (q *Parsed) Narrowed() bool {
	return len(q.Exclude) > 0 || len(q.Fields) > 0 || len(q.Years) > 0 || q.HasCode != nil ||
		q.HasFeedFilter() || !q.Filter.AnnouncedUntil.IsZero()
}

// FilterOnly reports whether q has no free text, only filters.
func (q *Parsed) FilterOnly() bool { return len(q.Text) == 0 }

// The fields a filter names, each under the name of the index field it
// restricts (package search's mapping uses these names).
const (
	FieldTitle      = "title"
	FieldAuthors    = "authors"
	FieldVenue      = "venue"
	FieldYear       = "year"
	FieldHasCode    = "has_code"
	FieldCategories = "categories"
)

var queryFields = map[string]string{
	"title":   FieldTitle,
	"author":  FieldAuthors,
	"authors": FieldAuthors,
	"by":      FieldAuthors,
	"venue":   FieldVenue,
	"year":    FieldYear,
	"has":     FieldHasCode,
	"cat":     FieldCategories,
	"since":   fieldSince,
	"date":    fieldDate,
}

// Query is a request's text parsed once: the bot reads from it how many
// papers are asked for, then searches it (search.Request.Query) without
// parsing the text again. A Query is not modified by searching it and is
// safe for concurrent use.
type Query struct {
	text   string
	parsed *Parsed
}

// Parse parses text in the query language. Errors are *Error whose Msg
// says what is wrong and how to fix it.
func Parse(text string) (*Query, error) {
	q, err := ParseText(text)
	if err != nil {
		return nil, err
	}
	return &Query{text: text, parsed: q}, nil
}

// Text returns the text q was parsed from.
func (q *Query) Text() string { return q.text }

// Parsed returns a copy of q's parse, which the caller may change (a
// search sets its Answer and Filter).
func (q *Query) Parsed() *Parsed {
	p := *q.parsed
	return &p
}

// Error is text the query language cannot read.
type Error struct {
	// Msg says what is wrong and how to fix it, to show the user.
	Msg string
}

func (e *Error) Error() string { return e.Msg }

func invalidf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// ParseText parses s. Errors are *Error whose Msg says what is wrong and
// how to fix it.
func ParseText(s string) (*Parsed, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, invalidf("the query is empty: type a few words to search for, e.g. `kv cache compression`")
	}
	if n := utf8.RuneCountInString(s); n > MaxLen {
		return nil, invalidf("the query is too long (%d characters, at most %d); to find papers like a whole abstract, use \"similar\" with the text", n, MaxLen)
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	p := parser{src: []rune(s)}
	q := &Parsed{}
	for {
		p.skipSpace()
		if p.done() {
			break
		}
		if len(q.Text)+len(q.Exclude)+len(q.Fields)+len(q.Years) >= MaxClauses {
			return nil, invalidf("the query has too many words (at most %d); shorten it", MaxClauses)
		}
		if err := p.term(q); err != nil {
			return nil, err
		}
	}
	q.Text, q.Exclude = spokenExclusions(q.Text, q.Exclude)
	q.Text = withoutRelatedWork(q.Text)
	titleInWords(q)
	codeInWords(q)
	q.Text = withoutTimeFraming(q.Text)
	q.Newest = asksNewest(q.Text)
	q.Text = withoutLinkRequest(q.Text)
	q.Text = snakeCaseApart(q.Text)
	q.Text = shortYearsApart(q.Text)
	q.Text = paperIDsAsLinks(q.Text)
	q.Text = q.Text[openingClauses(q.Text):]
	if len(q.Text) > 0 && !q.Text[0].Phrase && isChatLabel(q.Text[0].Text) {
		q.Text = q.Text[1:]
	}
	if !q.Positive() {
		if len(q.Exclude) == 0 && len(q.Fields) == 0 && len(q.Years) == 0 && q.HasCode == nil {
			return nil, invalidf("the query has nothing to search for: type a few words, e.g. `graph neural networks`")
		}
		return nil, invalidf("the query only excludes (with -): add at least one word or filter to search for, e.g. `diffusion -image`")
	}
	q.Question = isQuestion(s)
	q.Quantity = asksQuantity(s)
	q.Defines = asksDefinition(s)
	if q.Question {
		// Framing alone ("stand for?") is still what was asked.
		text := q.Text
		if q.Text = withoutAskersAndTimes(q.Text); !q.Positive() {
			q.Text = text
		}
	}
	return q, nil
}

type parser struct {
	src []rune
	pos int
}

func (p *parser) done() bool { return p.pos >= len(p.src) }

func (p *parser) peek() rune {
	if p.done() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) skipSpace() {
	for !p.done() && unicode.IsSpace(p.src[p.pos]) {
		p.pos++
	}
}

func isQuote(r rune) bool {
	switch r {
	case '"', '“', '”', '„', '‟', '«', '»', '＂':
		return true
	}
	return false
}

func isMinus(r rune) bool { return r == '-' || r == '−' || r == '–' }

// term parses one clause, with an optional leading minus, at p.pos.
func (p *parser) term(q *Parsed) error {
	not := false
	if isMinus(p.peek()) {
		p.pos++
		if p.done() || unicode.IsSpace(p.peek()) || isMinus(p.peek()) {
			// A dash on its own is punctuation, not an exclusion.
			for !p.done() && isMinus(p.peek()) {
				p.pos++
			}
			return nil
		}
		not = true
	}
	if isQuote(p.peek()) {
		text, err := p.phrase()
		if err != nil {
			return err
		}
		q.add(Clause{Text: text, Phrase: true}, not)
		return nil
	}
	if end, ok := p.singleQuoted(); ok {
		// 'Attention is all you need': single quotes make a phrase too.
		text := strings.TrimSpace(string(p.src[p.pos+1 : end]))
		p.pos = end + 1
		q.add(Clause{Text: text, Phrase: true}, not)
		return nil
	}
	word := p.word()
	if name, rest, ok := fieldPrefix(word); ok {
		if _, known := queryFields[name]; known {
			return p.field(q, name, rest, not)
		}
		// A colon in ordinary text ("regressing: a study") is text: only
		// a filter word before it makes a filter.
	}
	// Slack's _italics_ arrive as underscores around words, which the
	// tokenizer would keep ("_kv"); snake_case inside a word stays.
	word = strings.Trim(word, "_")
	if word == "" {
		return nil
	}
	if w, ok := chatShorthands[strings.ToLower(word)]; ok {
		word = w // "zero-shot w/o finetuning": without
	}
	q.add(Clause{Text: withoutStyleSuffix(word)}, not)
	return nil
}

// add puts c in the free text, or among the exclusions when not; an empty
// phrase ("") is nothing to add.
func (q *Parsed) add(c Clause, not bool) {
	switch {
	case c.Text == "":
	case not:
		q.Exclude = append(q.Exclude, c)
	default:
		q.Text = append(q.Text, c)
	}
}

// singleQuoted reports whether a single quote at p.pos opens a phrase, and
// where its closing quote is: one ending a word ("need'" before a space,
// punctuation or the end), so the apostrophes of "Bengio's" or "can't"
// inside it close nothing. Without one the quote is part of a word.
func (p *parser) singleQuoted() (int, bool) {
	if r := p.peek(); r != '\'' && r != '‘' {
		return 0, false
	}
	for j := p.pos + 2; j < len(p.src); j++ {
		if c := p.src[j]; c != '\'' && c != '’' || unicode.IsSpace(p.src[j-1]) {
			continue
		}
		if j+1 == len(p.src) || unicode.IsSpace(p.src[j+1]) || strings.ContainsRune(",.;:!?)", p.src[j+1]) {
			return j, true
		}
	}
	return 0, false
}

// word reads up to white space or a quote.
func (p *parser) word() string {
	start := p.pos
	for !p.done() && !unicode.IsSpace(p.peek()) && !isQuote(p.peek()) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

// peekWord returns the word at p.pos without reading it.
func (p *parser) peekWord() string {
	start := p.pos
	w := p.word()
	p.pos = start
	return w
}

// isFilter reports whether word starts with a known filter ("year:").
func isFilter(word string) bool {
	name, _, ok := fieldPrefix(word)
	_, known := queryFields[name]
	return ok && known
}

// phrase reads a quoted phrase starting at the opening quote.
func (p *parser) phrase() (string, error) {
	open := p.pos
	p.pos++
	start := p.pos
	for !p.done() && !isQuote(p.peek()) {
		p.pos++
	}
	if p.done() {
		return "", invalidf("the quote before %q is never closed: add a closing \" or remove the quote", Excerpt(string(p.src[open+1:])))
	}
	text := strings.TrimSpace(string(p.src[start:p.pos]))
	p.pos++ // closing quote
	return text, nil
}

func Excerpt(s string) string { return ExcerptN(s, ExcerptRunes) }

// ExcerptRunes is the length of an excerpt of a paper's words on a card.
const ExcerptRunes = 30

// ExcerptN is s cut to n runes, marked when cut: a link needs more than a
// word to be recognised.
func ExcerptN(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// fieldPrefix splits "name:rest" when name is letters only. A URL
// ("https://...") is not a field.
func fieldPrefix(word string) (name, rest string, ok bool) {
	i := strings.IndexByte(word, ':')
	if i <= 0 {
		return "", "", false
	}
	for _, r := range word[:i] {
		if !unicode.IsLetter(r) {
			return "", "", false
		}
	}
	rest = word[i+1:]
	if strings.HasPrefix(rest, "//") {
		return "", "", false
	}
	return strings.ToLower(word[:i]), rest, true
}

// field parses the value of name: (rest is what followed the colon in the
// same word; a quoted phrase may follow directly).
func (p *parser) field(q *Parsed, name, rest string, not bool) error {
	field := queryFields[name]
	value, phrase := rest, false
	if rest == "" {
		// "title: scaling", as people write it: the next word (or quoted
		// phrase) is the value, unless it is a filter of its own.
		start := p.pos
		p.skipSpace()
		if !isQuote(p.peek()) {
			if next := p.peekWord(); next != "" && !isFilter(next) {
				value = p.word()
			} else {
				p.pos = start
			}
		}
	}
	if rest == "" && isQuote(p.peek()) {
		text, err := p.phrase()
		if err != nil {
			return err
		}
		value, phrase = text, true
	}
	if strings.TrimSpace(value) == "" {
		return invalidf("%s needs a value after the colon, e.g. %s", name+":", fieldExample(field))
	}
	switch field {
	case FieldCategories, fieldSince, fieldDate:
		return feedClause(q, field, value, not)
	case FieldYear:
		y, err := parseYear(value)
		if err != nil {
			return err
		}
		y.Not = not
		for _, o := range q.Years {
			if !o.Not && !y.Not && !yearsOverlap(o, y) {
				return invalidf("the year filters %s and %s cannot both hold: keep one", yearString(o), yearString(y))
			}
		}
		q.Years = append(q.Years, y)
	case FieldHasCode:
		if !strings.EqualFold(value, "code") {
			return invalidf("has:%s is not supported: the only one is has:code (or -has:code)", value)
		}
		want := !not
		if q.HasCode != nil && *q.HasCode != want {
			return invalidf("has:code and -has:code cannot both hold: keep one")
		}
		q.HasCode = &want
	default:
		q.Fields = append(q.Fields, FieldClause{Field: field, Clause: Clause{Text: value, Phrase: phrase}, Not: not})
	}
	return nil
}

func fieldExample(field string) string {
	switch field {
	case FieldTitle:
		return `title:transformer or title:"flow matching"`
	case FieldAuthors:
		return `author:jaakkola or author:"Tommi Jaakkola"`
	case FieldVenue:
		return `venue:icml or venue:"ICLR 2024"`
	case FieldYear:
		return "year:2025, year:2020..2024 or year:>=2023"
	case FieldCategories:
		return "cat:cs.LG"
	case fieldSince:
		return "since:7d"
	case fieldDate:
		return "date:2026-11"
	default:
		return "has:code"
	}
}

const yearHelp = "use year:2025, year:2020..2024, year:>=2023 or year:<2020"

// parseYear parses 2025, 2020..2024 (or 2020-2024), 2020.., ..2024, >=2023,
// >2023, <=2023 and <2023.
func parseYear(v string) (YearClause, error) {
	bad := func() (YearClause, error) {
		return YearClause{}, invalidf("year:%s is not a year or a range of years: %s", v, yearHelp)
	}
	for _, op := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(v, op); ok {
			y, ok := yearNumber(rest)
			if !ok {
				return bad()
			}
			switch op {
			case ">=":
				return YearClause{Min: y}, nil
			case ">":
				return YearClause{Min: y + 1}, nil
			case "<=":
				return YearClause{Max: y}, nil
			default:
				return YearClause{Max: y - 1}, nil
			}
		}
	}
	lo, hi, isRange := strings.Cut(v, "..")
	if !isRange {
		lo, hi, isRange = strings.Cut(v, "-")
	}
	if !isRange {
		y, ok := yearNumber(v)
		if !ok {
			return bad()
		}
		return YearClause{Min: y, Max: y}, nil
	}
	var c YearClause
	var ok bool
	if lo != "" {
		if c.Min, ok = yearNumber(lo); !ok {
			return bad()
		}
	}
	if hi != "" {
		if c.Max, ok = yearNumber(hi); !ok {
			return bad()
		}
	}
	if lo == "" && hi == "" {
		return bad()
	}
	if c.Min != 0 && c.Max != 0 && c.Min > c.Max {
		return YearClause{}, invalidf("year:%s runs backwards: write the earlier year first, e.g. year:%d..%d", v, c.Max, c.Min)
	}
	return c, nil
}

// yearNumber accepts a four-digit year.
func yearNumber(s string) (int, bool) {
	if len(s) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(s)
	if err != nil || y < 1000 {
		return 0, false
	}
	return y, true
}

func yearsOverlap(a, b YearClause) bool {
	lo, hi := max(a.Min, b.Min), a.Max
	if hi == 0 || (b.Max != 0 && b.Max < hi) {
		hi = b.Max
	}
	return hi == 0 || lo <= hi
}

func yearString(y YearClause) string {
	switch {
	case y.Min == y.Max:
		return fmt.Sprintf("year:%d", y.Min)
	case y.Max == 0:
		return fmt.Sprintf("year:>=%d", y.Min)
	case y.Min == 0:
		return fmt.Sprintf("year:<=%d", y.Max)
	default:
		return fmt.Sprintf("year:%d..%d", y.Min, y.Max)
	}
}

func FieldLabel(field string) string {
	if field == FieldAuthors {
		return "author"
	}
	return field
}
