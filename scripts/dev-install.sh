#!/usr/bin/env bash
# Re-link the editable install after adding or removing modules (idempotent, a few seconds).
# Strict editable mode links each file, so static tools (mypy) see the area folders mapped
# into the `lengthwise` namespace; new files need this re-run to be linked.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>.venv/.dev-install.lock
flock 9
log=.venv/.dev-install.log
if ! .venv/bin/python -m pip install --no-deps --no-build-isolation -e . \
    --config-settings editable_mode=strict >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
