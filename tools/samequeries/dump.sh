#!/usr/bin/env bash
# Dump every benchmark's per-query outcome (ranked papers, refusal, answer,
# confidence) with one paperbot binary, so two commits can be compared query
# by query with compare.py. Usage: tools/samequeries/dump.sh OUTDIR [SHARED]
# Run from the repo root; SHARED defaults to ../shared.
set -euo pipefail
out=${1:?usage: dump.sh OUTDIR [SHARED]}
shared=${2:-../shared}
mkdir -p "$out"
bin="$out/paperbot"
go build -o "$bin" ./cmd/paperbot
work="$out/bench"
mkdir -p "$work"
[ -d "$work/iclr" ] || go run ./cmd/openreviewbench -out "$work/iclr" "$shared/corpora/dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv" >/dev/null
[ -d "$work/lab" ] || go run ./cmd/labbench -out "$work/lab" "$shared"/corpora/*/* >/dev/null
[ -d "$work/seedq" ] || go run ./cmd/labbench -queries search/testdata/seedqueries -out "$work/seedq" seeds/*.txt >/dev/null
for split in train test; do
  "$bin" eval "$shared/benchmarks/scifact" --split "$split" --json \
    --off-domain "$shared/corpora/*/*,seeds" --off-domain-queries search/testdata/relevance.json >"$out/scifact.$split.json"
  "$bin" eval "$work/iclr/keywords" --split "$split" --json >"$out/iclr-keywords.$split.json"
  "$bin" eval "$work/iclr/tldr" --split "$split" --json >"$out/iclr-tldr.$split.json"
  "$bin" eval "$work/lab" --split "$split" --json --off-domain-queries "$work/lab/absent/$split.txt" >"$out/lab.$split.json"
  "$bin" eval "$work/seedq" --split "$split" --json --off-domain-queries "$work/seedq/absent/$split.txt" >"$out/seedq.$split.json"
done
echo "dumped to $out"
