#!/usr/bin/env bash
# Create or reuse .venv-labelstudio (Label Studio's own virtual environment, kept apart from
# .venv because it pins its own Django/pydantic stack) and install the pinned Label Studio.
# Idempotent: a stamp records what was installed; a second run with the same pin does nothing.
# About 1 GB and under a minute on a fresh machine. Used by `lengthwise annotate serve` and
# by the end-to-end tests (scripts/test.sh runs this before pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=".venv-labelstudio"
PIN="label-studio==1.23.2"
stamp="$VENV/.lengthwise-labelstudio"
if [ -x "$VENV/bin/label-studio" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PIN" ]; then
  exit 0
fi
mkdir -p "$VENV"
exec 9>"$VENV/.install.lock"
flock 9
# Another process may have finished the install while this one waited for the lock.
if [ -x "$VENV/bin/label-studio" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PIN" ]; then
  exit 0
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV with $($PYTHON --version)" >&2
  "$PYTHON" -m venv "$VENV"
fi
echo "installing $PIN into $VENV (about 1 GB, first run takes a minute or two)" >&2
started=$(date +%s)
"$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
# A connection dropped mid-download can fail a wheel for good; a fresh attempt starts it over.
for attempt in 1 2 3; do
  "$VENV/bin/python" -m pip install -q "$PIN" 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -c "import label_studio" >/dev/null 2>&1 && break
  echo "Label Studio install attempt $attempt did not complete" >&2
done
"$VENV/bin/python" -c "import label_studio" # fail loudly if the install did not work
echo "$PIN" > "$stamp"
echo "installed $PIN in $(( $(date +%s) - started )) s ($(du -sh "$VENV" | cut -f1))" >&2
