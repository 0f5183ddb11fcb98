#!/usr/bin/env bash
# Sourced by start.sh and test.sh after toolchain.sh: installs dependencies and builds only when
# something they depend on changed since the last successful install or build, so a command on a
# built checkout answers at once. Each says on stderr what it does (never on stdout).
# - Install: the lockfile, every package.json, pnpm-workspace.yaml, .npmrc and Node's version.
# - Build: those, plus every file under packages/ and examples/ outside node_modules (path, size,
#   modification time) taken before the build, and the outputs (dist/, *.tsbuildinfo: path and
#   size) after it. An edited, added or removed source, or an output deleted or changed in size,
#   means a rebuild; so does a source edited while a build ran.
# Fingerprints are kept in node_modules/.signalbox-checkout/ and go away with node_modules.

SIGNALBOX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHECKOUT_STATE_DIR="$SIGNALBOX_ROOT/node_modules/.signalbox-checkout"

say() { echo "$(basename "$0"): $*" >&2; }

# What `pnpm install` reads.
install_fingerprint() {
  (
    cd "$SIGNALBOX_ROOT"
    files=()
    for file in package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc packages/*/package.json examples/*/package.json test/package.json; do
      if [ -f "$file" ]; then files+=("$file"); fi
    done
    { node --version; sha256sum -- "${files[@]}"; } | sha256sum | cut -d' ' -f1
  )
}

# Lists the files under packages/ and examples/ (outside node_modules) that the `find` tests after
# the format select, one line each in the `find -printf` format $1, sorted.
list_workspace_files() {
  local format=$1
  shift
  (cd "$SIGNALBOX_ROOT" && find packages examples -name node_modules -prune -o -type f "$@" -printf "$format") | LC_ALL=C sort
}

# What the build reads: the installed dependencies and every source file, by path, size and mtime.
sources_fingerprint() {
  { install_fingerprint; list_workspace_files '%p %s %T@\n' ! -path '*/dist/*' ! -name '*.tsbuildinfo'; } | sha256sum | cut -d' ' -f1
}

# What the build writes, by path and size: a build run by hand writes the same files again.
outputs_fingerprint() {
  list_workspace_files '%p %s\n' \( -path '*/dist/*' -o -name '*.tsbuildinfo' \) | sha256sum | cut -d' ' -f1
}

recorded() { cat "$CHECKOUT_STATE_DIR/$1" 2>/dev/null || true; }

record() {
  mkdir -p "$CHECKOUT_STATE_DIR"
  echo "$2" >"$CHECKOUT_STATE_DIR/$1"
}

install_is_current() {
  [ -d "$SIGNALBOX_ROOT/node_modules" ] && [ "$(recorded install)" = "$(install_fingerprint)" ]
}

build_is_current() {
  [ "$(recorded build)" = "$(sources_fingerprint) $(outputs_fingerprint)" ]
}

# Runs `pnpm install` unless nothing it reads changed since the last one that succeeded.
ensure_installed() {
  install_is_current && return 0
  local fingerprint
  fingerprint=$(install_fingerprint)
  say "installing dependencies with pnpm (the lockfile or a package.json changed, or none are installed; a few minutes the first time)"
  # Purging without asking: node_modules installed from another store (as the checkout's own once was) is redone.
  (cd "$SIGNALBOX_ROOT" && pnpm install --frozen-lockfile --reporter=silent --config.confirm-modules-purge=false >&2)
  record install "$fingerprint"
}

# Builds the packages, the examples and the panel's page unless nothing changed since the last build.
ensure_built() {
  build_is_current && return 0
  local sources
  sources=$(sources_fingerprint)
  say "building the packages and the example server (tsc -b and the panel's page)"
  (cd "$SIGNALBOX_ROOT" && pnpm run --silent build >&2)
  record build "$sources $(outputs_fingerprint)"
}
