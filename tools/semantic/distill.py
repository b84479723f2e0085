"""Distil all-MiniLM-L6-v2 into paperbot's static embedding table, with Model2Vec's method.

Model2Vec (distill/distillation.py, distill/inference.py of model2vec 0.10.0) does, and so does this:
  1. every vocabulary token through the transformer as [CLS] token [SEP]; an added word goes through
     as the sequence the original tokenizer makes of it ([CLS] its pieces [SEP]); the token's vector
     is the mean of the last hidden states over all positions of that sequence (specials included);
  2. PCA to 256 dimensions (eigendecomposition of the covariance, each component's sign fixed so
     its largest score is positive);
  3. SIF weighting, row * a / (a + p(token)) with a = 1e-4.
Where Model2Vec guesses p(token) from the token's rank by Zipf's law, this estimates it from the
corpora, tokenised exactly as paperbot tokenises at run time (wordtok.py), add-one smoothed.

The vocabulary is MiniLM's WordPiece vocabulary without [PAD] [UNK] [CLS] [SEP] [MASK] [unusedN],
plus the corpora's most frequent whole words that are not already a plain WordPiece row, as many as
fit the byte budget of table.bin + vocab.txt. Each row is stored as int8 with its own float32 scale.

Deterministic: fixed orders everywhere (tokens by id, added words by count then spelling, batches
by length then index), no random numbers; the same command on the same inputs gives the same bytes.

    python tools/semantic/distill.py            # writes search/semantic/model/
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minilm import SOURCE_PACKAGE, MiniLM  # noqa: E402
from statictable import quantize_rows, write_table, write_vocab  # noqa: E402
from wordtok import MAX_WORD_CHARS, RowTokenizer, basic_words  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SPECIAL = re.compile(r"^\[(PAD|UNK|CLS|SEP|MASK|unused\d+)\]$")
HEADER_BYTES = 20  # magic 8 + version, rows, dims 4 each


def corpus_texts(corpora: Path, scifact: Path, seeds: Path) -> dict[str, list[str]]:
    """Titles and abstracts of every source, by source name, in file order."""
    out: dict[str, list[str]] = {}
    csv.field_size_limit(1 << 30)
    icml = corpora / "dotd-NeurIPS2024Scrape/ICML_cc_2024_Conference.csv"
    iclr = corpora / "dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv"
    # TSV without header or quoting (corpora/README.md): title, abstract columns per schema.
    for name, path, ti, ai in (("icml2024", icml, 1, 10), ("iclr2024", iclr, 0, 8)):
        texts = []
        for line in path.read_text(encoding="utf-8").split("\n"):
            cols = line.split("\t")
            if len(cols) > ai:
                texts += [cols[ti], cols[ai]]
        out[name] = texts
    nips = json.loads((corpora / "papercopilot-paperlists/nips2018.json").read_text(encoding="utf-8"))
    out["nips2018"] = [r.get(k, "") for r in nips for k in ("title", "abstract")]
    sf = [json.loads(line) for line in open(scifact, encoding="utf-8")]
    out["scifact-corpus"] = [d[k] for d in sf for k in ("title", "text")]
    seed_texts = [p.read_text(encoding="utf-8") for p in sorted(seeds.glob("*.txt"))]
    meta = seeds / "metadata.tsv"
    if meta.exists():
        rows = meta.read_text(encoding="utf-8").split("\n")[1:]
        seed_texts += [r.split("\t")[2] for r in rows if r.count("\t") >= 2]
    out["seeds"] = seed_texts
    return out


def pca(x: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """Model2Vec's _pca_fit_transform: centred scores on the top-k eigenvectors of the
    covariance, each component's sign chosen so its largest-magnitude score is positive."""
    x = x.astype(np.float64)
    xc = x - x.mean(axis=0)
    cov = (xc.T @ xc) / (x.shape[0] - 1)
    vals, vecs = np.linalg.eigh(cov)
    vals, vecs = np.clip(vals[::-1], 0, None), vecs[:, ::-1]
    scores = xc @ vecs[:, :k]
    peak = np.argmax(np.abs(scores), axis=0)
    scores *= np.sign(scores[peak, np.arange(k)])
    return scores, float(vals[:k].sum() / vals.sum())


