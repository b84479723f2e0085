package corpus

import (
	"slices"
	"testing"
)

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
		urls           []string
	}{
		{"plain", "  A plain\n abstract.\t", "A plain abstract.", nil},
		{"markdown bold and em", "We **propose** a *new* __idea__ and _one_ more.", "We propose a new idea and one more.", nil},
		{"bold inside words", "a **BEN**chmark for **D**NA models", "a BENchmark for DNA models", nil},
		{"triple stars", "***Our position*** holds; ***Graph** **G**lobal* module", "Our position holds; Graph Global module", nil},
		{"literal stars", "the A* search and p* values", "the A* search and p* values", nil},
		{"snake case", "use snake_case_names and __init__ files", "use snake_case_names and init files", nil},
		{"math variable", "$k$-hop neighbours", "k-hop neighbours", nil},
		{"math symbols", `a $\times 7$ speedup with $\alpha \le \beta$ and $\ell_1$ loss`, "a × 7 speedup with α ≤ β and ℓ₁ loss", nil},
		{"sub and superscripts", `$x_i^2$, $e^{-x}$, $W_{ij}$, $x^*$, $10^{-3}$`, "x_i², e^(-x), W_ij, x*, 10⁻³", nil},
		{"frac and sqrt", `$O(\sqrt{d/n})$ and $\frac{1}{2}$ and $\frac{a+b}{c}$`, "O(√(d/n)) and 1/2 and (a+b)/c", nil},
		{"text commands", `we propose \textit{Tensor-Var}, \emph{fast} and \textbf{bold}`, "we propose Tensor-Var, fast and bold", nil},
		{"math fonts", `$\mathcal{X}$, $\mathbb{R}^d$, $\mathbf{x}$, $\operatorname{softmax}$`, "X, ℝ^d, x, softmax", nil},
		{"text in math", `($\textbf{Co}$llaborative with a $\textbf{Mi}$xture)`, "(Collaborative with a Mixture)", nil},
		{"escaped characters", `50\% of R\&D at \$5 for a\_b \#1`, "50% of R&D at $5 for a_b #1", nil},
		{"tie", `Fig.~3 shows ~10x gains`, "Fig. 3 shows ~10x gains", nil},
		{"tex quotes", "``Shortcut Text Gradient'' works", `"Shortcut Text Gradient" works`, nil},
		{"bare quote", `a "stray quote`, `a "stray quote`, nil},
		{"price, not math", "for under $50 an attacker can win $x$ here", "for under $50 an attacker can win x here", nil},
		{"prices", "saving $300,000 ($26,000 vs. $320,000) overall", "saving $300,000 ($26,000 vs. $320,000) overall", nil},
		{"adjacent math", `($1.67\%\sim15.85\%$$\uparrow$)`, "(1.67%~15.85%↑)", nil},
		{"lone dollar", "costs $5", "costs $5", nil},
		{"cite dropped", `as shown \cite{smith2020} before`, "as shown before", nil},
		{"unknown command keeps its name", `the \foo method`, "the foo method", nil},
		{"html entities", "R&amp;D &lt; 5", "R&D < 5", nil},
		{"sentence join", "benefits of LLMs.To overcome this, see github.io", "benefits of LLMs. To overcome this, see github.io", nil},
		{"bare url", "Code is available at https://github.com/Shadow-Dream/Reaction-Graph.", "Code is available at https://github.com/Shadow-Dream/Reaction-Graph.", []string{"https://github.com/Shadow-Dream/Reaction-Graph"}},
		{"url in parentheses", "(see https://x.org/a_(b)) and (https://y.org/c).", "(see https://x.org/a_(b)) and (https://y.org/c).", []string{"https://x.org/a_(b)", "https://y.org/c"}},
		{"url in \\url", `sources at \url{https://github.com/optsuite/OptMATH}.`, "sources at https://github.com/optsuite/OptMATH.", []string{"https://github.com/optsuite/OptMATH"}},
		{"url in footnote", `tasks.\footnote{http://dongchaoyang.top/ALMTokenizer/}`, "tasks. (http://dongchaoyang.top/ALMTokenizer/)", []string{"http://dongchaoyang.top/ALMTokenizer/"}},
		{"href", `see \href{https://a.org/x}{our page}`, "see our page (https://a.org/x)", []string{"https://a.org/x"}},
		{"markdown link", "at [WFM](https://github.com/W/W/).", "at WFM (https://github.com/W/W/).", []string{"https://github.com/W/W/"}},
		{"markdown link to itself", "at [https://github.com/L/B](https://github.com/L/B).", "at https://github.com/L/B.", []string{"https://github.com/L/B"}},
		{"url without scheme", "at github.com/zjukg/GEEA and www.example.org/p.", "at github.com/zjukg/GEEA and www.example.org/p.", []string{"https://github.com/zjukg/GEEA", "https://www.example.org/p"}},
		{"url with tex escapes", `at https://github.com/a/b\_c.`, "at https://github.com/a/b_c.", []string{"https://github.com/a/b_c"}},
		{"url then bold", "at https://x.org/a.**WARNING**: data", "at https://x.org/a.WARNING: data", []string{"https://x.org/a"}},
		{"url broken after host", "at https://github.com/\nBao/DNN here", "at https://github.com/Bao/DNN here", []string{"https://github.com/Bao/DNN"}},
		{"repeated url", "https://a.org/x and http://a.org/x/ again", "https://a.org/x and http://a.org/x/ again", []string{"https://a.org/x"}},
		{"not a url", "the http:// scheme and www. prefix", "the http:// scheme and www. prefix", nil},
		{"email is not a url", "mail me@github.com/x", "mail me@github.com/x", nil},
		{"unbalanced braces", `\textbf{open and } close }`, "open and close", nil},
		{"trailing backslash", `ends with \`, "ends with", nil},
		{"invalid utf-8", "bad \xff byte", "bad \uFFFD byte", nil},
		{"empty", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, urls := CleanText(tt.in)
			if got != tt.want {
				t.Errorf("CleanText(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if !slices.Equal(urls, tt.urls) {
				t.Errorf("CleanText(%q) urls = %q, want %q", tt.in, urls, tt.urls)
			}
		})
	}
}
