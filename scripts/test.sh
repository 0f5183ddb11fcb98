#!/usr/bin/env bash
# Runs everything CI runs: install, build (the panel's bundle too) and type-check, lint, Debian's
# Chromium, PostgreSQL and Redis when missing, then every test (the jest projects unit, integration
# and fuzz). Ends with a plain "N passed, N failed" line computed from jest's JSON report. Arguments
# go to jest (e.g. `--selectProjects unit integration`); SIGNALBOX_FUZZ_RUNS=N caps the cases of
# every fuzz property (full strength when unset). Each phase prints when it starts, in seconds since
# the script did.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
source "$SIGNALBOX_ROOT/scripts/checkout-state.sh"
set -e
started=$SECONDS
phase() { echo "== $1 (at $((SECONDS - started)) s)"; }

ensure_installed
phase "build and type-check"
ensure_built
pnpm exec tsc -p tsconfig.test.json --noEmit
pnpm exec tsc -p packages/panel/ui/tsconfig.json  # the browser code, which esbuild bundles without type-checking
phase "lint"
pnpm exec eslint --max-warnings=0 .
# Real programs the tests start, from Debian's packages when missing: Chromium for the panel's
# browser tests (driven through playwright-core), PostgreSQL and Redis for the scale-out stores.
missing=()
[ -x "${SIGNALBOX_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x "${SIGNALBOX_REDIS_SERVER:-/usr/bin/redis-server}" ] || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  phase "install ${missing[*]}"
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
fi
phase "tests"
mkdir -p .test-results
set +e
pnpm exec jest --ci --json --outputFile=.test-results/jest.json "$@"
status=$?
set -e
phase "done"
node -e '
  const report = require("./.test-results/jest.json");
  const failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  console.log(`${report.numPassedTests} passed, ${failed} failed` + (report.numPendingTests ? `, ${report.numPendingTests} skipped` : ""));
'
exit $status
