package search

import (
	"strings"
	"unicode/utf8"
)

// clippings are the clipped words researchers type in chat ("mech interp",
// "hparam tuning", "object det") with the word papers write. Kept small and
// hand-checked: each must mean that word when an ML researcher types it in
// lower case. Typed in capitals it stays as typed ("ARCH" models, "DET").
var clippings = map[string]string{
	"interp": "interpretability", "mech": "mechanistic", "hparam": "hyperparameter",
	"hyperparam": "hyperparameter", "param": "parameter", "seg": "segmentation",
	"det": "detection", "arch": "architecture", "repr": "representation",
	"quant": "quantization", "perf": "performance", "approx": "approximate",
	"eval": "evaluation", "attn": "attention", "init": "initialization",
	"emb": "embedding", "embs": "embeddings", "config": "configuration", "stats": "statistics",
	"img": "image", "imgs": "images", "vid": "video", "vids": "videos", "prob": "probability",
	"probs": "probabilities", "pred": "prediction", "preds": "predictions", "feat": "feature",
	"feats": "features", "obj": "object", "conv": "convolution", "convs": "convolutions",
	"recsys": "recommender", "reps": "representations", "info": "information",
	"backprop": "backpropagation",
}

// chatShorthands are whole words of chat written for the words papers use:
// "w/o finetuning" asks for papers without it.
var chatShorthands = map[string]string{"w/o": "without", "w/": "with", "e2e": "end-to-end", "b/w": "between"}

// shorthands are stems that mean another after certain words: "neural
// nets" are networks, "batch norm" and "layer norm" normalizations (alone,
// "norm" is a vector's). Stems as the analyzer makes them.
var shorthands = []struct {
	after       map[string]bool
	typed, mean string
}{
	{map[string]bool{"neural": true}, "net", "network"},
	{map[string]bool{"batch": true, "layer": true, "group": true, "instanc": true}, "norm", "normal"},
}

// shorthandAfter returns the stem typed means after the stem prev, or "".
func shorthandAfter(prev, typed string) string {
	for _, sh := range shorthands {
		if sh.typed == typed && sh.after[prev] {
			return sh.mean
		}
	}
	return ""
}

// clipping returns the word a clipped word w stands for, or "".
func clipping(w string) string {
	_, first := utf8.DecodeRuneInString(w)
	if rest := w[first:]; rest != strings.ToLower(rest) {
		return "" // typed in capitals: an acronym or a name
	}
	lw := strings.ToLower(w)
	if full, ok := clippings[lw]; ok {
		return full
	}
	if full, ok := clippings[strings.TrimSuffix(lw, "s")]; ok {
		return full + "s"
	}
	return ""
}
