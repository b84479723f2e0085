package bot

import (
	"strings"
)

// entityDecoder undoes the escaping Slack applies to user text.
var entityDecoder = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

// plainText turns Slack-formatted user text into plain text for searching:
// user, channel-wide and group mentions (<@U…>, <!here>, <!subteam^…>) are
// dropped, channel links become "#name", links their label (or their URL
// when they have none), &lt; &gt; &amp; are decoded, and white space is
// collapsed. Text outside <…> is kept as typed.
func plainText(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '>')
		if end < 0 {
			break
		}
		b.WriteString(entityDecoder.Replace(s[:open]))
		b.WriteString(tokenText(s[open+1 : open+end]))
		s = s[open+end+1:]
	}
	b.WriteString(entityDecoder.Replace(s))
	return strings.Join(strings.Fields(clean(b.String())), " ")
}

// tokenText is what one <…> token of Slack markup reads as in plain text.
func tokenText(tok string) string {
	target, label, hasLabel := strings.Cut(tok, "|")
	switch {
	case strings.HasPrefix(target, "@"), strings.HasPrefix(target, "!"):
		return " "
	case strings.HasPrefix(target, "#"):
		if hasLabel && label != "" {
			return " #" + entityDecoder.Replace(label) + " "
		}
		return " "
	case hasLabel && label != "":
		return " " + entityDecoder.Replace(label) + " "
	}
	return " " + entityDecoder.Replace(strings.TrimPrefix(target, "mailto:")) + " "
}
