#!/usr/bin/env bash
# Runs everything CI runs: install, then lint (with no warning allowed) beside the build (the panel's
# bundle too), Debian's Chromium, PostgreSQL and Redis when missing, then side by side the tests'
# type-check and every test (the jest projects unit, integration and fuzz). The checks' output
# (lint's and the type-check's) is printed once the tests are done; the script fails when either does. Ends with a plain "N passed, N failed in S s" line computed from
# jest's JSON report, S the script's whole time. Arguments go to jest (e.g. `--selectProjects unit
# integration`); SIGNALBOX_FUZZ_RUNS=N caps the cases of every fuzz property (full strength when
# unset). Each phase prints when it starts, in seconds since the script did.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
source "$SIGNALBOX_ROOT/scripts/checkout-state.sh"
set -e
started=$SECONDS
phase() { echo "== $1 (at $((SECONDS - started)) s)"; }

# Starts a check in the background, in a process group of its own (job control on while starting
# it) so that it can be stopped with its children should the script end first. Its output and its
# time go to .test-results/NAME.log, printed by `report_checks`.
checks=()
start_check() {
  local name=$1
  shift
  set -m
  bash -c 'began=$SECONDS; "$@"; status=$?; echo "($((SECONDS - began)) s)"; exit $status' -- "$@" >".test-results/$name.log" 2>&1 &
  set +m
  checks+=("$name:$!")
}

# Waits for every check, prints each one's output, and fails when one did.
report_checks() {
  local check failed=0
  for check in "${checks[@]}"; do
    if wait "${check#*:}"; then phase "${check%%:*} passed"; else phase "${check%%:*} FAILED" && failed=1; fi
    cat ".test-results/${check%%:*}.log"
  done
  return $failed
}

ensure_installed
mkdir -p .test-results
trap 'for check in "${checks[@]}"; do kill -- "-${check#*:}" 2>/dev/null || true; done' EXIT
# Lint reads only sources (its TypeScript programs resolve the packages to their src/), so it runs
# beside the build, whose type-check (tsc -b) keeps one core busy and leaves the other free.
phase "lint, beside the build"
start_check lint pnpm exec eslint --max-warnings=0 .
phase "build"
ensure_built
# Real programs the tests start, from Debian's packages when missing: Chromium for the panel's
# browser tests (driven through playwright-core), PostgreSQL and Redis for the scale-out stores.
missing=()
[ -x "${SIGNALBOX_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x "${SIGNALBOX_POSTGRES_BIN:-/nonexistent}/initdb" ] || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x "${SIGNALBOX_REDIS_SERVER:-/usr/bin/redis-server}" ] || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  phase "install ${missing[*]}"
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
fi

phase "checks and tests, side by side"
# The type-check the build leaves (it type-checks the packages, the examples and the panel's
# browser code, which esbuild bundles without type-checking): the tests', against the built
# declarations.
start_check type-check-tests pnpm exec tsc -p tsconfig.test.json
set +e
pnpm exec jest --ci --json --outputFile=.test-results/jest.json "$@"
tests_status=$?
phase "tests done"
report_checks
checks_status=$?
set -e
node -e '
  const report = require("./.test-results/jest.json");
  const failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  const checksFailed = process.argv[1] !== "0";
  if (checksFailed) console.log("type-check or lint failed: see above");
  console.log(`${report.numPassedTests} passed, ${failed} failed` + (report.numPendingTests ? `, ${report.numPendingTests} skipped` : "") + ` in ${process.argv[2]} s`);
' "$checks_status" "$((SECONDS - started))"
[ "$tests_status" = 0 ] || exit "$tests_status"
exit "$checks_status"
