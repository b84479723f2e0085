"""Checks the numpy forward pass of all-MiniLM-L6-v2 without torch; exits 1 on any failure.

1. The published example: sentence-transformers' quickstart encodes these three sentences with
   all-MiniLM-L6-v2 and prints the cosine similarities 0.6660, 0.1046 and 0.1411.
2. The attention mask: a sentence embedded alone and inside a padded batch with longer ones
   gives the same vector.
3. GELU's erf: erfc against Python's math.erfc over [-8, 8].

    python tools/semantic/check_minilm.py
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minilm import MiniLM, erfc  # noqa: E402

QUICKSTART = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
PUBLISHED = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}


def main() -> int:
    failed = 0
    model = MiniLM()
    e = model.embed(QUICKSTART)
    sim = e @ e.T
    for (i, j), want in PUBLISHED.items():
        ok = abs(sim[i, j] - want) <= 6e-5  # published to 4 decimals
        failed += not ok
        print(f"{'ok ' if ok else 'BAD'} cos(s{i}, s{j}) = {sim[i, j]:.5f}  published {want:.4f}")

    texts = ["short", "A much longer sentence about vitamin D and the risk of bone fractures in the elderly."]
    alone = model.embed(texts[:1])[0]
    batched = model.embed(texts)[0]
    diff = float(np.abs(alone - batched).max())
    ok = diff < 1e-5
    failed += not ok
    print(f"{'ok ' if ok else 'BAD'} padded batch vs alone: max |diff| = {diff:.2e}")

    x = np.linspace(-8, 8, 20001)
    err = max(abs(float(a) - math.erfc(float(v))) for a, v in zip(erfc(x), x))
    ok = err < 1e-6
    failed += not ok
    print(f"{'ok ' if ok else 'BAD'} erfc max |error| = {err:.1e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
