#!/usr/bin/env bash
# The main job, end to end on the demo corpus: every stage that exists so far.
# Offline it uses the synthetic zh/en corpus that lengthwise generates itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-venv.sh
OUT="${1:-demo-output}"
LW=.venv/bin/lengthwise
$LW demo-corpus "$OUT"
$LW build "$OUT/demo.toml" --work "$OUT/work"
echo
echo "== results"
echo "build report:  $OUT/work/build_report.md"
echo "samples:       $OUT/work/samples/<subset>.parquet"
echo "books:         $OUT/work/corpus/books.jsonl"
