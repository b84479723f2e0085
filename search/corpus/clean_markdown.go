package corpus

import "strings"

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
	closeURL := strings.IndexByte(rest[urlStart:min(len(rest), urlStart+maxLinkScan)], ')')
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
