#!/usr/bin/env bash
# Starts the example server (gateway + embedded simulator) on http://127.0.0.1:8080.
# Installs Node 24 / pnpm 10 locally when the machine lacks them, then installs dependencies and
# builds when something changed since the last time (scripts/checkout-state.sh), saying so on stderr;
# on a built checkout it starts at once. Arguments go to the server (`--help`, `accounts list`, ...).
# Environment: PORT, HOST, SIGNALBOX_CONFIG (JSON or YAML file), SIGNALBOX_DEMO_KEY, LOG_LEVEL.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
source "$SIGNALBOX_ROOT/scripts/checkout-state.sh"
ensure_installed
ensure_built
exec node --disable-warning=ExperimentalWarning examples/server/dist/main.js "$@"
