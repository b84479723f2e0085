package corpus

import (
	"strings"
	"unicode/utf8"
)

// command translates the TeX command at c.i (which is a backslash).
func (c *cleaner) command(b *strings.Builder, depth int) {
	c.i++
	if c.i >= len(c.src) {
		return
	}
	if !isASCIILower(c.src[c.i]) && !isASCIIUpper(c.src[c.i]) {
		c.controlSymbol(b, depth)
		return
	}
	start := c.i
	for c.i < len(c.src) && (isASCIILower(c.src[c.i]) || isASCIIUpper(c.src[c.i])) {
		c.i++
	}
	name := c.src[start:c.i]
	if sym, ok := texSymbols[name]; ok {
		b.WriteString(sym)
		return
	}
	switch {
	case texUnwrap[name]:
		if c.nextIsGroup() {
			b.WriteString(c.arg(depth))
		}
	case texAccents[name]:
		b.WriteString(c.arg(depth))
	case texDropArg[name]:
		c.optionalArg()
		if c.nextIsGroup() {
			c.rawArg()
		}
	case texDrop[name]:
		if name == "left" || name == "right" || strings.HasPrefix(name, "big") || strings.HasPrefix(name, "Big") {
			if c.i < len(c.src) && c.src[c.i] == '.' {
				c.i++ // \left. is an invisible delimiter
			}
		}
	case name == "mathbb":
		arg := c.arg(depth)
		if ds, ok := doubleStruck[arg]; ok {
			arg = ds
		}
		b.WriteString(arg)
	case name == "url":
		link := strings.TrimSpace(c.rawArg())
		c.addURL(link)
		b.WriteString(link)
	case name == "href":
		link := strings.TrimSpace(c.rawArg())
		text := strings.TrimSpace(c.arg(depth))
		c.addURL(link)
		if text == "" || sameURL(text, link) {
			b.WriteString(link)
		} else {
			b.WriteString(text + " (" + link + ")")
		}
	case name == "footnote":
		b.WriteString(" (" + strings.TrimSpace(c.arg(depth)) + ") ")
	case name == "frac" || name == "dfrac" || name == "tfrac":
		num, den := c.arg(depth), c.arg(depth)
		b.WriteString(parenthesize(num) + "/" + parenthesize(den))
	case name == "sqrt":
		c.optionalArg()
		b.WriteString("√" + parenthesize(c.arg(depth)))
	default:
		// Unknown command: its name is the most readable thing left.
		b.WriteString(name)
	}
}

// controlSymbol translates a backslash followed by a non-letter.
func (c *cleaner) controlSymbol(b *strings.Builder, depth int) {
	r, n := utf8.DecodeRuneInString(c.src[c.i:])
	c.i += n
	switch r {
	case '%', '&', '_', '#', '$', '{', '}':
		b.WriteRune(r)
	case ',', ';', ':', '!', ' ', '\\', '\n', '\t', '>':
		b.WriteByte(' ')
	case '(', '[':
		c.math = true
	case ')', ']':
		c.math = false
	case '|':
		b.WriteString("‖")
	case '\'', '"', '`', '^', '~', '=', '.':
		b.WriteString(c.arg(depth)) // accent: keep the letter
	default:
		b.WriteRune(r)
	}
}

// script renders a math sub- or superscript: digits become Unicode
// sub/superscripts (\ell_1 -> ℓ₁, x^2 -> x²), anything else stays readable
// (x_i, e^(-x)).
func (c *cleaner) script(b *strings.Builder, depth int) {
	mark := c.src[c.i]
	c.i++
	arg := c.arg(depth)
	table := subscripts
	if mark == '^' {
		table = superscripts
	}
	if s, ok := mapAll(arg, table); ok {
		b.WriteString(s)
		return
	}
	if mark == '^' && (arg == "*" || arg == "′" || arg == "'") {
		b.WriteString(arg)
		return
	}
	b.WriteByte(mark)
	b.WriteString(parenthesize(arg))
}

// nextIsGroup reports whether a brace group follows, skipping spaces.
func (c *cleaner) nextIsGroup() bool {
	j := c.i
	for j < len(c.src) && isSpaceByte(c.src[j]) {
		j++
	}
	return j < len(c.src) && c.src[j] == '{'
}

// arg reads and cleans one command argument: a brace group, a command or a
// single character.
func (c *cleaner) arg(depth int) string {
	for c.i < len(c.src) && (c.src[c.i] == ' ' || c.src[c.i] == '\t') {
		c.i++
	}
	if c.i >= len(c.src) || c.src[c.i] == '}' {
		return ""
	}
	var b strings.Builder
	switch {
	case depth >= maxGroupDepth:
		c.copyRune(&b)
	case c.src[c.i] == '{':
		c.i++
		c.run(&b, true, depth+1)
	case c.src[c.i] == '\\':
		c.command(&b, depth+1)
	default:
		c.copyRune(&b)
	}
	return b.String()
}

// rawArg reads a brace group verbatim (URLs keep their characters).
func (c *cleaner) rawArg() string {
	for c.i < len(c.src) && isSpaceByte(c.src[c.i]) {
		c.i++
	}
	if c.i >= len(c.src) || c.src[c.i] != '{' {
		return ""
	}
	level := 0
	for j := c.i; j < len(c.src); j++ {
		switch c.src[j] {
		case '{':
			level++
		case '}':
			level--
			if level == 0 {
				s := c.src[c.i+1 : j]
				c.i = j + 1
				return s
			}
		}
	}
	s := c.src[c.i+1:]
	c.i = len(c.src)
	return s
}

// optionalArg skips a [..] argument.
func (c *cleaner) optionalArg() {
	if c.i < len(c.src) && c.src[c.i] == '[' {
		if end := strings.IndexByte(c.src[c.i:min(len(c.src), c.i+emphasisLookahead)], ']'); end >= 0 {
			c.i += end + 1
		}
	}
}

// parenthesize wraps s in parentheses unless it is a single word or number.
func parenthesize(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= 1 {
		return s
	}
	for _, r := range s {
		if !isLetterOrDigit(r) {
			if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
				return s
			}
			return "(" + s + ")"
		}
	}
	return s
}

func mapAll(s string, table map[rune]rune) (string, bool) {
	if s == "" {
		return "", false
	}
	out := make([]rune, 0, len(s))
	for _, r := range s {
		m, ok := table[r]
		if !ok {
			return "", false
		}
		out = append(out, m)
	}
	return string(out), true
}
