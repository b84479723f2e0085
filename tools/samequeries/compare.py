#!/usr/bin/env python3
"""Compare two dump.sh directories query by query and print the diff count.

A query differs when its ranked papers, its refusal, its answer sentence or its
confidence (to 4 places) differ. Usage: compare.py BEFORE AFTER [--show N]
Exits 1 when any query differs, so it can gate a refactor.
"""
import json
import pathlib
import sys


def outcomes(path):
    d = json.loads(path.read_text())
    rows = {}
    rep = d.get("report") or {}
    for q in rep.get("per_query") or []:
        rows["q:" + q["id"]] = (q["text"], q.get("top"), q.get("no_match"),
                                q.get("answer"), round(q.get("confidence", 0), 4), q.get("error"))
    offs = d.get("off_domain") or []
    if isinstance(offs, dict):
        offs = [offs]
    for n, o in enumerate(offs):
        # Names may hold the dump's own path: key on the set's place and basename.
        name = "%d:%s" % (n, pathlib.PurePath(o["name"]).name)
        for i, q in enumerate(o.get("per_query") or []):
            rows["off:%s:%d" % (name, i)] = (q["text"], q.get("top"), q.get("no_match"),
                                                  None, round(q.get("confidence", 0), 4), q.get("error"))
    return rows


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = 10
    if "--show" in sys.argv:
        show = int(sys.argv[sys.argv.index("--show") + 1])
        args = [a for a in args if a != str(show)]
    before, after = map(pathlib.Path, args[:2])
    total = differ = 0
    for f in sorted(before.glob("*.json")):
        g = after / f.name
        if not g.exists():
            print("%s: missing in %s" % (f.name, after))
            differ += 1
            continue
        a, b = outcomes(f), outcomes(g)
        n = 0
        for k in sorted(set(a) | set(b)):
            total += 1
            if a.get(k) != b.get(k):
                n += 1
                if n <= show:
                    print("%s %s\n  before %s\n  after  %s" % (f.name, k, a.get(k), b.get(k)))
        print("%s: %d of %d queries differ" % (f.name, n, len(set(a) | set(b))))
        differ += n
    print("TOTAL: %d of %d queries differ" % (differ, total))
    sys.exit(1 if differ else 0)


main()
