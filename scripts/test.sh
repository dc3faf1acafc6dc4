#!/usr/bin/env bash
# The whole test suite: typecheck, lint, unit + integration tests, build, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium for the browser tests (apt-get)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is needed for the browser tests and was not found at $chromium_path." >&2
    echo "Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

step() { printf '\n== %s ==\n' "$1"; }
step "typecheck"; react-router typegen && tsc
step "lint"; eslint . && prettier --check . >/dev/null && echo "eslint + prettier: clean"
step "build"; react-router build >/dev/null && echo "built"
step "unit and integration tests"; vitest run
step "browser tests"; playwright test
