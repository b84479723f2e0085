package corpus

import "strings"

// maxURLLen bounds how far a bare URL may run.
const maxURLLen = 2048

// maxLinkScan bounds searches for the end of a Markdown link target and back
// for the start of a URL, keeping CleanText linear on hostile input.
const maxLinkScan = 300

// codeHosts are hosts whose links are recognised even without "https://".
var codeHosts = []string{"github.com/", "gitlab.com/", "huggingface.co/", "bitbucket.org/"}

// url copies a bare URL at c.i into b and records it. It reports false when
// no URL starts at c.i.
func (c *cleaner) url(b *strings.Builder) bool {
	rest := c.src[c.i:]
	prefix := ""
	switch {
	case hasPrefixFold(rest, "https://"), hasPrefixFold(rest, "http://"):
	case hasPrefixFold(rest, "www."):
		prefix = "https://"
	default:
		for _, h := range codeHosts {
			if hasPrefixFold(rest, h) {
				prefix = "https://"
				break
			}
		}
		if prefix == "" {
			return false
		}
	}
	link, n := scanURL(rest)
	if !looksLikeURL(prefix + link) {
		return false
	}
	if tail, m := brokenPath(link, rest[n:]); m > 0 {
		link, n = link+tail, n+m // "https://github.com/\nuser/repo"
	}
	c.i += n
	c.addURL(prefix + link)
	b.WriteString(link)
	return true
}

// scanURL reads the URL at the start of s. It returns the link with TeX
// escapes (\_) undone and the number of bytes consumed.
// Trailing punctuation and unbalanced closing brackets are left out.
func scanURL(s string) (link string, n int) {
	end := 0
	for end < len(s) && end < maxURLLen {
		ch := s[end]
		if ch == '\\' && end+1 < len(s) && strings.IndexByte("_%#&~", s[end+1]) >= 0 {
			end += 2
			continue
		}
		if ch <= ' ' || ch >= 0x7f || strings.IndexByte("<>\"`{}|\\^$[]*", ch) >= 0 {
			break
		}
		end++
	}
	for end > 0 {
		last := s[end-1]
		switch {
		case strings.IndexByte(".,;:!?'*_", last) >= 0 && !(last == '_' && end >= 2 && s[end-2] == '\\'):
			end--
			continue
		case last == ')' && strings.Count(s[:end], "(") < strings.Count(s[:end], ")"):
			end--
			continue
		}
		break
	}
	return urlUnescaper.Replace(s[:end]), end
}

var urlUnescaper = strings.NewReplacer(`\_`, "_", `\%`, "%", `\#`, "#", `\&`, "&", `\~`, "~")

// brokenPath returns the path of a link broken after its host by a line
// break ("https://github.com/" then "user/repo" on the next line), and the
// bytes it spans in next, or 0 when next does not continue link.
func brokenPath(link, next string) (string, int) {
	host := link[strings.Index(link, "//")+2:]
	if !strings.HasSuffix(host, "/") || strings.Count(host, "/") != 1 || !strings.HasPrefix(next, "\n") {
		return "", 0
	}
	path, n := scanURL(next[1:])
	if strings.Count(path, "/") == 0 || !startsWithLetter(path) {
		return "", 0
	}
	return path, n + 1
}

// addURL records link once (links differing only in case, scheme or a
// trailing slash are the same).
func (c *cleaner) addURL(link string) {
	link = absoluteURL(link)
	if link == "" {
		return
	}
	key := urlKey(link)
	if c.seen[key] {
		return
	}
	if c.seen == nil {
		c.seen = make(map[string]bool)
	}
	c.seen[key] = true
	c.urls = append(c.urls, link)
}

// absoluteURL returns link with a scheme ("www.x.org" becomes
// "https://www.x.org"), or "" when link is no http(s) or www link.
func absoluteURL(link string) string {
	link = strings.TrimSpace(link)
	switch {
	case !looksLikeURL(link):
		return ""
	case hasPrefixFold(link, "http://"), hasPrefixFold(link, "https://"):
		return link
	}
	return "https://" + link
}

// LooksLikeURL reports whether s is an http(s) or www link with a dotted host.
func LooksLikeURL(s string) bool { return looksLikeURL(s) }

func looksLikeURL(s string) bool {
	host := s
	switch {
	case hasPrefixFold(s, "https://"):
		host = s[len("https://"):]
	case hasPrefixFold(s, "http://"):
		host = s[len("http://"):]
	case hasPrefixFold(s, "www."):
	default:
		return false
	}
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	dot := strings.LastIndexByte(host, '.')
	return dot > 0 && dot < len(host)-1 && !strings.ContainsAny(host, " \t\n")
}

func sameURL(a, b string) bool { return urlKey(a) == urlKey(b) }

func urlKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
	s = strings.TrimPrefix(s, "www.")
	return strings.TrimRight(s, "/")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
