#!/usr/bin/env bash
# The whole test suite: typecheck, lint, build, unit + integration tests, several shop processes
# behind nginx (bounded to five minutes), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
# What the suite runs besides Node: Chromium for the browser tests, PostgreSQL's own server (the
# external-database, backup and load-balancer tests) and nginx (the load balancer).
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${missing[*]} for the tests (apt-get)…"
    apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "The tests need ${missing[*]}, which was not found." >&2
    echo "Install it (Debian/Ubuntu: sudo apt-get install ${missing[*]}); set CHROMIUM_PATH" \
      "if Chromium lives elsewhere." >&2
    exit 1
  fi
fi

step() { printf '\n== %s ==\n' "$1"; }
step "typecheck"; react-router typegen && tsc
step "lint"; eslint . && prettier --check . >/dev/null && echo "eslint + prettier: clean"
step "build"; node scripts/build.ts >/dev/null && echo "built"
step "unit and integration tests"; vitest run
step "several processes behind a load balancer"; timeout --kill-after=10 300 vitest run -c vitest.cluster.config.ts
step "browser tests"; playwright test
