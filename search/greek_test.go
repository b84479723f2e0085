package search

import (
	"slices"
	"testing"
)

// A Greek letter is found however it is typed: as the letter, spelled out,
// or, in a biologist's identifier, as its Latin initial (NF-kB, IL-1b).
// Before, "TGF-beta fibrosis" said no paper had "fibrosis" while papers on
// TGF-β fibrosis were there, and "IL-1b inflammasome" was refused.
func TestGreekLettersTypedAnyWay(t *testing.T) {
	papers := []Paper{
		{ID: "tgfb", Title: "TGF-β signalling drives kidney fibrosis", Abstract: "Blocking TGF-β1 reduced collagen deposition and fibrosis in injured kidneys."},
		{ID: "fib", Title: "Fibrosis after lung injury in mice", Abstract: "Lung fibrosis followed bleomycin injury; collagen rose over two weeks."},
		{ID: "nfkb", Title: "NF-κB activation in macrophages after infection", Abstract: "Macrophages activated NF-κB within minutes of bacterial contact."},
		{ID: "mac", Title: "Macrophage polarization in adipose tissue", Abstract: "Adipose tissue macrophages shift from M2 to M1 in obesity."},
		{ID: "il1b", Title: "The inflammasome controls IL-1β release", Abstract: "Caspase-1 cleaves pro-IL-1β after NLRP3 inflammasome assembly."},
		{ID: "il10", Title: "IL-10 limits inflammation in the gut", Abstract: "IL-10 deficient mice develop colitis."},
		{ID: "hif", Title: "HIF-1α stabilization under hypoxia", Abstract: "Hypoxia stabilizes HIF-1α, which induces glycolytic genes."},
		{ID: "gsk", Title: "GSK-3β inhibitors protect neurons", Abstract: "Inhibiting GSK-3β reduced tau phosphorylation in neurons."},
		{ID: "ifng", Title: "IFN-gamma drives Th1 responses", Abstract: "IFN-gamma from T cells polarizes macrophages."},
		{ID: "bvae", Title: "Understanding disentangling in beta-VAE", Abstract: "We analyse why beta-VAE learns disentangled latent factors."},
		{ID: "vae", Title: "Variational autoencoders for molecules", Abstract: "A VAE generates molecules from a latent space."},
	}
	firstMatches(t, papersIndex(t, papers), map[string]firstMatch{
		"TGF-beta fibrosis":                  {"tgfb", "TGF-beta"},
		"TGFb fibrosis":                      {"tgfb", "TGFb"},
		"NF-kB in macrophages":               {"nfkb", "NF-kB"},
		"NF-kappaB macrophages":              {"nfkb", "NF-kappaB"},
		"IL-1b inflammasome":                 {"il1b", "IL-1b"},
		"IL-1beta release":                   {"il1b", "IL-1beta"},
		"HIF-1a hypoxia":                     {"hif", "HIF-1a"},
		"GSK3b inhibitors":                   {"gsk", "GSK3b"},
		"IFN-γ Th1":                          {"ifng", "IFN-γ"},
		"β-VAE disentangled latents":         {"bvae", "β-VAE"},
		"what does NF-kB do in macrophages?": {"nfkb", "NF-kB"},
	})
}

// firstMatch is the paper a query must find first, and the word its card
// must say it matched.
type firstMatch struct{ id, matched string }

// firstMatches checks each query's first paper and its matched words.
func firstMatches(t *testing.T, ix *Index, cases map[string]firstMatch) {
	t.Helper()
	for q, want := range cases {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil || res.NoMatch || len(res.Results) == 0 {
			t.Errorf("%q: refused or failed (%v)", q, err)
			continue
		}
		if top := res.Results[0]; top.ID != want.id || !slices.Contains(top.Matched, want.matched) {
			t.Errorf("%q: first %s %q, matched %q; want %s matching %q", q, top.ID, top.Title, top.Matched, want.id, want.matched)
		}
	}
}

// The index spells a Greek letter out, so both spellings are one word.
func TestGreekLetterIsItsName(t *testing.T) {
	analysedAlike(t, map[string]string{
		"TGF-β": "TGF-beta", "NF-κB": "NF-kappaB", "Aβ42": "Abeta42", "PPARγ": "PPARgamma", "ε-greedy": "epsilon-greedy",
		"Ω": "omega", "μP": "muP", "Schrödinger": "Schrodinger",
	})
}

func TestInitialForms(t *testing.T) {
	for text, want := range map[string][]string{
		"NF-κB and NF-kappaB":       {"nfkb", "nfkb"},
		"IL-1β, IL-1beta or IL-1b":  {"il1b", "il1b"},
		"TGF-beta1 and GSK3β":       {"tgfb1", "gsk3b"},
		"TNF-α":                     {"tnfa"},
		"Aβ42 plaques of Aβ":        {"ab42"}, // "ab" alone would be any AB
		"betaine and beta-blockers": nil,      // a name opening the first part is a word
		"zeta-potential":            nil,
		"IL-6 and G-CSF":            nil, // no Greek
	} {
		if got := joinedForms(initialForms(text)); !slices.Equal(got, want) {
			t.Errorf("initialForms(%q) = %q, want %q", text, got, want)
		}
	}
}

// A typeset hyphen (U+2010) joins an identifier as "-" does: "PD-1" typed
// finds "PD‐1" whole, and "pretraining" the abstract's "pre‐training".
func TestTypesetHyphen(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "pd1", Title: "Checkpoint blockade in melanoma", Abstract: "Anti\u2010PD\u20101 therapy extended survival in melanoma patients."},
		{ID: "pd", Title: "Parkinson's disease progression in melanoma survivors", Abstract: "PD patients had 1 more visit than melanoma survivors."},
		{ID: "pre", Title: "Scaling language models", Abstract: "Pre\u2010training on more tokens helps."},
		{ID: "other", Title: "Training small models", Abstract: "Fine-tuning helps small models."},
	})
	firstMatches(t, ix, map[string]firstMatch{
		"PD-1 melanoma":        {"pd1", "PD-1"},
		"pretraining language": {"pre", "pretraining"},
	})
}
