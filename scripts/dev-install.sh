#!/usr/bin/env bash
# Install this checkout into .venv in editable mode (idempotent, a few seconds).
# The editable install is an import hook naming the checkout's `lengthwise/` folder; the area
# folders are reached through its symlinks, so new modules need no re-run, and a re-run
# while another command runs from this checkout changes nothing that command reads.
set -euo pipefail
cd "$(dirname "$0")/.."
here="$(pwd -P)"
found="$(.venv/bin/python -c 'import lengthwise, os; print(os.path.dirname(os.path.realpath(lengthwise.__file__)))' 2>/dev/null || true)"
if [ "$found" = "$here/lengthwise" ]; then
  exit 0
fi
log=.venv/.dev-install.log
if ! .venv/bin/python -m pip install --no-deps --no-build-isolation -e . >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
