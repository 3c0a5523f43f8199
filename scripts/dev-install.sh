#!/usr/bin/env bash
# Re-link the editable install after adding or removing modules (idempotent, a few seconds).
# Strict editable mode links each file, so static tools (mypy) see the area folders mapped
# into the `lengthwise` namespace; new files need this re-run to be linked.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>.venv/.dev-install.lock
flock 9
.venv/bin/python -m pip install -q --no-deps --no-build-isolation -e . \
  --config-settings editable_mode=strict 2>&1 | grep -v -e "^WARNING: Location" -e "^$" -e "BuildBackendWarning" -e "warnings.warn" \
  -e "editable installation" -e "build/__editable__" -e "careful to not remove" -e "to import/use" \
  -e "^ *$" || true
