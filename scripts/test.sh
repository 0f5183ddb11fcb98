#!/usr/bin/env bash
# Runs everything CI runs: install, build, then every test beside the type-check of the tests and
# lint. Ends with a plain "N passed, N failed" line computed from jest's JSON report.
#
# The tests run from sources, but test/e2e starts the built example server, so the build comes
# first. The tests spend much of their time waiting on loopback servers and child processes, so the
# type-check of the tests and lint run beside them (their output is printed after the tests').
# Arguments go to jest (e.g. `--selectProjects unit integration`); SWITCHYARD_FUZZ_RUNS=N caps the
# cases of every fuzz property (full strength when unset).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
set -e
cd "$SWITCHYARD_ROOT"
started=$SECONDS
phase() { echo "== $1 ($((SECONDS - started)) s)"; }

pnpm install --frozen-lockfile --reporter=silent
phase "build"
pnpm exec tsc -b

mkdir -p .test-results
checks_log=.test-results/type-check-and-lint.log
(
  pnpm exec tsc -p tsconfig.test.json --noEmit
  pnpm exec eslint --max-warnings=0 .
) >"$checks_log" 2>&1 &
checks=$!

phase "tests (type-check of the tests and lint run alongside)"
set +e
pnpm exec jest --ci --json --outputFile=.test-results/jest.json "$@"
status=$?
phase "type-check of the tests and lint"
wait "$checks"
checks_status=$?
set -e
cat "$checks_log"
if [ "$checks_status" -ne 0 ]; then
  echo "type-check or lint FAILED (exit $checks_status)"
  [ "$status" -ne 0 ] || status=$checks_status
fi
phase "done"
node -e '
  const report = require("./.test-results/jest.json");
  const failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  console.log(`${report.numPassedTests} passed, ${failed} failed` + (report.numPendingTests ? `, ${report.numPendingTests} skipped` : ""));
'
exit $status
