package semantic

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

func words(text string) []string {
	var out []string
	splitWords(text, nil, nil, func(w []byte) { out = append(out, string(w)) })
	return out
}

func TestSplitWords(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"empty", "", nil},
		{"only spaces", " \t\n\r ", nil},
		{"punctuation apart", "Hello, World!", []string{"hello", ",", "world", "!"}},
		{"apostrophe", "don't", []string{"don", "'", "t"}},
		{"ascii symbols are punctuation", "$5^2", []string{"$", "5", "^", "2"}},
		{"hyphen", "α-helix", []string{"α", "-", "helix"}},
		{"accents stripped", "Café naïve ÅNGSTRÖM", []string{"cafe", "naive", "angstrom"}},
		{"combining mark dropped", "fi\u0301ne", []string{"fine"}},
		{"greek lower-cased", "ΩMEGA", []string{"ωmega"}},
		{"CJK ideographs apart", "生成AI模型", []string{"生", "成", "ai", "模", "型"}},
		{"hangul decomposed", "한", []string{"\u1112\u1161\u11ab"}},
		{"no-break space separates", "x\u00a0y", []string{"x", "y"}},
		{"format char dropped", "x\u200by", []string{"xy"}},
		{"control char dropped", "x\x07y", []string{"xy"}},
		{"invalid UTF-8 dropped", "a\xffb", []string{"ab"}},
		{"unicode punctuation", "«quoted»—dash", []string{"«", "quoted", "»", "—", "dash"}},
		{"symbols stay in words", "x±y", []string{"x±y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := words(c.text); !slices.Equal(got, c.want) {
				t.Errorf("words(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	m := tinyModel(t)
	cases := []struct {
		name, text string
		want       []string
	}{
		{"whole words", "The text.", []string{"the", "text", "."}},
		{"continuation", "watermarks", []string{"watermark", "##s"}},
		{"several pieces", "Unaffable", []string{"un", "##aff", "##able"}},
		{"longest match first", "foldings", []string{"folding", "##s"}},
		{"shorter whole word then piece", "folds", []string{"fold", "##s"}},
		{"accented word", "CAFÉ", []string{"cafe"}},
		{"unknown word contributes nothing", "unfolding protein", []string{"protein"}},
		{"CJK known and unknown", "生物", []string{"生"}},
		{"empty", "", nil},
		{"longest word allowed", "a" + strings.Repeat("b", 99), append([]string{"a"}, slices.Repeat([]string{"##b"}, 99)...)},
		{"too long a word", "a" + strings.Repeat("b", 100) + " text", []string{"text"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, id := range m.Tokens(c.text) {
				got = append(got, m.Token(id))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestTokensHugeInput(t *testing.T) {
	m := tinyModel(t)
	text := strings.Repeat("the watermarks of unfolding "+strings.Repeat("z", 150)+" 生物, ", 20000)
	ids := m.Tokens(text)
	if want := 20000 * 5; len(ids) != want {
		t.Errorf("Tokens of %d bytes: %d tokens, want %d", len(text), len(ids), want)
	}
}

// TestSplitWordsMatchesPython runs the Python tokeniser's answers through
// the Go one: the distiller counts token frequencies with
// tools/semantic/wordtok.py, so the two must split text alike. The golden
// file was made with basic_words from that script (Python 3.11, Unicode 14).
func TestSplitWordsMatchesPython(t *testing.T) {
	b, err := os.ReadFile("testdata/tokenize_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Text  string   `json:"text"`
		Words []string `json:"words"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		got := words(c.Text)
		if len(got) == 0 && len(c.Words) == 0 {
			continue
		}
		if !slices.Equal(got, c.Words) {
			for j := range min(len(got), len(c.Words)) {
				if got[j] != c.Words[j] {
					t.Errorf("case %d: word %d is %q (%U), Python has %q (%U)", i, j, got[j], []rune(got[j]), c.Words[j], []rune(c.Words[j]))
					break
				}
			}
			t.Errorf("case %d: %d words, Python has %d", i, len(got), len(c.Words))
		}
	}
}
