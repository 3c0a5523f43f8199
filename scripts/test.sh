#!/usr/bin/env bash
# The whole test suite: lint, type checks and every test (slow and real-server tests included).
# Extra arguments go to pytest, e.g. `scripts/test.sh -m "not slow"` while developing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-venv.sh
# Label Studio lives in its own virtual environment (.venv-labelstudio); the end-to-end
# annotation tests start a real server from it.
bash scripts/ensure-labelstudio.sh
# Debian's headless Chromium + chromedriver: the HTML report viewer is checked in a browser.
bash scripts/ensure-chromium.sh
# vLLM for CPU in .venv-vllm: the evaluator's vLLM backends run for real in the tests.
bash scripts/ensure-vllm.sh
echo "== ruff" >&2
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy" >&2
# mypy reads lengthwise/ from the checkout; the area folders are its symlinked sub-packages.
.venv/bin/mypy -p lengthwise
echo "== pytest" >&2
# Reference data (../shared: real corpora, ROUGE vectors) missing is a failure here, not a skip.
export LENGTHWISE_REQUIRE_SHARED=1
# Whole files per worker: tests sharing a real server (Label Studio, transformers serve)
# then start it once per worker, not once per test spread.
.venv/bin/pytest -n 2 --dist loadfile "$@"
