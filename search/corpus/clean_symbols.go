package corpus

import "unicode"

// texSymbols maps TeX commands that stand for a symbol or word to readable
// text.
var texSymbols = map[string]string{
	// Greek
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
	"zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
	"lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
	"varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ",
	"varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
	"Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	// letters and constants
	"ell": "ℓ", "hbar": "ℏ", "infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅",
	"varnothing": "∅", "aleph": "ℵ", "Re": "ℜ", "Im": "ℑ", "natural": "♮", "sharp": "♯",
	"flat": "♭", "dagger": "†", "ddagger": "‡", "star": "⋆", "ast": "*", "prime": "′",
	"degree": "°", "checkmark": "✓",
	// operators and relations
	"times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "circ": "∘", "bullet": "•",
	"oplus": "⊕", "otimes": "⊗", "odot": "⊙", "le": "≤", "leq": "≤", "leqslant": "≤",
	"ge": "≥", "geq": "≥", "geqslant": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
	"sim": "~", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
	"in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
	"supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖", "wedge": "∧", "land": "∧",
	"vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬", "forall": "∀", "exists": "∃",
	"top": "⊤", "bot": "⊥", "perp": "⊥", "mid": "|", "vert": "|", "Vert": "‖", "lVert": "‖",
	"rVert": "‖", "lvert": "|", "rvert": "|", "parallel": "∥", "models": "⊨", "vdash": "⊢",
	"sum": "Σ", "prod": "∏", "int": "∫", "oint": "∮", "coprod": "∐", "bigcup": "⋃",
	"bigcap": "⋂",
	// arrows
	"to": "→", "rightarrow": "→", "gets": "←", "leftarrow": "←", "Rightarrow": "⇒",
	"Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⇔",
	"implies": "⇒", "mapsto": "↦", "uparrow": "↑", "downarrow": "↓", "longrightarrow": "⟶",
	"longmapsto": "⟼", "rightleftharpoons": "⇌", "hookrightarrow": "↪",
	// delimiters
	"langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
	"lbrace": "{", "rbrace": "}",
	// dots and spaces
	"ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "dotsc": "…",
	"quad": " ", "qquad": " ", "enspace": " ", "space": " ", "newline": " ", "par": " ",
	// named functions
	"log": "log", "ln": "ln", "exp": "exp", "min": "min", "max": "max", "sup": "sup",
	"inf": "inf", "lim": "lim", "arg": "arg", "argmin": "argmin", "argmax": "argmax",
	"sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh", "det": "det", "dim": "dim",
	"ker": "ker", "Pr": "Pr", "deg": "deg", "poly": "poly", "polylog": "polylog",
	// text-mode symbols and abbreviations
	"textbackslash": `\`, "textquotesingle": "'", "textquotedbl": `"`, "textasciitilde": "~",
	"textasciicircum": "^", "textendash": "–", "textemdash": "—", "textbar": "|",
	"textless": "<", "textgreater": ">", "textdegree": "°", "texttimes": "×",
	"copyright": "©", "S": "§", "P": "¶", "LaTeX": "LaTeX", "TeX": "TeX",
	"eg": "e.g.", "ie": "i.e.", "etal": "et al.", "wrt": "w.r.t.", "etc": "etc.",
	"R": "ℝ", "N": "ℕ", "Z": "ℤ", "E": "𝔼",
}

// texUnwrap are commands whose brace argument is kept as plain text; without
// a brace argument they are font switches ({\bf x}) and are dropped.
var texUnwrap = map[string]bool{
	"textit": true, "textbf": true, "emph": true, "texttt": true, "textrm": true, "textsf": true,
	"textsc": true, "textup": true, "textsl": true, "textnormal": true, "textmd": true,
	"text": true, "mbox": true, "hbox": true, "underline": true, "uline": true,
	"mathrm": true, "mathbf": true, "mathit": true, "mathsf": true, "mathtt": true,
	"mathcal": true, "mathscr": true, "mathfrak": true, "mathnormal": true, "boldsymbol": true,
	"bm": true, "pmb": true, "operatorname": true, "mathop": true,
	"bf": true, "it": true, "em": true, "rm": true, "sf": true, "tt": true, "sc": true,
	"sl": true, "cal": true, "small": true, "large": true, "Large": true, "LARGE": true,
	"footnotesize": true, "scriptsize": true, "tiny": true, "huge": true, "Huge": true,
	"normalsize": true, "displaystyle": true, "textstyle": true, "scriptstyle": true,
}

// texAccents put a mark on their argument; the argument alone is kept.
var texAccents = map[string]bool{
	"tilde": true, "widetilde": true, "hat": true, "widehat": true, "bar": true, "overline": true,
	"vec": true, "dot": true, "ddot": true, "check": true, "breve": true, "acute": true,
	"grave": true, "mathring": true, "overrightarrow": true, "underbrace": true, "overbrace": true,
}

// texDropArg are commands dropped together with their argument (citations,
// references, spacing).
var texDropArg = map[string]bool{
	"cite": true, "citep": true, "citet": true, "citealp": true, "citeauthor": true,
	"ref": true, "eqref": true, "autoref": true, "cref": true, "Cref": true, "label": true,
	"vspace": true, "hspace": true, "includegraphics": true, "color": true,
	"textcolor": true, "thanks": true, "phantom": true,
}

// texDrop are commands that produce nothing readable.
var texDrop = map[string]bool{
	"left": true, "right": true, "big": true, "Big": true, "bigg": true, "Bigg": true,
	"bigl": true, "bigr": true, "Bigl": true, "Bigr": true, "biggl": true, "biggr": true,
	"Biggl": true, "Biggr": true, "limits": true, "nolimits": true, "noindent": true,
	"centering": true, "medskip": true, "smallskip": true, "bigskip": true, "hfill": true,
	"vfill": true, "nonumber": true, "notag": true, "xspace": true, "relax": true,
	"protect": true, "allowbreak": true, "nobreak": true, "displaylimits": true,
}

var doubleStruck = map[string]string{
	"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "𝔼", "P": "ℙ", "F": "𝔽",
}

var subscripts = map[rune]rune{
	'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈',
	'9': '₉', '+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎',
}

var superscripts = map[rune]rune{
	'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸',
	'9': '⁹', '+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', 'n': 'ⁿ', 'i': 'ⁱ', 'T': 'ᵀ',
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
