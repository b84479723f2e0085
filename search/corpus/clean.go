package corpus

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
