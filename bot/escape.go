package bot

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// entityEscaper turns the three characters Slack treats as markup into entities.
var entityEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape makes s safe to place in any Slack text object or message text:
// invalid UTF-8 is replaced, control and bidirectional-override characters are
// dropped, and &, < and > become entities. Nothing that comes out of Escape
// can ping (<!channel>, <!here>, <@U…>) or forge a link (<url|text>).
func Escape(s string) string {
	return entityEscaper.Replace(clean(s))
}

// EscapeInline is Escape for one-line fields (titles, authors, queries):
// runs of white space, newlines included, become one space, and the ends are
// trimmed.
func EscapeInline(s string) string {
	return strings.TrimSpace(Escape(collapseSpace(s)))
}

// collapseSpace replaces every run of white space with one space, keeping a
// space at either end when s had one there.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inSpace := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !inSpace {
				b.WriteByte(' ')
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(r)
	}
	return b.String()
}

// clean replaces invalid UTF-8 and drops control characters other than
// newline and tab, and the bidi controls that can make text read backwards.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F:
			return -1
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// bold wraps already-escaped text in mrkdwn bold. The characters that would
// close the bold early or open code inside it (* and `) are removed and
// surrounding spaces trimmed, because Slack only bolds "*word*", never
// "* word *". It returns "" when nothing printable is left.
func bold(escaped string) string {
	t := unmark(escaped)
	if t == "" {
		return ""
	}
	return "*" + t + "*"
}

// unmark removes * and ` and trims spaces.
func unmark(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '*' || r == '`' {
			return -1
		}
		return r
	}, s))
}

// maxLinkURL bounds URLs placed inside mrkdwn links, so a card's text stays
// within the section limit however long the corpus URL is.
const maxLinkURL = 500

// SafeURL reports whether u may be linked: absolute http or https (scheme in
// lower case) with a host,
// no white space, control characters or the characters that end a Slack link
// (| and >) or start one (<), and at most 500 bytes.
func SafeURL(u string) bool {
	if u == "" || len(u) > maxLinkURL || strings.ContainsAny(u, "|<> \t\r\n\"") {
		return false
	}
	for _, r := range u {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return false
		}
	}
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return false
	}
	p, err := url.Parse(u)
	return err == nil && p.Host != "" && p.User == nil
}

// link returns a mrkdwn link to u labelled with escaped text, or the label
// alone when u is not safe. The label's "|" is replaced because it would end
// the URL part of a link for some Slack clients.
func link(u, escapedLabel string) string {
	if !SafeURL(u) {
		return escapedLabel
	}
	label := strings.ReplaceAll(escapedLabel, "|", "∣")
	return "<" + strings.ReplaceAll(u, "&", "&amp;") + "|" + label + ">"
}

// Truncate shortens s to at most max characters (Unicode code points, as
// Slack counts them), cutting at a word boundary when one is near the end and
// appending "…". It never cuts an entity (&amp;) in half. max < 1 yields "".
func Truncate(s string, max int) string {
	if max < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	// Byte offset of the first max-1 runes, leaving room for the ellipsis.
	cut := 0
	for i := 0; i < max-1; i++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	head := s[:cut]
	// Prefer a word boundary in the last third of the kept text.
	if sp := strings.LastIndexAny(head, " \n\t"); sp > 0 && utf8.RuneCountInString(head[:sp]) >= (max-1)*2/3 {
		head = head[:sp]
	}
	// Do not end inside an entity such as "&am".
	if amp := strings.LastIndexByte(head, '&'); amp >= 0 && !strings.Contains(head[amp:], ";") && len(head)-amp < len("&amp;") {
		head = head[:amp]
	}
	head = strings.TrimRightFunc(head, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':'
	})
	return head + "…"
}
