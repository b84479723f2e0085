package bot

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "protein folding", "protein folding"},
		{"entities", "a & b < c > d", "a &amp; b &lt; c &gt; d"},
		{"channel ping", "<!channel> hi", "&lt;!channel&gt; hi"},
		{"user ping", "<@U123>", "&lt;@U123&gt;"},
		{"forged link", "<http://evil|click>", "&lt;http://evil|click&gt;"},
		{"already escaped is escaped again", "&amp;", "&amp;amp;"},
		{"controls dropped", "a\x00b\x1bc\u202ed", "abcd"},
		{"newline kept", "a\nb", "a\nb"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"unicode kept", "über 学习 🧬", "über 学习 🧬"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscapeInline(t *testing.T) {
	if got, want := EscapeInline("  a\n\n b\t<c>  "), "a b &lt;c&gt;"; got != want {
		t.Errorf("EscapeInline = %q, want %q", got, want)
	}
}

func TestSafeURL(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://icml.cc/virtual/2025/poster/45068", true},
		{"http://dongchaoyang.top/ALMTokenizer/", true},
		{"https://example.com/a?b=1&c=2", true},
		{"javascript:alert(1)", false},
		{"ftp://example.com/x", false},
		{"HTTPS://example.com/x", false},
		{"//example.com/x", false},
		{"https://example.com/a|b", false},
		{"https://example.com/a>b", false},
		{"https://example.com/<b", false},
		{"https://exa mple.com", false},
		{"https://user:pw@example.com/", false},
		{"https:///nohost", false},
		{"", false},
		{"https://example.com/" + strings.Repeat("a", 600), false},
	}
	for _, tt := range tests {
		if got := SafeURL(tt.url); got != tt.want {
			t.Errorf("SafeURL(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

func TestLinkEscapesAmpersandAndLabelPipe(t *testing.T) {
	got := link("https://example.com/?a=1&b=2", "A | B")
	want := "<https://example.com/?a=1&amp;b=2|A ∣ B>"
	if got != want {
		t.Errorf("link = %q, want %q", got, want)
	}
	if got := link("javascript:x", "label"); got != "label" {
		t.Errorf("unsafe link = %q, want the bare label", got)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "hello world", 20, "hello world"},
		{"exact", "hello", 5, "hello"},
		{"word boundary", "the quick brown fox jumps", 16, "the quick brown…"},
		{"hard cut in a long word", strings.Repeat("x", 30), 10, strings.Repeat("x", 9) + "…"},
		{"no half entity", "aaaaaaa &amp; b", 10, "aaaaaaa…"},
		{"runes not bytes", "ééééééééééé", 5, "éééé…"},
		{"zero", "abc", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Truncate(tt.in, tt.max)
			if got != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > tt.max {
				t.Errorf("result has %d characters, max %d", n, tt.max)
			}
		})
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"mention stripped", "<@U0BOT> any papers on protein conformations?", "any papers on protein conformations?"},
		{"entities decoded", "a &amp; b &lt;c&gt;", "a & b <c>"},
		{"literal channel text stays text", "&lt;!channel&gt; hi", "<!channel> hi"},
		{"real channel ping dropped", "<!channel> hi", "hi"},
		{"link label", "see <https://example.com|the page> now", "see the page https://example.com now"},
		{"link Slack made of typed text", "<http://arxiv.org/abs/2309.17453|arxiv.org/abs/2309.17453> similar", "arxiv.org/abs/2309.17453 similar"},
		{"bare link", "<https://example.com/x>", "https://example.com/x"},
		{"channel link", "in <#C123|general>", "in #general"},
		{"subteam dropped", "<!subteam^S1|@ml> transformers", "transformers"},
		{"unclosed bracket kept", "a < b", "a < b"},
		{"whitespace collapsed", "  a \n\t b  ", "a b"},
		{"emoji dropped", ":fire: kv cache :pray::skin-tone-2:", "kv cache"},
		{"emoji stuck to a word dropped", "thanks:pray: :+1:kv", "thanks kv"},
		{"times and ratios kept", "at 10:30:45 a 1:2: ratio", "at 10:30:45 a 1:2: ratio"},
		{"filters kept", "title:diffusion cat:cs.LG", "title:diffusion cat:cs.LG"},
		{"punctuation a mention leaves joins the word before", "hey <@U0BOT>, got anything on GNNs? <@U0BOT> !", "hey, got anything on GNNs?!"},
		{"punctuation a mention leaves at the start dropped", "<@U0BOT> , kv cache", "kv cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PlainText(tt.in); got != tt.want {
				t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzEscapeNeverLeaksMarkup(f *testing.F) {
	for _, s := range []string{"<!channel>", "<@U1|x>", "<http://a|b>", "&lt;", "a\xff<"} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		e := Escape(s)
		if strings.ContainsAny(e, "<>") {
			t.Fatalf("Escape(%q) = %q contains < or >", s, e)
		}
		if !utf8.ValidString(e) {
			t.Fatalf("Escape(%q) is not valid UTF-8", s)
		}
		max = max%4000 + 1
		if max < 1 {
			max = -max + 1
		}
		tr := Truncate(e, max)
		if utf8.RuneCountInString(tr) > max {
			t.Fatalf("Truncate(%q, %d) = %q is too long", e, max, tr)
		}
	})
}
