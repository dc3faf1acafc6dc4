#!/usr/bin/env bash
# The whole test suite: typecheck, lint, build, unit + integration tests, several shop processes
# behind nginx (bounded to fifteen minutes), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
# What the suite runs besides Node: Chromium for the browser tests, PostgreSQL's own server (the
# external-database, backup and load-balancer tests) and nginx (the load balancer).
missing=()
[ -x "$chromium_path" ] || missing+=(chromium-headless-shell)
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

# Each stage says how long it took.
started=$SECONDS
stage_start=""
step() {
  [ -z "$stage_start" ] || printf '(%ss)\n' "$((SECONDS - stage_start))"
  stage_start=$SECONDS
  printf '\n== %s ==\n' "$1"
}

# Type checking, linting and the build do not depend on each other: side by side, each one's
# output shown when it fails.
step "typecheck, lint and build"
react-router typegen
checks="$(mktemp -d)"
trap 'rm -rf "$checks"' EXIT
tsc >"$checks/typecheck" 2>&1 &
typecheck=$!
{ eslint . && prettier --check . >/dev/null; } >"$checks/lint" 2>&1 &
lint=$!
node scripts/build.ts >"$checks/build" 2>&1 &
build=$!
failed=0
for check in typecheck lint build; do
  if wait "${!check}"; then
    echo "$check: clean"
  else
    printf '%s failed:\n' "$check"
    cat "$checks/$check"
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1

step "unit and integration tests"
vitest run
step "several processes behind a load balancer"
# A hang guard: the stage took 5 min 40 s on two cores busy with other work (a load of 14).
timeout --kill-after=10 900 vitest run -c vitest.cluster.config.ts
step "browser tests"
playwright test
printf '(%ss)\n\nAll stages passed in %ss.\n' "$((SECONDS - stage_start))" "$((SECONDS - started))"
