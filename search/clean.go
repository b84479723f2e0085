package search

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText turns authors' markup into readable plain text and returns the
// links found in it, in order of appearance, de-duplicated.
//
// It handles Markdown emphasis (**bold**, *em*, __x__, _x_), inline code and
// links ([text](url) becomes "text (url)"), TeX math ($k$-hop becomes k-hop,
// \ell_1 becomes ℓ₁, common symbols become Unicode), TeX text commands
// (\textit{x}, \emph{x}, \textbf{x} become x; \footnote{x} becomes " (x)"),
// escaped characters (\%, \&, \_), "~" ties, TeX quotes and HTML entities,
// and collapses white space. URLs (bare, in \url{}, \href{}{} or Markdown
// links) stay readable in the text. CleanText is pure, runs in time linear in
// len(s) and never panics, whatever the input.
func CleanText(s string) (text string, urls []string) {
	if s == "" {
		return "", nil
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.Contains(s, "&") && strings.Contains(s, ";") {
		s = html.UnescapeString(s)
	}
	c := newCleaner(s)
	var b strings.Builder
	b.Grow(len(s))
	c.run(&b, false, 0)
	return tidySpace(b.String()), c.urls
}

// maxGroupDepth bounds brace nesting so hostile input cannot exhaust the stack.
const maxGroupDepth = 32

// emphasisLookahead bounds the search for a closing emphasis marker, keeping
// CleanText linear.
const emphasisLookahead = 400

// cleaner is the state of one CleanText call: a cursor over src, whether it
// is inside TeX math, and the links found so far.
type cleaner struct {
	src  string
	i    int
	math bool
	// mathDouble: the math span opened with "$$".
	mathDouble bool
	urls       []string
	seen       map[string]bool
	closers    map[int]bool // positions of emphasis markers already matched to an opener
	// lastDollar is the position of the last '$' in src: a '$' opens math only
	// if another one follows it, so "$5 million" stays literal.
	lastDollar int
}

func newCleaner(s string) *cleaner {
	return &cleaner{src: s, lastDollar: strings.LastIndexByte(s, '$')}
}

// run copies src from c.i into b, translating markup. With inGroup it stops
// after the '}' closing the current group.
func (c *cleaner) run(b *strings.Builder, inGroup bool, depth int) {
	for c.i < len(c.src) {
		ch := c.src[c.i]
		switch {
		case ch == '}':
			c.i++
			if inGroup {
				return
			}
		case ch == '{':
			c.i++
			if depth < maxGroupDepth {
				c.run(b, true, depth+1)
			}
		case ch == '\\':
			c.command(b, depth)
		case ch == '$':
			c.dollar(b)
		case c.math && (ch == '_' || ch == '^'):
			c.script(b, depth)
		case c.math:
			c.copyPlain(b, plainInMath)
		case ch == '*' || ch == '_':
			c.emphasis(b)
		case ch == '~':
			// A tie ("Fig.~3") is a space; "~10x" after a space or
			// bracket means "about".
			afterSpace := c.i == 0 || isSpaceByte(c.src[c.i-1]) || c.src[c.i-1] == '('
			c.i++
			if afterSpace && c.i < len(c.src) && isASCIIDigit(c.src[c.i]) {
				b.WriteByte('~')
			} else {
				b.WriteByte(' ')
			}
		case ch == '`':
			c.i++
			if c.i < len(c.src) && c.src[c.i] == '`' {
				c.i++
				b.WriteByte('"')
			}
		case ch == '\'' && strings.HasPrefix(c.src[c.i:], "''"):
			c.i += 2
			b.WriteByte('"')
		case ch == '[':
			if !c.markdownLink(b, depth) {
				c.i++
				b.WriteByte('[')
			}
		default:
			if urlStart[ch] && c.atWordStart() && c.url(b) {
				continue
			}
			c.copyPlain(b, plainOutsideMath)
		}
	}
}

// plainInMath and plainOutsideMath mark the bytes that need no
// translation, so runs of them are copied at once; urlStart marks the first
// letters of a URL (http, www, github, gitlab, bitbucket, huggingface).
var (
	plainInMath      = byteSet("{}\\$_^", false)
	plainOutsideMath = byteSet("{}\\$*_~`'["+urlStarters, false)
	urlStart         = byteSet(urlStarters, true)
)

const urlStarters = "hHwWgGbB"

// byteSet returns a table that is in for the bytes of s, !in for the others.
func byteSet(s string, in bool) *[256]bool {
	var t [256]bool
	for i := range t {
		t[i] = !in
	}
	for i := range len(s) {
		t[s[i]] = in
	}
	return &t
}

// copyPlain copies the byte at c.i and the run of plain bytes after it.
// Special bytes are ASCII, so a run never splits a UTF-8 sequence.
func (c *cleaner) copyPlain(b *strings.Builder, plain *[256]bool) {
	j := c.i + 1
	for j < len(c.src) && plain[c.src[j]] {
		j++
	}
	b.WriteString(c.src[c.i:j])
	c.i = j
}

func (c *cleaner) copyRune(b *strings.Builder) {
	r, n := utf8.DecodeRuneInString(c.src[c.i:])
	c.i += n
	b.WriteRune(r)
}

func (c *cleaner) atWordStart() bool {
	if c.i == 0 {
		return true
	}
	if prev := c.src[c.i-1]; prev < utf8.RuneSelf {
		return !isWordByte(prev) && prev != '/' && prev != '.' && prev != '@'
	}
	r, _ := utf8.DecodeLastRuneInString(c.src[:c.i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/' && r != '.' && r != '@'
}

// dollar opens or closes TeX math ($...$ or $$...$$). Math opened by one
// '$' closes at the next one, so "$a$$b$" is two spans. A '$' with no
// partner after it, or one opening what reads as a price ("$50 an
// attacker ... $x$"), is a literal dollar sign.
func (c *cleaner) dollar(b *strings.Builder) {
	width := 1
	if strings.HasPrefix(c.src[c.i:], "$$") && (!c.math || c.mathDouble) {
		width = 2
	}
	switch {
	case c.math:
		c.math, c.mathDouble = false, false
	case c.i+width <= c.lastDollar && !c.isPrice():
		c.math, c.mathDouble = true, width == 2
	default:
		b.WriteString(c.src[c.i : c.i+width])
	}
	c.i += width
}

// isPrice reports whether the '$' at c.i starts an amount of money: a digit
// follows, and either the next '$' starts another amount or the text up to
// it reads like prose (two plain words, no TeX).
func (c *cleaner) isPrice() bool {
	rest := c.src[c.i+1:]
	if rest == "" || !isASCIIDigit(rest[0]) {
		return false
	}
	next := strings.IndexByte(rest, '$')
	if next < 0 {
		return true
	}
	if next+1 < len(rest) && isASCIIDigit(rest[next+1]) {
		return true
	}
	span := rest[:next]
	if strings.ContainsAny(span, `\^_{}`) {
		return false
	}
	words := 0
	for w := range strings.FieldsSeq(span) {
		if len(w) >= 3 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz,.;") == "" {
			words++
		}
	}
	return words >= 2
}

// emphasis drops Markdown emphasis markers. Runs of two or more '*' are
// always markup (**bold**, ***both***, authors' "**BEN**chmark"); a single
// '*' or '_' run is dropped when it opens a span that a matching marker
// closes, and is otherwise literal ("A* search", "snake_case").
func (c *cleaner) emphasis(b *strings.Builder) {
	ch := c.src[c.i]
	run := 1
	for c.i+run < len(c.src) && c.src[c.i+run] == ch {
		run++
	}
	if c.closers[c.i] {
		delete(c.closers, c.i)
		c.i += run
		return
	}
	if ch == '*' && run >= 2 {
		c.i += run
		if run%2 == 1 {
			c.i-- // an odd run also opens a single '*' span
			if close := c.findCloser(ch, 1); close >= 0 {
				c.addCloser(close)
			}
			c.i++
		}
		return
	}
	width := min(run, 2)
	if close := c.findCloser(ch, width); close >= 0 && run <= 2 {
		c.addCloser(close)
		c.i += width
		return
	}
	b.WriteString(c.src[c.i : c.i+run])
	c.i += run
}

func (c *cleaner) addCloser(pos int) {
	if c.closers == nil {
		c.closers = make(map[int]bool)
	}
	c.closers[pos] = true
}

// findCloser returns the position of the marker closing the emphasis that
// opens at c.i, or -1. As in CommonMark, an opener precedes a non-space and a
// closer follows one; '*' may open and close inside a word
// ("**BEN**chmark"), '_' may not ("snake_case_name").
func (c *cleaner) findCloser(ch byte, width int) int {
	start := c.i + width
	if start >= len(c.src) || isSpaceByte(c.src[start]) || c.src[start] == ch {
		return -1
	}
	if ch == '_' && (c.i > 0 && isWordByte(c.src[c.i-1]) || !startsWithLetter(c.src[start:])) {
		return -1
	}
	end := min(len(c.src), start+emphasisLookahead)
	for j := start + 1; j+width <= end; j++ {
		if c.src[j] == '\n' && j+1 < len(c.src) && c.src[j+1] == '\n' {
			return -1
		}
		if c.src[j] != ch || isSpaceByte(c.src[j-1]) || c.src[j-1] == ch {
			continue
		}
		if c.src[j:j+width] != c.src[c.i:c.i+width] {
			continue
		}
		after := j + width
		if after < len(c.src) && (c.src[after] == ch || ch == '_' && startsWithLetter(c.src[after:])) {
			continue
		}
		return j
	}
	return -1
}

// markdownLink renders [text](url) as "text (url)", or just the URL when the
// text is the URL itself. It reports false when src at c.i is no link.
func (c *cleaner) markdownLink(b *strings.Builder, depth int) bool {
	rest := c.src[c.i:]
	closeText := strings.Index(rest[:min(len(rest), emphasisLookahead)], "](")
	if closeText < 0 || strings.ContainsAny(rest[1:closeText], "[]\n") {
		return false
	}
	urlStart := closeText + 2
	closeURL := strings.IndexByte(rest[urlStart:min(len(rest), urlStart+maxURLLen)], ')')
	if closeURL < 0 {
		return false
	}
	link := rest[urlStart : urlStart+closeURL]
	if !looksLikeURL(link) || strings.ContainsAny(link, " \t\n") {
		return false
	}
	label := rest[1:closeText]
	c.i += urlStart + closeURL + 1
	c.addURL(link)
	if depth >= maxGroupDepth {
		b.WriteString(link)
		return true
	}
	sub := &cleaner{src: label, lastDollar: strings.LastIndexByte(label, '$'), seen: c.seen, urls: c.urls}
	var lb strings.Builder
	sub.run(&lb, false, depth+1)
	c.urls, c.seen = sub.urls, sub.seen
	text := strings.TrimSpace(lb.String())
	if text == "" || sameURL(text, link) {
		b.WriteString(link)
		return true
	}
	b.WriteString(text)
	b.WriteString(" (")
	b.WriteString(link)
	b.WriteString(")")
	return true
}

// tidySpace collapses runs of white space to one space, trims the ends and
// restores the space missing in scraped text such as "LLMs.To overcome".
func tidySpace(s string) string {
	if isTidy(s) {
		return fixSentenceJoins(s)
	}
	var out strings.Builder
	out.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		ch := s[i]
		n := 1
		isSpace := ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
		if ch >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = out.Len() > 0
		} else {
			if space {
				out.WriteByte(' ')
				space = false
			}
			out.WriteString(s[i : i+n])
		}
		i += n
	}
	return fixSentenceJoins(out.String())
}

