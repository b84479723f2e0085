"""Fits the meaning weights of search.Tuning on train splits and prints the trade-off.

Train data only: SciFact train (answerable, and its claims asked of the ML corpora), the lab
queries' train split (answerable, its absent topics, and the queries asked of SciFact), the seed
queries' train split, and the ICLR authors' keywords' train split with each topic's papers held
out (short in-domain topics no paper covers). Test splits are never read.

    go build -o /tmp/paperbot ./cmd/paperbot
    go run ./cmd/labbench -out /tmp/lab ../shared/corpora/*/*
    go run ./cmd/labbench -queries search/testdata/seedqueries -out /tmp/seedq seeds/*.txt
    go run ./cmd/openreviewbench -out /tmp/iclr ../shared/corpora/dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv
    python3 tools/semantic/fit_meaning.py --paperbot /tmp/paperbot --work /tmp/fitmeaning

For a served model, pass its eval flags through (every run gets them), for example:

    python3 tools/semantic/serve.py --model e5 --port 8089 --cache /tmp/e5.sqlite &
    python3 tools/semantic/fit_meaning.py --paperbot /tmp/paperbot --work /tmp/fit-e5 --eval-args \
      "--embeddings-url http://127.0.0.1:8089 --embeddings-model multilingual-e5-small \
       --embeddings-query-prefix 'query: ' --embeddings-document-prefix 'passage: ' \
       --embeddings-cache /tmp/e5cache" --meaning 0 0.5 1 2

Two fits:
1. ranking: nDCG@10 of each answerable set for each Tuning.Meaning (cosine weight in the rank)
   and Tuning.MeaningDepth (papers found by meaning alone), beside words only;
2. refusal: with the confidence's meaning term off, each query's confidence and best cosine are
   recorded once, then every (MeaningConf, MeaningCenter) is swept offline: the threshold is the
   highest that refuses at most --budget SciFact train claims, and the shares of the off-domain
   sets it then refuses are printed. Only the standard library is needed.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


EXTRA: list[str] = []  # --eval-args, given to every run


def run(paperbot: str, args: list[str], out: Path) -> dict:
    if not out.exists():
        cmd = [paperbot, "eval", *args, *EXTRA, "--json"]
        print("$", " ".join(cmd), file=sys.stderr)
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
        out.write_text(res.stdout)
    return json.loads(out.read_text())


def sets(a: argparse.Namespace) -> dict[str, list[str]]:
    scifact = str(SHARED / "benchmarks" / "scifact")
    corpora = str(SHARED / "corpora") + "/*/*"
    return {
        "scifact": [scifact, "--split", "train", "--off-domain", corpora + ",seeds"],
        "lab": [a.lab, "--split", "train", "--off-domain-queries", a.lab + "/absent/train.txt",
                "--off-domain", scifact + "/corpus.jsonl"],
        "seedq": [a.seedq, "--split", "train", "--off-domain-queries", a.seedq + "/absent/train.txt"],
        "iclr": [a.iclr + "/keywords", "--split", "train", "--absent-topics", "3"],
    }


def curve_conf(q: dict, refuse: float) -> float:
    """CurveConfidence: 0 when a rule other than the threshold refused the query."""
    if q.get("no_match") and q.get("confidence", 0) >= refuse:
        return 0.0
    return q.get("confidence", 0.0)


def refused(qs: list[dict], conf: float, center: float, threshold: float, refuse: float) -> int:
    n = 0
    for q in qs:
        c = curve_conf(q, refuse)
        if c > 0:
            c = min(1.0, max(0.0, c + conf * (q.get("meaning", 0.0) - center)))
        n += c < threshold
    return n


def fit_refusal(a: argparse.Namespace, work: Path) -> None:
    answerable, off = {}, {}
    for name, args in sets(a).items():
        d = run(a.paperbot, args + ["--set", "meaning-conf=0"], work / f"refusal_{name}.json")
        if name != "iclr":
            answerable[name] = d["report"]["per_query"]
        for o in d.get("off_domain") or []:
            off[f"{name}: {o['name'][:60]}"] = o["per_query"]
    print(f"\nrefusal: at most {a.budget} of {len(answerable['scifact'])} SciFact train claims refused")
    names = list(off)
    print("conf center threshold | answerable refused (" + ", ".join(answerable) + ") | off-domain refused")
    for i, n in enumerate(names):
        print(f"  off[{i}] = {n}")
    for conf in a.conf:
        for center in a.center:
            steps = [t / 1000 for t in range(0, 600, 5)]
            ok = [t for t in steps if refused(answerable["scifact"], conf, center, t, a.refuse) <= a.budget]
            t = max(ok) if ok else 0.0
            ans = [refused(v, conf, center, t, a.refuse) for v in answerable.values()]
            offs = [refused(v, conf, center, t, a.refuse) / max(1, len(v)) for v in off.values()]
            print(f"{conf:4.2f} {center:6.2f} {t:9.3f} | {ans} | " + " ".join(f"{x:.3f}" for x in offs))
            if conf == 0:
                break


def fit_ranking(a: argparse.Namespace, work: Path) -> None:
    print("\nranking: nDCG@10 on train (words only | hybrid)")
    for name, args in sets(a).items():
        if name == "iclr":
            args = [a.iclr + "/keywords", "--split", "train"]
        for m in a.meaning:
            for depth in a.depth:
                d = run(a.paperbot, args[:3] + ["--set", f"meaning={m}", "--set", f"meaning-depth={depth}"],
                        work / f"rank_{name}_{m}_{depth}.json")
                r = d["report"]
                print(f"{name:8s} meaning={m:<5} depth={depth:<3} words {r['words_only']['ndcg@10']:.4f} "
                      f"hybrid {r['paperbot']['ndcg@10']:.4f} refused {r['refused']}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--paperbot", required=True, help="a paperbot binary built from this tree")
    p.add_argument("--work", default="/tmp/fitmeaning", help="where eval outputs are kept (reused if present)")
    p.add_argument("--lab", default="/tmp/lab")
    p.add_argument("--seedq", default="/tmp/seedq")
    p.add_argument("--iclr", default="/tmp/iclr")
    p.add_argument("--budget", type=int, default=3, help="most SciFact train claims refused")
    p.add_argument("--refuse", type=float, default=0.17, help="the Tuning.Refuse the runs used")
    p.add_argument("--conf", type=float, nargs="*", default=[0, 0.2, 0.3, 0.4, 0.5, 0.6])
    p.add_argument("--center", type=float, nargs="*", default=[0.3, 0.4, 0.5])
    p.add_argument("--meaning", type=float, nargs="*", default=[0, 0.1, 0.3])
    p.add_argument("--depth", type=int, nargs="*", default=[0, 30])
    p.add_argument("--skip-ranking", action="store_true")
    p.add_argument("--eval-args", default="", help="more flags for every eval run (a served model's)")
    a = p.parse_args()
    EXTRA.extend(shlex.split(a.eval_args))
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    fit_refusal(a, work)
    if not a.skip_ranking:
        fit_ranking(a, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
