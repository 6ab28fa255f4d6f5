#!/usr/bin/env bash
# Set up Dehla Arena on a fresh Debian machine: a virtualenv with the project installed, and
# bubblewrap for the bot sandbox where we may install it (as root, or with passwordless sudo).
# Usage: bash scripts/setup.sh [dev]   ("dev" adds the test and lint tools, and Debian's chromium
# for the browser tests: Playwright drives it, since its own browser download cannot work here;
# podman, runc and mmdebstrap for the container tests; nginx for the reverse proxy's tests)
set -euo pipefail
cd "$(dirname "$0")/.."
extra=""
[ "${1:-}" = "dev" ] && extra="[dev]"
if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq bubblewrap) >/dev/null 2>&1 \
      || echo "setup: could not install bubblewrap; the ladder will need --runner local" >&2
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    (sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap) >/dev/null 2>&1 \
      || echo "setup: could not install bubblewrap; the ladder will need --runner local" >&2
  else
    echo "setup: bubblewrap is not installed and we cannot install it; the ladder will need --runner local" >&2
  fi
fi
if [ -n "$extra" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 \
      || echo "setup: could not install chromium; the browser tests will be skipped" >&2
  else
    echo "setup: chromium is not installed; the browser tests will be skipped (apt-get install chromium)" >&2
  fi
fi
if [ -n "$extra" ] && ! [ -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ]; then
    # tests/deploy/test_proxy.py checks and runs docker/nginx.conf; the service is not started
    (apt-get update -qq && apt-get install -y -qq nginx) >/dev/null 2>&1 \
      || echo "setup: could not install nginx; the proxy tests will be skipped" >&2
  else
    echo "setup: nginx is not installed; the proxy tests will be skipped (apt-get install nginx)" >&2
  fi
fi
if [ -n "$extra" ] && ! { command -v podman && command -v mmdebstrap && [ -x /usr/sbin/runc ]; } >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq podman runc mmdebstrap) >/dev/null 2>&1 \
      || echo "setup: could not install podman; the container tests will be skipped" >&2
  else
    echo "setup: podman is not installed; the container tests will be skipped (apt-get install podman runc mmdebstrap)" >&2
  fi
fi
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/pip install -q -e ".${extra}"
# The project's bytecode, written once: bots run with PYTHONDONTWRITEBYTECODE=1 (and read-only in
# the sandbox), so without it every bot process compiled the engine, protocol and SDK again.
.venv/bin/python -m compileall -q arena protocol sdk sample_bots ladder >/dev/null
