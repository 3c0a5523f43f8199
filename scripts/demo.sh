#!/usr/bin/env bash
# The main job, end to end on the demo corpus: every stage that exists so far.
# Offline it uses the synthetic zh/en corpus that lengthwise generates itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-venv.sh
OUT="${1:-demo-output}"
LW=.venv/bin/lengthwise
$LW demo-corpus "$OUT"
SPEC="$OUT/demo.toml"
WORK="$OUT/work"
echo "== build: sources -> clean -> chapters -> tokens -> samples"
$LW build "$SPEC" --work "$WORK"
echo "== contamination probe (needs [llm.probe]; says so when absent)"
$LW probe "$SPEC" --work "$WORK"
echo "== chapter synopsis drafts (extractive fallback without [llm.drafter])"
$LW draft "$SPEC" --work "$WORK"
echo "== dataset statistics (summary-based figures stay 'absent' until annotation)"
$LW stats "$SPEC" --work "$WORK" || echo "(stats stage not available yet)"
echo "== release folder (validated with datasets.load_dataset; no human summaries in the demo)"
RELEASE="$($LW release "$SPEC" --work "$WORK" --version 0.1.0 --allow-unannotated | tail -n 1)"
echo "== evaluation of a tiny random-weight local model (plumbing, not quality)"
$LW tiny-model "$OUT/tiny-model"
# The demo release has no human summaries: answers are generated and their outcomes
# counted, but nothing is scored. A few short answers keep the demo quick on a CPU.
$LW eval --release "$RELEASE" --model "$OUT/tiny-model" --backend transformers \
  --subsets S --limit 3 --max-new-tokens-per-subset S=48 \
  --prompts IB,IE --out "$OUT/eval" || echo "(evaluation incomplete; rerun to resume)"
echo
echo "== results"
echo "build report:  $WORK/build_report.md"
echo "samples:       $WORK/samples/<subset>.parquet"
echo "books:         $WORK/corpus/books.jsonl"
echo "probe report:  $WORK/screening/contamination.md"
echo "drafts:        $WORK/drafts/samples.jsonl ($WORK/drafts/report.md)"
echo "statistics:    $WORK/stats/stats.md"
echo "release:       $RELEASE (dataset card: $RELEASE/README.md)"
echo "evaluation:    $OUT/eval/results.json, $OUT/eval/report.md"
