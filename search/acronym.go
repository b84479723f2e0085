package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
)

// commonAcronyms is the hand-kept list of ML acronyms, added to the pairs
// mined from the corpus (acronym_mine.go). An acronym may have several
// expansions.
var commonAcronyms = [][2]string{
	{"AI", "artificial intelligence"},
	{"ASR", "automatic speech recognition"},
	{"BO", "Bayesian optimization"},
	{"CNN", "convolutional neural network"},
	{"CoT", "chain of thought"},
	{"DiT", "diffusion transformer"},
	{"DL", "deep learning"},
	{"DPO", "direct preference optimization"},
	{"EBM", "energy-based model"},
	{"FL", "federated learning"},
	{"GAN", "generative adversarial network"},
	{"GCN", "graph convolutional network"},
	{"GNN", "graph neural network"},
	{"GP", "Gaussian process"},
	{"ICL", "in-context learning"},
	{"KD", "knowledge distillation"},
	{"KV", "key-value"},
	{"LLM", "large language model"},
	{"LM", "language model"},
	{"LoRA", "low-rank adaptation"},
	{"LSTM", "long short-term memory"},
	{"MAE", "masked autoencoder"},
	{"MARL", "multi-agent reinforcement learning"},
	{"MCMC", "Markov chain Monte Carlo"},
	{"MD", "molecular dynamics"},
	{"MDP", "Markov decision process"},
	{"ML", "machine learning"},
	{"MLIP", "machine learning interatomic potential"},
	{"MLIP", "machine-learned interatomic potential"},
	{"MLP", "multilayer perceptron"},
	{"MLP", "multi-layer perceptron"},
	{"MoE", "mixture of experts"},
	{"NAS", "neural architecture search"},
	{"NER", "named entity recognition"},
	{"NeRF", "neural radiance field"},
	{"NLP", "natural language processing"},
	{"NTK", "neural tangent kernel"},
	{"ODE", "ordinary differential equation"},
	{"OOD", "out-of-distribution"},
	{"OT", "optimal transport"},
	{"PDE", "partial differential equation"},
	{"PINN", "physics-informed neural network"},
	{"PPO", "proximal policy optimization"},
	{"QA", "question answering"},
	{"RAG", "retrieval-augmented generation"},
	{"RL", "reinforcement learning"},
	{"RLHF", "reinforcement learning from human feedback"},
	{"RNN", "recurrent neural network"},
	{"SAE", "sparse autoencoder"},
	{"SDE", "stochastic differential equation"},
	{"SGD", "stochastic gradient descent"},
	{"SNN", "spiking neural network"},
	{"SSL", "self-supervised learning"},
	{"SSM", "state space model"},
	{"TTFT", "time to first token"},
	{"TTS", "text-to-speech"},
	{"VAE", "variational autoencoder"},
	{"ViT", "vision transformer"},
	{"VLM", "vision-language model"},
}

// maxExpansions caps the expansions kept per acronym (the most frequent in
// the corpus win), so an overloaded acronym cannot blow up a query.
const maxExpansions = 3

// expansion is one acronym/long-form pair, as analysed stems.
type expansion struct {
	acronym string   // stem of the acronym, e.g. "mlip"
	short   string   // the acronym as written ("LOS", whose stem is "lo")
	terms   []string // stems of the long form by position; "" marks a stop-word gap
	text    string   // the long form as written, e.g. "machine learning interatomic potentials"
	count   int      // how often the corpus defines it (hand-kept pairs count high)
	mined   int      // how often the corpus itself defines it
	curated bool     // only from the curated dictionary (acronyms.tsv)
}

// words returns the non-gap stems of the long form.
func (e expansion) words() []string {
	w := make([]string, 0, len(e.terms))
	for _, t := range e.terms {
		if t != "" {
			w = append(w, t)
		}
	}
	return w
}

// acronymTable maps acronyms to long forms and back. It is built once per
// corpus and read-only afterwards, so safe for concurrent use.
type acronymTable struct {
	byAcronym map[string][]expansion
	// byFirst indexes long forms by their first stem, longest first.
	byFirst map[string][]expansion
	// ambiguous marks acronyms with long forms of different meanings
	// ("MLIP": interatomic potentials, or language-image pretraining).
	ambiguous map[string]bool
}

// acronymPair is a raw acronym definition before analysis.
type acronymPair struct {
	short, long string
	count       int
	curated     bool
}

