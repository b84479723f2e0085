package semantic

import (
	"os"
	"testing"
)

// realModel loads the distilled model from model/, the files that
// embedded.go compiles into the binary.
func realModel(t testing.TB) *Static {
	t.Helper()
	m, err := Load(os.DirFS("model"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestModelRanksByMeaning: a question is closer to the sentence
// that answers it than to one on another subject, words shared or not.
func TestModelRanksByMeaning(t *testing.T) {
	m := realModel(t)
	cases := []struct{ query, near, far string }{
		{"LLM watermark for generated text",
			"We embed a statistical watermark in the tokens a large language model samples, so that machine-generated text can be detected.",
			"We predict the three-dimensional folding of proteins from their amino acid sequence."},
		{"how can I tell if text was written by my chatbot?",
			"Detecting machine-generated text produced by large language models.",
			"Protein structure prediction with deep learning achieves atomic accuracy."},
		{"picture generator",
			"Diffusion models synthesise high-resolution images from noise.",
			"Graph neural networks predict the properties of molecules."},
		{"neuroscience",
			"Recordings of neurons in the visual cortex of mice reveal how the brain encodes images.",
			"A compiler pass that vectorises loops for faster numerical code."},
		{"robot arm grasping",
			"A manipulator learns to pick up unseen objects from camera images.",
			"Bounds on the sample complexity of private statistical estimation."},
	}
	for _, c := range cases {
		q := m.EmbedText(c.query, nil)
		near, far := dotF(q, m.EmbedText(c.near, nil)), dotF(q, m.EmbedText(c.far, nil))
		if near <= far+0.05 {
			t.Errorf("%q: %.3f to %q, %.3f to %q; want the first clearly higher", c.query, near, c.near, far, c.far)
		}
	}
}

// dotF is the dot product of two vectors of the same length.
func dotF(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
