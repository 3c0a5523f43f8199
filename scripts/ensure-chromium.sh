#!/usr/bin/env bash
# Make sure Debian's chromium and chromedriver are installed: the HTML report viewer is tested
# in headless Chromium (tests/evaluation/viewer). Idempotent: does nothing when both exist.
# Installs with apt-get (needs root); about 300 MB on a fresh machine.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium/chromedriver missing: run 'sudo apt-get install -y chromium chromium-driver'" >&2
  exit 1
fi
echo "installing chromium and chromium-driver with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q chromium chromium-driver >/dev/null || {
  apt-get update -q >/dev/null
  apt-get install -y -q chromium chromium-driver >/dev/null
}
/usr/bin/chromium --version >&2