// newAcronymTable analyses pairs (mined and hand-kept) into a table. Pairs
// whose acronym is not a single token, or whose long form has fewer than two
// words, are dropped.
func newAcronymTable(a analysis.Analyzer, pairs []acronymPair) *acronymTable {
	const handCount = 1000
	corpusPairs := len(pairs)
	for _, p := range commonAcronyms {
		pairs = append(pairs, acronymPair{short: p[0], long: p[1], count: handCount})
	}
	pairs = append(pairs, curatedAcronyms()...)
	t := &acronymTable{byAcronym: map[string][]expansion{}, byFirst: map[string][]expansion{}, ambiguous: map[string]bool{}}
	merged := map[string]*expansion{}
	var order []string
	for i, p := range pairs {
		mined := 0
		if i < corpusPairs {
			mined = p.count
		}
		st := a.Analyze([]byte(p.short))
		if len(st) != 1 {
			continue
		}
		terms := positionTerms(a.Analyze([]byte(p.long)))
		e := expansion{acronym: string(st[0].Term), short: p.short, terms: terms, text: p.long, count: p.count, mined: mined, curated: p.curated}
		w := e.words()
		if len(w) < 2 || slices.Contains(w, e.acronym) {
			continue
		}
		key := e.acronym + "\x00" + strings.Join(terms, " ")
		if m, ok := merged[key]; ok {
			m.count += p.count
			m.mined += mined
			m.curated = m.curated && p.curated
			continue
		}
		merged[key] = &e
		order = append(order, key)
	}
	for _, k := range order {
		e := *merged[k]
		t.byAcronym[e.acronym] = append(t.byAcronym[e.acronym], e)
	}
	for ac, es := range t.byAcronym {
		slices.SortStableFunc(es, func(x, y expansion) int { return y.count - x.count })
		if len(es) > maxExpansions {
			es = es[:maxExpansions]
		}
		t.byAcronym[ac] = es
		t.ambiguous[ac] = ambiguous(es)
		for _, e := range es {
			f := e.words()[0]
			t.byFirst[f] = append(t.byFirst[f], e)
		}
	}
	// Longest first, then in an order of their own: the lists are filled
	// from a map, and a query must group its words the same way each time.
	for _, es := range t.byFirst {
		slices.SortFunc(es, func(x, y expansion) int {
			if d := len(y.words()) - len(x.words()); d != 0 {
				return d
			}
			if d := y.count - x.count; d != 0 {
				return d
			}
			return cmp.Or(strings.Compare(x.acronym, y.acronym), strings.Compare(x.text, y.text), slices.Compare(x.terms, y.terms))
		})
	}
	return t
}

// ambiguousShare is the share of the commonest meaning's definitions another
// meaning needs before an acronym counts as ambiguous: one paper's "RL"
// for a "reinforced leaf sequencer" does not make RL ambiguous among
// hundreds of "reinforcement learning".
const ambiguousShare = 0.1

// ambiguous reports whether es, an acronym's long forms, hold two meanings
// the corpus uses: each meaning weighs the definitions the corpus mines (a
// dictionary pair it never defines weighs one), and the second must reach
// ambiguousShare of the first.
func ambiguous(es []expansion) bool {
	_, weights := meanings(es)
	if len(weights) < 2 {
		return false
	}
	slices.Sort(weights)
	return float64(weights[len(weights)-2]) >= ambiguousShare*float64(weights[len(weights)-1])
}

// meanings groups an acronym's long forms es by meaning (sameMeaning): one
// long form for each, and its weight, the definitions the corpus mines
// (a dictionary pair it never defines weighs one).
func meanings(es []expansion) (reps []expansion, weights []int) {
	for _, e := range es {
		w := max(e.mined, 1)
		i := slices.IndexFunc(reps, func(r expansion) bool { return sameMeaning(r, e) })
		if i < 0 {
			reps, weights = append(reps, e), append(weights, w)
			continue
		}
		weights[i] += w
	}
	return reps, weights
}

// minorityShare: a meaning whose definitions are fewer than this share of
// another meaning's is the acronym's minority meaning in the corpus.
const minorityShare = 0.2

// minority reports whether the corpus defines e's acronym for another
// meaning at least 1/minorityShare times as often as for e's (meanings):
// the ICLR and ICML 2024 papers define "TTS" seven times, always as
// text-to-speech, so their "TTS" is no match for "test-time scaling".
func (t *acronymTable) minority(e expansion) bool {
	reps, weights := meanings(t.byAcronym[e.acronym])
	own, other := 0, 0
	for i, r := range reps {
		if sameMeaning(r, e) {
			own = max(own, weights[i])
		} else {
			other = max(other, weights[i])
		}
	}
	return float64(own) < minorityShare*float64(other)
}

