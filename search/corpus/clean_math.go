package corpus

import "strings"

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