// isTidy reports whether s has no space to collapse or trim; non-ASCII
// spaces count as untidy.
func isTidy(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case ch < ' ', ch == 0x7f, ch >= utf8.RuneSelf && (ch == 0xc2 || ch == 0xe1 || ch == 0xe2 || ch == 0xe3):
			// control characters; U+0085, U+00A0, U+1680, U+2000-U+205F, U+3000
			return false
		}
	}
	return true
}

// fixSentenceJoins inserts a space in "words.Next" where a scraper removed a
// line break between sentences: two lower-case letters, a period, then an
// upper-case letter followed by a lower-case one. URLs are left alone.
func fixSentenceJoins(s string) string {
	var b strings.Builder
	last := 0
	for i := 2; i+2 < len(s); i++ {
		if s[i] != '.' || !isASCIILower(s[i-1]) || !isASCIILetter(s[i-2]) || !isASCIIUpper(s[i+1]) || !isASCIILower(s[i+2]) {
			continue
		}
		ws := max(0, i-maxURLLen)
		ws += strings.LastIndexByte(s[ws:i], ' ') + 1
		if strings.ContainsAny(s[ws:i], "/@") {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 8)
		}
		b.WriteString(s[last : i+1])
		b.WriteByte(' ')
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isASCIIDigit(ch byte) bool  { return ch >= '0' && ch <= '9' }
func isASCIILower(ch byte) bool  { return ch >= 'a' && ch <= 'z' }
func isASCIIUpper(ch byte) bool  { return ch >= 'A' && ch <= 'Z' }
func isASCIILetter(ch byte) bool { return isASCIILower(ch) || isASCIIUpper(ch) }
func isSpaceByte(ch byte) bool   { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' }

func isWordByte(ch byte) bool {
	return isASCIILower(ch) || isASCIIUpper(ch) || isASCIIDigit(ch) || ch >= utf8.RuneSelf
}

func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
