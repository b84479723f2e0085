package corpus

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/seeds"
)

func loadSeeds(t testing.TB, patterns ...string) *Corpus {
	t.Helper()
	if len(patterns) == 0 {
		patterns = []string{"*.txt"}
	}
	c, err := LoadFS(seeds.FS, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadSeeds(t *testing.T) {
	c := loadSeeds(t)
	if len(c.Papers) != 57 || c.Skipped != 0 || c.Duplicates != 0 || len(c.Problems) != 0 {
		t.Fatalf("papers, skipped, duplicates = %d, %d, %d, problems %q; want 57, 0, 0, none",
			len(c.Papers), c.Skipped, c.Duplicates, c.Problems)
	}
	checkPapers(t, c)
	for _, p := range c.Papers {
		if p.Title == "" || len(p.Authors) == 0 || !strings.HasPrefix(p.URL, "https://icml.cc/virtual/2025/poster/") {
			t.Errorf("%s: metadata missing: title %q, authors %q, url %q", p.Source, p.Title, p.Authors, p.URL)
		}
		if p.Venue != "ICML 2025" || p.Year != 2025 {
			t.Errorf("%s: venue, year = %q, %d; want ICML 2025, 2025", p.Source, p.Venue, p.Year)
		}
		for _, markup := range []string{"**", "$", `\text`, `\url`, `\footnote`, `\times`} {
			if strings.Contains(p.Abstract, markup) {
				t.Errorf("%s: abstract keeps markup %q", p.Source, markup)
			}
		}
	}
	// Spot checks against metadata.tsv and the seed text.
	p := paperWith(t, c, "Reaction Graph: Towards Reaction-Level Modeling for Chemical Reactions with 3D Structures")
	if p.Source != "000_8d1a1c065f1e3899.txt:5" || p.URL != "https://icml.cc/virtual/2025/poster/45081" ||
		p.Authors[0] != "Yingzhao Jian" || len(p.Authors) != 5 {
		t.Errorf("Reaction Graph: source %q url %q authors %q", p.Source, p.URL, p.Authors)
	}
	if len(p.CodeURLs) != 1 || p.CodeURLs[0] != "https://github.com/Shadow-Dream/Reaction-Graph" {
		t.Errorf("Reaction Graph code urls = %q", p.CodeURLs)
	}
	p = paperWith(t, c, "ALMTokenizer: A Low-bitrate and Semantic-rich Audio Codec Tokenizer for Audio Language Modeling")
	if len(p.CodeURLs) != 1 || p.CodeURLs[0] != "http://dongchaoyang.top/ALMTokenizer/" {
		t.Errorf("footnote url not extracted: %q", p.CodeURLs)
	}
	p = paperWith(t, c, "On-Device Collaborative Language Modeling via a Mixture of Generalists and Specialists")
	if !strings.Contains(p.Abstract, "CoMiGS (Collaborative learning with a Mixture of Generalists and Specialists)") {
		t.Errorf("CoMiGS markup not cleaned: %q", p.Abstract)
	}
}

// seedMethods maps a seed's title to the method name its derived headline
// must carry; seeds not listed name no method early in the abstract.
var seedMethods = map[string]string{
	"Reaction Graph: Towards Reaction-Level Modeling for Chemical Reactions with 3D Structures":                  "Reaction Graph (RG)",
	"EQ-VAE: Equivariance Regularized Latent Space for Improved Generative Image Modeling":                       "EQ-VAE",
	"LaCache: Ladder-Shaped KV Caching for Efficient Long-Context Modeling of Large Language Models":             "LaCache",
	"Overcoming Vocabulary Mismatch: Vocabulary-agnostic Teacher Guided Language Modeling":                       "VocAgnoLM",
	"ALMTokenizer: A Low-bitrate and Semantic-rich Audio Codec Tokenizer for Audio Language Modeling":            "ALMTokenizer",
	"Smooth Interpolation for Improved Discrete Graph Generative Models":                                         "GraphBFN",
	"SepLLM: Accelerate Large Language Models by Compressing One Segment into One Separator":                     "SepLLM",
	"Wasserstein Flow Matching: Generative Modeling Over Families of Distributions":                              "WFM",
	"Do We Really Need Message Passing in Brain Network Modeling?":                                               "BQN",
	"Foundation Molecular Grammar: Multi-Modal Foundation Models Induce Interpretable Molecular Graph Languages": "FMG",
	"Predictive Consistency Learning with Gradual Label Modeling":                                                "PCL",
	"On-Device Collaborative Language Modeling via a Mixture of Generalists and Specialists":                     "CoMiGS",
	"Designing Cyclic Peptides via Harmonic SDE with Atom-Bond Modeling":                                         "CpSDE",
	"PolyConf: Unlocking Polymer Conformation Generation through Hierarchical Generative Models":                 "PolyConf",
	"Aligning Protein Conformation Ensemble Generation with Physical Feedback":                                   "Energy-based Alignment (EBA)",
	"OptMATH: A Scalable Bidirectional Data Synthesis Framework for Optimization Modeling":                       "OptMATH",
	"DiTAR: Diffusion Transformer Autoregressive Modeling for Speech Generation":                                 "DiTAR",
	"Flexibility-conditioned protein structure design with flow matching":                                        "BackFlip",
	"CSG-ODE: ControlSynth Graph ODE For Modeling Complex Evolution of Dynamic Graphs":                           "CSG-ODE",
	"Efficient Length-Generalizable Attention via Causal Retrieval for Long-Context Language Modeling":           "Grouped Cross Attention (GCA)",
	"Sparse Autoencoders for Hypothesis Generation":                                                              "HypotheSAEs",
	"Expressive Geometric Generative Modeling with Noise Conditioned Graph Networks":                             "NCGNs",
	"Offline Model-based Optimization for Real-World Molecular Discovery":                                        "MolStitch",
	"Reflection-Bench: Evaluating Agency in Large Language Models":                                               "Reflection-Bench",
	"TS-SNN: Temporal Shift Module for Spiking Neural Networks":                                                  "TS-SNN",
	"StealthInk: A Multi-bit and Stealthy Watermark for Large Language Models":                                   "StealthInk",
	"NeuroTree: An Interpretable High-Order GCN for Learning Brain Pathways in Psychiatric Disorders":            "NeuroTree",
	"Balancing Efficiency and Expressiveness: Subgraph GNNs with Walk-Based Centrality":                          "HyMN",
	"Speculative Prefill: Turbocharging TTFT with Lightweight and Training-Free Token Importance Estimation":     "SpecPrefill",
	"Asymmetric Decision-Making in Online Knowledge Distillation: Unifying Consensus and Divergence":             "Asymmetric Decision-Making (ADM)",
	"Tensor-Var: Efficient Four-Dimensional Variational Data Assimilation":                                       "Tensor-Var",
	"Flow-field inference from neural data using deep recurrent networks":                                        "FINDR",
	"Curse of High Dimensionality Issue in Transformer for Long Context Modeling":                                "Dynamic Group Attention (DGA)",
	"LAST SToP for Modeling Asynchronous Time Series":                                                            "Stochastic Soft Prompting",
}

// TestSeedHeadlines derives every seed's headline as if it had no title:
// readable, at most MaxHeadline characters, and leading with the method's
// name where the abstract names one.
func TestSeedHeadlines(t *testing.T) {
	c := loadSeeds(t)
	named := 0
	for _, p := range c.Papers {
		h := Headline("", p.Abstract)
		if h == "" || len([]rune(h)) > MaxHeadline {
			t.Errorf("%s: headline %q has %d characters", p.Source, h, len([]rune(h)))
		}
		if strings.ContainsAny(h, `$\*{}`) || strings.Contains(h, "  ") {
			t.Errorf("%s: headline %q is not clean text", p.Source, h)
		}
		if !strings.HasPrefix(h, strings.TrimSuffix(h, "…")) || (strings.HasSuffix(h, "…") && strings.HasSuffix(h, " …")) {
			t.Errorf("%s: headline %q is cut badly", p.Source, h)
		}
		if name, ok := seedMethods[p.Title]; ok {
			named++
			if !strings.Contains(h, name) || strings.Index(h, name) > 50 {
				t.Errorf("%s: headline %q does not lead with %q", p.Source, h, name)
			}
		}
	}
	if named != len(seedMethods) {
		t.Errorf("%d of %d titles in seedMethods are seed titles", named, len(seedMethods))
	}
}