def forward(model: MiniLM, tokens: list[str], seqs: list[list[int]], cache: Path | None) -> np.ndarray:
    """Mean-pooled last hidden states of each token's sequence (model2vec's create_embeddings)."""
    if cache is None:
        return np.nan_to_num(model.mean_pool_ids(seqs, batch_tokens=16384))
    known: dict[str, np.ndarray] = {}
    if cache.exists():
        z = np.load(cache)
        known = dict(zip(z["tokens"].tolist(), z["vecs"]))
    missing = [i for i, t in enumerate(tokens) if t not in known]
    if missing:
        got = np.nan_to_num(model.mean_pool_ids([seqs[i] for i in missing], batch_tokens=16384))
        known.update({tokens[i]: v for i, v in zip(missing, got)})
        keys = sorted(known)
        np.savez(cache, tokens=np.array(keys), vecs=np.stack([known[k] for k in keys]))
    return np.stack([known[t] for t in tokens])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "search/semantic/model")
    ap.add_argument("--corpora", type=Path, default=Path("/work/shared/corpora"))
    ap.add_argument("--scifact", type=Path, default=Path("/work/shared/benchmarks/scifact/corpus.jsonl"),
                    help="SciFact corpus.jsonl (documents only; never queries or qrels)")
    ap.add_argument("--seeds", type=Path, default=REPO / "seeds")
    ap.add_argument("--budget", type=int, default=15_000_000, help="max bytes of table.bin + vocab.txt")
    ap.add_argument("--min-count", type=int, default=1, help="least occurrences for an added word")
    ap.add_argument("--dims", type=int, default=256)
    ap.add_argument("--sif", type=float, default=1e-4, help="SIF coefficient a")
    ap.add_argument("--weighting", choices=["corpus", "zipf"], default="corpus",
                    help="p(token) from corpus counts, or model2vec's Zipf guess from the row's rank")
    ap.add_argument("--raw-cache", type=Path, help="for experiments only: reuse the transformer's "
                    "token vectors from this .npz (batches differ, so bytes may differ in the last bit)")
    args = ap.parse_args()
    started = time.time()

    model = MiniLM()
    base_vocab = (model.path / "vocab.txt").read_text(encoding="utf-8").split("\n")[:model.vocab_size]
    base = [(i, t) for i, t in enumerate(base_vocab) if not SPECIAL.match(t)]
    base_tokens = [t for _, t in base]
    plain = {t for t in base_tokens if not t.startswith("##")}

    sources = corpus_texts(args.corpora, args.scifact, args.seeds)
    words: Counter = Counter()
    for texts in sources.values():
        for t in texts:
            words.update(basic_words(t))
    n_words = sum(words.values())
    print(f"corpora: {', '.join(f'{k} {len(v)} texts' for k, v in sources.items())}; "
          f"{n_words} words, {len(words)} distinct", file=sys.stderr)

    # Added words: not already a plain row, with a letter, splittable by WordPiece (so the
    # transformer never sees [UNK] for them), most frequent first, until the byte budget is spent.
    base_split = RowTokenizer(base_tokens)
    candidates = sorted(
        (w for w, c in words.items()
         if c >= args.min_count and w not in plain and len(w) <= MAX_WORD_CHARS
         and any(ch.isalpha() for ch in w) and base_split.word_rows(w)),
        key=lambda w: (-words[w], w))
    row_bytes = 4 + args.dims
    used = HEADER_BYTES + sum(row_bytes + len(t.encode()) + 1 for t in base_tokens)
    added: list[str] = []
    for w in candidates:
        cost = row_bytes + len(w.encode()) + 1
        if used + cost > args.budget:
            break
        added.append(w)
        used += cost
    tokens = base_tokens + added
    print(f"vocabulary: {len(base_tokens)} WordPiece rows + {len(added)} corpus words "
          f"(of {len(candidates)} candidates; least count {words[added[-1]] if added else '-'}) "
          f"= {len(tokens)} rows, {used} bytes", file=sys.stderr)

    # 1. every token through the model.
    seqs = [[model.cls_id, i, model.sep_id] for i, _ in base] + model.encode_ids(added)
    t = time.time()
    vecs = forward(model, tokens, seqs, args.raw_cache)
    took_forward = time.time() - t
    print(f"forward pass: {len(seqs)} sequences in {took_forward:.0f}s", file=sys.stderr)

    # 2. PCA.
    reduced, explained = pca(vecs, args.dims)

    # 3. SIF weights from corpus frequencies under the final vocabulary's tokenisation.
    final_split = RowTokenizer(tokens)
    counts = np.zeros(len(tokens), dtype=np.float64)
    for w, c in words.items():
        for r in final_split.word_rows(w):
            counts[r] += c
    prob = (counts + 1.0) / (counts.sum() + len(tokens))
    if args.weighting == "zipf":  # model2vec's compute_weights
        inv_rank = 1.0 / np.arange(2, len(tokens) + 2)
        prob = inv_rank / inv_rank.sum()
    weights = args.sif / (args.sif + prob)
    rows = reduced * weights[:, None]

    values, scales = quantize_rows(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    write_table(args.out / "table.bin", values, scales)
    write_vocab(args.out / "vocab.txt", tokens)
    table_bytes = (args.out / "table.bin").read_bytes()
    vocab_bytes = (args.out / "vocab.txt").read_bytes()
    assert len(table_bytes) + len(vocab_bytes) == used, (len(table_bytes), len(vocab_bytes), used)

    command = "python tools/semantic/distill.py" + "".join(
        f" --{k.replace('_', '-')} {v}" for k, v in sorted(vars(args).items())
        if ap.get_default(k) != v and k != "out")
    meta = {
        "format": "PBSTATIC/1",
        "base_model": "sentence-transformers/all-MiniLM-L6-v2",
        "source_package": SOURCE_PACKAGE,
        "base_model_sha256": hashlib.sha256((model.path / "model.safetensors").read_bytes()).hexdigest(),
        "method": (f"Model2Vec distillation: each token as [CLS] token [SEP] (added words as [CLS] pieces "
                   f"[SEP]) through the transformer, mean of last hidden states; PCA to {args.dims} "
                   f"({explained:.3f} of variance kept); SIF weight a/(a+p), a={args.sif:g}, p from corpus "
                   f"counts under run-time tokenisation, add-one smoothed; int8 rows with a float32 scale each"),
        "dims": args.dims,
        "rows": len(tokens),
        "wordpiece_rows": len(base_tokens),
        "added_word_rows": len(added),
        "lowercase": True,
        "strip_accents": True,
        "max_word_chars": MAX_WORD_CHARS,
        "table_sha256": hashlib.sha256(table_bytes).hexdigest(),
        "vocab_sha256": hashlib.sha256(vocab_bytes).hexdigest(),
        "made_by": "tools/semantic/distill.py",
        "command": command,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: table.bin {len(table_bytes)} B, vocab.txt {len(vocab_bytes)} B, "
          f"PCA keeps {explained:.3f} of variance; {time.time() - started:.0f}s in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
