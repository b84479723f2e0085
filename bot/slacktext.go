package bot

import (
	"strings"
)

// entityDecoder undoes the escaping Slack applies to user text.
var entityDecoder = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

// PlainText turns Slack-formatted user text into plain text for searching:
// user, channel-wide and group mentions (<@U…>, <!here>, <!subteam^…>) are
// dropped, channel links become "#name", links their URL and any label the
// user gave them, &lt; &gt; &amp; are decoded, and white space is
// collapsed. Emoji, which Slack sends as :shortcodes:, are dropped. Text
// outside <…> is otherwise kept as typed.
func PlainText(s string) string {
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
	words := strings.Fields(clean(b.String()))
	kept := words[:0]
	for _, w := range words {
		w = withoutEmoji(w)
		switch {
		case w == "":
		case strings.Trim(w, ",.;:!?") == "":
			// What a mention or emoji left behind: "hey <@U1>, ..." reads
			// "hey, ...", not "hey , ...".
			if len(kept) > 0 {
				kept[len(kept)-1] += w
			}
		default:
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// withoutEmoji strips the emoji shortcodes that open or close a word
// (":fire:", ":+1::skin-tone-2:", "thanks:pray:"): searched as words they
// would only ever make a query look unanswerable.
func withoutEmoji(w string) string {
	for {
		if n := shortcodeLen(w); n > 0 {
			w = w[n:]
			continue
		}
		if strings.HasSuffix(w, ":") {
			if i := strings.LastIndexByte(w[:len(w)-1], ':'); i >= 0 && shortcodeLen(w[i:]) == len(w)-i {
				w = w[:i]
				continue
			}
		}
		return w
	}
}

// shortcodeLen is the length of the emoji shortcode s starts with, or 0:
// a colon, Slack's shortcode characters with a letter or a sign (":+1:";
// the "30" of "10:30:45" is no emoji), and a colon.
func shortcodeLen(s string) int {
	if !strings.HasPrefix(s, ":") {
		return 0
	}
	named := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			if i > 1 && named {
				return i + 1
			}
			return 0
		case 'a' <= c && c <= 'z', c == '+', c == '-':
			named = true
		case '0' <= c && c <= '9', c == '_', c == '\'':
		default:
			return 0
		}
	}
	return 0
}

// sameLink reports whether label is target as Slack shows a link it made of
// typed text: without "http://" or "mailto:".
func sameLink(target, label string) bool {
	for _, p := range []string{"https://", "http://", "mailto:"} {
		target = strings.TrimPrefix(target, p)
	}
	return strings.EqualFold(strings.TrimRight(target, "/"), strings.TrimRight(label, "/"))
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
		label = entityDecoder.Replace(label)
		if sameLink(target, label) {
			return " " + label + " " // Slack's own link of what was typed
		}
		// A link the user named ("<https://arxiv.org/abs/…|this paper>"):
		// the link says which paper, the name may say what about.
		return " " + label + " " + entityDecoder.Replace(target) + " "
	}
	return " " + entityDecoder.Replace(strings.TrimPrefix(target, "mailto:")) + " "
}
