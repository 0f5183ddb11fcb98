#!/usr/bin/env bash
# Runs everything CI runs: install, build and type-check, lint, then every test.
# Ends with a plain "N passed, N failed" line computed from jest's JSON report.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
set -e
pnpm install --frozen-lockfile --reporter=silent
echo "== build and type-check"
pnpm exec tsc -b
pnpm exec tsc -p tsconfig.test.json --noEmit
echo "== lint"
pnpm exec eslint --max-warnings=0 .
echo "== tests"
mkdir -p .test-results
set +e
pnpm exec jest --ci --json --outputFile=.test-results/jest.json "$@"
status=$?
set -e
node -e '
  const report = require("./.test-results/jest.json");
  const failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  console.log(`${report.numPassedTests} passed, ${failed} failed` + (report.numPendingTests ? `, ${report.numPendingTests} skipped` : ""));
'
exit $status
