package semantic

import (
	"unicode"
	"unicode/utf8"
)

// splitWords runs BERT's BasicTokenizer over text and calls emit with each
// word, lower-cased and without accents. Control characters are dropped,
// whitespace separates words, every punctuation character and every CJK
// ideograph is a word of its own. The slice given to emit is reused after
// emit returns. tmp is scratch space for fold.
func splitWords(text string, word []byte, tmp []rune, emit func([]byte)) ([]byte, []rune) {
	w := word[:0]
	flush := func() {
		if len(w) > 0 {
			emit(w)
			w = w[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				flush()
			case c < 0x20 || c == 0x7f:
				// control: dropped, the words around it join (as in BERT)
			case asciiPunct(c):
				flush()
				w = append(w, c)
				flush()
			case 'A' <= c && c <= 'Z':
				w = append(w, c+'a'-'A')
			default:
				w = append(w, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == utf8.RuneError:
			// invalid UTF-8 or U+FFFD: dropped
		case unicode.Is(unicode.Zs, r):
			flush()
		case unicode.Is(unicode.C, r):
			// control, format, private use, unassigned: dropped
		case isCJK(r):
			flush()
			w = utf8.AppendRune(w, r)
			flush()
		default:
			tmp = fold(tmp[:0], r)
			for _, f := range tmp {
				if f < utf8.RuneSelf && asciiPunct(byte(f)) || f >= utf8.RuneSelf && unicode.IsPunct(f) {
					flush()
					w = utf8.AppendRune(w, f)
					flush()
					continue
				}
				w = utf8.AppendRune(w, f)
			}
		}
	}
	flush()
	return w, tmp
}

// asciiPunct reports BERT's ASCII punctuation: every non-alphanumeric
// printable character, symbols like $ and ^ included.
func asciiPunct(c byte) bool {
	return c >= 33 && c <= 47 || c >= 58 && c <= 64 || c >= 91 && c <= 96 || c >= 123 && c <= 126
}

// isCJK reports the CJK Unified Ideograph blocks BERT spaces apart.
func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF ||
		r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F ||
		r >= 0x2B820 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0x2F800 && r <= 0x2FA1F
}
