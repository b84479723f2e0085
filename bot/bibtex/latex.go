package bibtex

import (
	"strings"
	"unicode"
)

// accent is how LaTeX writes a letter with a diacritic: command and base
// letter, as {\'e}.
type accent struct{ command, letter string }

// accented maps Latin letters with diacritics (Latin-1 and Latin
// Extended-A, the ones author names use) to LaTeX.
var accented = map[rune]accent{}

func init() {
	// Each row: the accent command, then pairs of accented letter and base.
	rows := []struct{ cmd, pairs string }{
		{`'`, "áaéeíiɩióoúuýyÁAÉEÍIÓOÚUÝYćcĆCńnŃNśsŚSźzŹZĺlĹLŕrŔR"},
		{"`", "àaèeìiòoùuÀAÈEÌIÒOÙU"},
		{`^`, "âaêeîiôoûuÂAÊEÎIÔOÛUĉcĈCĝgĜGĥhĤHĵjĴJŝsŜSŵwŴWŷyŶY"},
		{`"`, "äaëeïiöoüuÿyÄAËEÏIÖOÜUŸY"},
		{`~`, "ãaõoñnÃAÕOÑNĩiĨIũuŨU"},
		{`c`, "çcÇCşsŞSţtŢTģgĢGķkĶKļlĻLņnŅNŗrŖR"},
		{`v`, "čcČCďdĎDěeĚEňnŇNřrŘRšsŠSťtŤTžzŽZ"},
		{`u`, "ăaĂAğgĞGŭuŬU"},
		{`=`, "āaĀAēeĒEīiĪIōoŌOūuŪU"},
		{`.`, "ċcĊCėeĖEġgĠGİIżzŻZ"},
		{`k`, "ąaĄAęeĘEįiĮIųuŲU"},
		{`H`, "őoŐOűuŰU"},
		{`r`, "åaÅAůuŮU"},
	}
	for _, row := range rows {
		rs := []rune(row.pairs)
		for i := 0; i+1 < len(rs); i += 2 {
			accented[rs[i]] = accent{row.cmd, string(rs[i+1])}
		}
	}
	delete(accented, 'ɩ')
}

// letters are characters LaTeX names by a command of their own.
var letters = map[rune]string{
	'ø': `{\o}`, 'Ø': `{\O}`, 'ß': `{\ss}`, 'æ': `{\ae}`, 'Æ': `{\AE}`, 'œ': `{\oe}`, 'Œ': `{\OE}`,
	'ł': `{\l}`, 'Ł': `{\L}`, 'đ': `{\dj}`, 'Đ': `{\DJ}`, 'ı': `{\i}`, 'þ': `{\th}`, 'Þ': `{\TH}`,
	'ð': `{\dh}`, 'Ð': `{\DH}`,
	'–': `--`, '—': `---`, '‘': "`", '’': `'`, '“': "``", '”': `''`, '…': `{\ldots}`, '×': `{$\times$}`,
	'≤': `{$\leq$}`, '≥': `{$\geq$}`, '±': `{$\pm$}`, '→': `{$\rightarrow$}`, '∞': `{$\infty$}`,
	'α': `{$\alpha$}`, 'β': `{$\beta$}`, 'γ': `{$\gamma$}`, 'δ': `{$\delta$}`, 'ε': `{$\epsilon$}`,
	'θ': `{$\theta$}`, 'λ': `{$\lambda$}`, 'μ': `{$\mu$}`, 'π': `{$\pi$}`, 'σ': `{$\sigma$}`,
	'τ': `{$\tau$}`, 'φ': `{$\phi$}`, 'ω': `{$\omega$}`, 'Δ': `{$\Delta$}`, 'Ω': `{$\Omega$}`,
	'\u00a0': `~`,
}

// specials are ASCII characters that TeX or BibTeX reads as syntax. BibTeX
// counts braces even after a backslash, so braces become commands.
var specials = map[rune]string{
	'\\': `{\textbackslash}`, '{': `{\textbraceleft}`, '}': `{\textbraceright}`, '$': `\$`, '&': `\&`, '%': `\%`, '#': `\#`,
	'_': `\_`, '~': `{\textasciitilde}`, '^': `{\textasciicircum}`, '<': `{\textless}`, '>': `{\textgreater}`,
}

// Escape writes s as LaTeX text: specials escaped, accented letters as
// accent commands, other non-ASCII letters kept (biber and 8-bit BibTeX
// read UTF-8), control characters and runs of space made one space. Its
// braces are always balanced.
func Escape(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) && r != '\u00a0' || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		switch {
		case specials[r] != "":
			b.WriteString(specials[r])
		case letters[r] != "":
			b.WriteString(letters[r])
		case accented[r] != accent{}:
			a := accented[r]
			if a.letter == "i" && a.command != "c" && a.command != "k" {
				a.letter = `\i` // dotless i under an accent
			}
			if len(a.command) == 1 && !isAlnum(rune(a.command[0])) {
				b.WriteString(`{\` + a.command + a.letter + `}`)
			} else {
				b.WriteString(`{\` + a.command + `{` + a.letter + `}}`)
			}
		case unicode.Is(unicode.Mn, r):
			// A combining mark left over from decomposed text: dropped.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// protectCase keeps the capitals of a title's acronyms and names ("LLM",
// "GPT-4", "ImageNet") from styles that lower-case titles, by bracing each
// word with a capital after its first letter.
func protectCase(escaped string) string {
	words := strings.Split(escaped, " ")
	for i, w := range words {
		if hasInnerCapital(w) && !strings.ContainsAny(w, `{}\`) {
			words[i] = "{" + w + "}"
		}
	}
	return strings.Join(words, " ")
}

func hasInnerCapital(w string) bool {
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
