#!/usr/bin/env bash
# Create or reuse the project's virtual environment (.venv) and install lengthwise into it
# with everything the tests need. Reinstalls dependencies only when pyproject.toml or
# setup.py changed; makes sure the editable install points at this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "creating .venv with $($PYTHON --version)" >&2
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.lengthwise-installed"
want="$(cat pyproject.toml setup.py scripts/constraints.txt | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing lengthwise and its test dependencies into .venv (first run takes a few minutes)" >&2
  log=.venv/.install.log
  if ! { .venv/bin/python -m pip install --upgrade pip setuptools wheel &&
      .venv/bin/python -m pip install -e ".[test]" --group dev -c scripts/constraints.txt; } \
      >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "installation failed; full log: $log" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
bash scripts/dev-install.sh
