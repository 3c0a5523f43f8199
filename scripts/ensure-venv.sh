#!/usr/bin/env bash
# Create or reuse the project's virtual environment (.venv) and install lengthwise into it
# with everything the tests need. Reinstalls dependencies only when pyproject.toml or
# setup.py changed; always re-links the editable install so new modules are picked up.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "creating .venv with $($PYTHON --version)" >&2
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.lengthwise-installed"
want="$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing lengthwise and its test dependencies into .venv (first run takes a few minutes)" >&2
  .venv/bin/python -m pip install -q --upgrade pip setuptools wheel 2>&1 | grep -v "^WARNING: Location" || true
  .venv/bin/python -m pip install -q -e ".[test]" --config-settings editable_mode=strict 2>&1 \
    | grep -v -e "^WARNING: Location" || true
  echo "$want" > "$stamp"
fi
bash scripts/dev-install.sh