// sameMeaning reports whether two long forms of one acronym name the same
// thing: spelled alike ("multilayer", "multi-layer perceptrons"), one's
// words within the other's ("large language models", "large pre-trained
// language models"), or the same first or last two words ("partially
// observable MDPs", "RL from human feedback").
func sameMeaning(a, b expansion) bool {
	if meaningKey(a.text) == meaningKey(b.text) {
		return true
	}
	x, y := a.words(), b.words()
	if len(x) > len(y) {
		x, y = y, x
	}
	within := true
	for _, w := range x {
		within = within && slices.ContainsFunc(y, func(v string) bool { return sameStem(w, v) })
	}
	if within {
		return true
	}
	n, m := len(x), len(y)
	return sameStem(x[0], y[0]) && sameStem(x[1], y[1]) || sameStem(x[n-2], y[m-2]) && sameStem(x[n-1], y[m-1])
}

// sameStem reports whether two stems are one word's: equal, or sharing
// their first six letters ("equilibrium", "equilibria").
func sameStem(a, b string) bool {
	const prefix = 6
	return a == b || len(a) >= prefix && len(b) >= prefix && a[:prefix] == b[:prefix]
}

// meaningKey spells a long form without case, spaces, hyphens or a plural
// s, so "multilayer" and "multi-layer perceptrons" mean the same.
func meaningKey(long string) string {
	return strings.TrimSuffix(squashed(long), "s")
}

// squashed spells s in lower case with its letters and digits only: "G-CSF"
// is "gcsf", "GPT-4" "gpt4".
func squashed(s string) string {
	return strings.Map(func(r rune) rune {
		if isAlnum(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// spelledAs returns the long forms of the acronym stem s whose acronym the
// word typed spells (spellsAcronym): "ID" has the stem of "IDE" but is
// not it.
func (t *acronymTable) spelledAs(s, typed string) []expansion {
	var out []expansion
	for _, e := range t.byAcronym[s] {
		if spellsAcronym(typed, e.short) {
			out = append(out, e)
		}
	}
	return out
}

// spellsAcronym reports whether the typed word is the acronym short, or its
// plural, or short is the typed word's plural ("LLMs", "llms" and "LLM"),
// whatever the hyphens ("GCSF" is G-CSF). Acronyms are looked up by stem,
// and Porter gives "IDE" and "ID" one stem, "RMS" and "RMs" another: a
// capital S belongs to the acronym ("SARS" is not SARs), a small one makes
// a plural.
func spellsAcronym(typed, short string) bool {
	return squashed(typed) == squashed(short) || pluralOf(typed, short) || pluralOf(short, typed)
}

// pluralOf reports whether word is acronym with a plural s, written small.
func pluralOf(word, acronym string) bool {
	return strings.HasSuffix(word, "s") && squashed(word) == squashed(acronym)+"s"
}

// longForm finds the longest long form starting at stems[0] that fits (all
// do when fits is nil); n is how many stems it covers (0 when none does).
// Long forms of the same words may differ in their stop words ("dynamic
// sparse training", "dynamic sparse no training"): each is tried.
func (t *acronymTable) longForm(stems []string, maxWords int, fits func(e expansion, n int) bool) (e expansion, n int) {
	if len(stems) == 0 {
		return expansion{}, 0
	}
	for _, cand := range t.byFirst[stems[0]] {
		w := cand.words()
		if maxWords > 0 && len(w) > maxWords {
			continue
		}
		if len(w) <= len(stems) && slices.Equal(w, stems[:len(w)]) && (fits == nil || fits(cand, len(w))) {
			return cand, len(w)
		}
	}
	return expansion{}, 0
}

// acronymsFor returns every expansion with exactly the stems w as long form.
func (t *acronymTable) acronymsFor(w []string) []expansion {
	if len(w) == 0 {
		return nil
	}
	var out []expansion
	for _, cand := range t.byFirst[w[0]] {
		if slices.Equal(cand.words(), w) {
			out = append(out, cand)
		}
	}
	return out
}

// positionTerms lays tokens out by position, "" where a stop word was removed.
func positionTerms(tokens analysis.TokenStream) []string {
	if len(tokens) == 0 {
		return nil
	}
	first, last := tokens[0].Position, tokens[0].Position
	for _, tk := range tokens {
		first, last = min(first, tk.Position), max(last, tk.Position)
	}
	if last-first > 64 {
		return nil
	}
	terms := make([]string, last-first+1)
	for _, tk := range tokens {
		terms[tk.Position-first] = string(tk.Term)
	}
	return terms
}
