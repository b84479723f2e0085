"""Dense-retrieval nDCG@10 on SciFact (BEIR layout) for the served transformer and the static table.

Both rank all 5,183 abstracts (title + " " + text, as BEIR's sentence-transformers searcher joins
them) by cosine similarity to the claim, and are scored as trec_eval's ndcg_cut.10 over every
query of the split. The transformer's vectors are cached under --cache (computing the corpus once
takes minutes on 2 cores); the static table is read from --model.

    python tools/semantic/eval_dense.py                 # both, test and train
    python tools/semantic/eval_dense.py --only transformer --split test
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minilm import MiniLM  # noqa: E402
from statictable import StaticTable  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DEFAULT_BENCH = Path("/work/shared/benchmarks/scifact")


def load_scifact(root: Path):
    docs = [json.loads(line) for line in open(root / "corpus.jsonl", encoding="utf-8")]
    queries = {}
    for line in open(root / "queries.jsonl", encoding="utf-8"):
        q = json.loads(line)
        queries[q["_id"]] = q["text"]
    return docs, queries


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) != 3:
                continue
            qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return qrels


def ndcg_at_10(scores: np.ndarray, doc_ids: list[str], qids: list[str], qrels) -> float:
    """Mean nDCG@10 over qids (trec_eval ndcg_cut.10: gain = judgment, discount log2(rank+1))."""
    total = 0.0
    for qi, qid in enumerate(qids):
        rel = qrels[qid]
        top = np.argsort(-scores[qi], kind="stable")[:10]
        dcg = sum(rel.get(doc_ids[d], 0) / math.log2(r + 2) for r, d in enumerate(top))
        ideal = sorted((g for g in rel.values() if g > 0), reverse=True)[:10]
        idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal))
        total += dcg / idcg if idcg > 0 else 0.0
    return total / len(qids)


def cached(path: Path, make):
    if path.exists():
        return np.load(path)
    t = time.time()
    v = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, v)
    os.replace(tmp, path)
    print(f"  computed {path.name} in {time.time() - t:.0f}s", file=sys.stderr)
    return v


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=DEFAULT_BENCH, help="SciFact folder (BEIR layout)")
    ap.add_argument("--model", type=Path, default=REPO / "search/semantic/model", help="static table folder")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/paperbot-semantic"), help="transformer vector cache")
    ap.add_argument("--only", choices=["transformer", "static"], help="evaluate one model only")
    ap.add_argument("--split", choices=["test", "train"], action="append", help="default: test and train")
    args = ap.parse_args()
    splits = args.split or ["test", "train"]

    docs, queries = load_scifact(args.bench)
    doc_ids = [d["_id"] for d in docs]
    doc_texts = [(d["title"] + " " + d["text"]).strip() for d in docs]
    qrels = {s: load_qrels(args.bench / "qrels" / f"{s}.tsv") for s in splits}
    qids = {s: sorted(qrels[s], key=lambda q: int(q) if q.isdigit() else q) for s in splits}

    if args.only != "static":
        model = MiniLM()
        key = hashlib.sha256((args.bench / "corpus.jsonl").read_bytes()).hexdigest()[:12]
        dv = cached(args.cache / f"scifact-corpus-minilm-{key}.npy", lambda: model.embed(doc_texts))
        for s in splits:
            qv = model.embed([queries[q] for q in qids[s]])
            print(f"all-MiniLM-L6-v2 (numpy, served model)  SciFact {s:5s} nDCG@10 = "
                  f"{ndcg_at_10(qv @ dv.T, doc_ids, qids[s], qrels[s]):.4f}  ({len(qids[s])} queries)")
    if args.only != "transformer":
        table = StaticTable.load(args.model)
        t = time.time()
        dv = table.embed(doc_texts)
        took = time.time() - t
        for s in splits:
            qv = table.embed([queries[q] for q in qids[s]])
            print(f"static table {table.rows} rows x {table.dims}   SciFact {s:5s} nDCG@10 = "
                  f"{ndcg_at_10(qv @ dv.T, doc_ids, qids[s], qrels[s]):.4f}  ({len(qids[s])} queries)")
        print(f"  static table embedded {len(docs)} abstracts in {took:.1f}s (Python)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
