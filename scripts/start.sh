#!/usr/bin/env bash
# Starts the example server (gateway + embedded simulator) on http://127.0.0.1:8080.
# Installs Node 24 / pnpm 10 locally when the machine lacks them, installs dependencies, builds.
# Environment: PORT, HOST, SIGNALBOX_CONFIG (JSON or YAML file), SIGNALBOX_DEMO_KEY, LOG_LEVEL.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
pnpm install --frozen-lockfile --reporter=silent >&2
pnpm run --silent build >&2
exec node --disable-warning=ExperimentalWarning examples/server/dist/main.js "$@"
