package corpus

import (
	"slices"
	"strings"
	"testing"
)

func TestHeadline(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name, title, abstract, want string
	}{
		{"title wins", "A Title", "We propose FooNet, a network.", "A Title"},
		{"long title cut at a word", strings.TrimSpace(long), "", "word" + strings.Repeat(" word", 19) + "…"},
		{"long title cut inside a word", "a" + long, "", "aword" + strings.Repeat(" word", 18) + "…"},
		{"appositive", "", "Background first. To address this, we propose EQ-VAE, a simple regularization approach.", "EQ-VAE: a simple regularization approach"},
		{"acronym phrase", "", "In this paper, we introduce Reaction Graph (RG), a unified graph representation.", "Reaction Graph (RG): a unified graph representation"},
		{"long expansion gives way", "", "Here we introduce Flow-field Inference from Neural Data using deep Recurrent networks (FINDR), an unsupervised method.", "FINDR: an unsupervised method"},
		{"called", "", "We propose a new KV cache optimization paradigm called LaCache, a training-free method for inference.", "LaCache: a training-free method for inference"},
		{"named after the description", "", "We propose a scalable framework for synthesizing data, named OptMATH.", "OptMATH: a scalable framework for synthesizing data"},
		{"dubbed as subject", "", "Our method, dubbed HyMN, leverages walk-based centrality.", "HyMN leverages walk-based centrality"},
		{"passive", "", "Inspired by this, a novel Brain Quadratic Network (BQN) is proposed by using quadratic networks.", "Brain Quadratic Network (BQN) is proposed by using quadratic networks"},
		{"name after a comma", "", "We propose a novel attention mechanism based on dynamic context, Grouped Cross Attention (GCA), which generalizes.", "Grouped Cross Attention (GCA): a novel attention mechanism based on dynamic context"},
		{"adjective before name", "", "We propose a learnable NeuroTree framework that integrates ODEs.", "NeuroTree framework that integrates ODEs"},
		{"lower-case acronym phrase", "", "We draw on this and propose predictive consistency learning (PCL), a novel paradigm.", "Predictive consistency learning (PCL): a novel paradigm"},
		{"acronym for part of a phrase is no name", "", "We introduce a novel approach for discovering degrees of freedom (DOF) in simulations.", "We introduce a novel approach for discovering degrees of freedom (DOF) in simulations"},
		{"common acronym is no name", "", "We propose KV shifting attention for LLMs.", "We propose KV shifting attention for LLMs"},
		{"no name: main clause", "", "The notion of duality -- that a system has two descriptions -- is a key idea in physics. More.", "The notion of duality is a key idea in physics"},
		{"no name: relative clause dropped", "", "Transition path sampling (TPS), which finds paths between states, remains a challenge in chemistry.", "Transition path sampling (TPS) remains a challenge in chemistry"},
		{"no name: long first sentence", "", long + ".", "Word" + strings.Repeat(" word", 19) + "…"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Headline(tt.title, tt.abstract)
			if got != tt.want {
				t.Errorf("Headline(%q, %q)\n got %q\nwant %q", tt.title, tt.abstract, got, tt.want)
			}
			if len([]rune(got)) > MaxHeadline {
				t.Errorf("headline has %d characters", len([]rune(got)))
			}
		})
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? Four", []string{"One.", "Two!", "Three?", "Four"}},
		{"As shown by Smith et al. The result holds, e.g. Here it does.", []string{"As shown by Smith et al. The result holds, e.g. Here it does."}},
		{"We use J. Smith's method. It works.", []string{"We use J. Smith's method.", "It works."}},
		{"Version 2.0 is out. 3 models (A, B) follow.", []string{"Version 2.0 is out.", "3 models (A, B) follow."}},
		{"Code at https://x.org/a.b. Then more.", []string{"Code at https://x.org/a.b.", "Then more."}},
		// A sentence may open with a lower-case gene or model name.
		{"We identified mTORC2 as a regulator of xCT. mTORC2 phosphorylates xCT. p53 is unchanged.",
			[]string{"We identified mTORC2 as a regulator of xCT.", "mTORC2 phosphorylates xCT.", "p53 is unchanged."}},
		{"Wnt signalling rose in the liver. β-catenin was stable.", []string{"Wnt signalling rose in the liver.", "β-catenin was stable."}},
		{"It grows, e.g. mTOR rises. See the cells. then more.", []string{"It grows, e.g. mTOR rises.", "See the cells. then more."}},
		// A single letter ends a sentence after a name or number it belongs
		// to, and stays an initial or genus after a first name or a common word.
		{"It lowers wild-type lamin A. Fibroblasts from patients differ.", []string{"It lowers wild-type lamin A.", "Fibroblasts from patients differ."}},
		{"Most lacked vitamin D. The dose mattered.", []string{"Most lacked vitamin D.", "The dose mattered."}},
		{"Images were taken at 3 T. Data were pooled.", []string{"Images were taken at 3 T.", "Data were pooled."}},
		{"We bound hnRNP K. Further, it folds.", []string{"We bound hnRNP K.", "Further, it folds."}},
		{"Mice were given attenuated S. Typhi vaccine.", []string{"Mice were given attenuated S. Typhi vaccine."}},
		{"Cells killed S. Typhimurium. Then none grew.", []string{"Cells killed S. Typhimurium.", "Then none grew."}},
		{"As shown by R. A. Weinberg and Hanahan D. Cancer grows.", []string{"As shown by R. A. Weinberg and Hanahan D. Cancer grows."}},
		{"Let the dimension be d. The bound holds.", []string{"Let the dimension be d.", "The bound holds."}},
		{"The variant IL17F p. His161Arg was rare.", []string{"The variant IL17F p. His161Arg was rare."}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Sentences(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Sentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Headlines and answers split sentences the same way.
func TestOneSentenceSplitter(t *testing.T) {
	text := "See Ref. 12 for details. We optimise w.r.t. Theta here. It works, etc. The end."
	want := []string{"See Ref. 12 for details.", "We optimise w.r.t. Theta here.", "It works, etc.", "The end."}
	got := Sentences(text)
	if !slices.Equal(got, want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
	if n := len(SentenceSpans(text)); n != len(want) {
		t.Errorf("SentenceSpans found %d, Sentences %d", n, len(want))
	}
}
