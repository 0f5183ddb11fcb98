#!/usr/bin/env bash
# Sourced by the other scripts. Makes `node` (>= 22.15) and `pnpm` (10.x) available on PATH.
# When the machine's own Node is too old or pnpm is missing, installs Node 24 and pnpm 10 from the
# npm registry into a folder of the user's cache named after both versions, shared by every
# checkout (a fresh clone finds them there), and puts them first on PATH. Never interactive.
set -euo pipefail

SIGNALBOX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_PACKAGE="node@24.9.0"
PNPM_PACKAGE="pnpm@10.34.9"
TOOLS_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/signalbox/tools/${NODE_PACKAGE/@/-}-${PNPM_PACKAGE/@/-}"
MIN_NODE="22.15.0"

version_at_least() { # $1 >= $2 (dotted versions)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

node_is_recent() {
  command -v node >/dev/null 2>&1 || return 1
  version_at_least "$(node --version | sed 's/^v//')" "$MIN_NODE"
}

# pnpm's version, read from the manifest beside the command when it is the npm package (as in TOOLS_DIR):
# starting pnpm just to ask costs about a second. Any other pnpm is asked.
pnpm_version() {
  local manifest
  manifest="$(dirname "$(realpath "$(command -v pnpm)")")/../package.json"
  if [ -f "$manifest" ] && grep -q '^  "name": "pnpm",$' "$manifest"; then
    sed -n 's/^  "version": "\(.*\)",$/\1/p' "$manifest"
  else
    pnpm --version 2>/dev/null
  fi
}

# Installs into a folder of its own, then renames it into place: a checkout that does the same at the
# same time keeps the one renamed first.
install_tools() {
  echo "toolchain: no Node >= $MIN_NODE with pnpm 10 here; installing $NODE_PACKAGE and $PNPM_PACKAGE into $TOOLS_DIR with npm (once)" >&2
  local staging
  mkdir -p "$(dirname "$TOOLS_DIR")"
  staging=$(mktemp -d "$TOOLS_DIR.XXXXXX")
  (cd "$staging" && npm install --prefix "$staging" --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=error "$NODE_PACKAGE" "$PNPM_PACKAGE" >&2) || { rm -rf "$staging"; return 1; }
  mv -T "$staging" "$TOOLS_DIR" 2>/dev/null || rm -rf "$staging"
}

if [ -x "$TOOLS_DIR/node_modules/.bin/node" ]; then
  export PATH="$TOOLS_DIR/node_modules/.bin:$PATH"
fi
if ! node_is_recent || ! command -v pnpm >/dev/null 2>&1 || ! pnpm_version | grep -q '^10\.'; then
  install_tools
  export PATH="$TOOLS_DIR/node_modules/.bin:$PATH"
fi
node_is_recent || { echo "toolchain: could not get Node >= $MIN_NODE" >&2; exit 1; }

export PNPM_HOME="$TOOLS_DIR/pnpm-home"
# One content-addressed package store per user (pnpm's usual place), shared by every checkout: a
# fresh clone hard-links its ~57,000 files from there instead of downloading 1.5 GB.
export npm_config_store_dir="${npm_config_store_dir:-${XDG_DATA_HOME:-$HOME/.local/share}/pnpm/store}"
export COREPACK_ENABLE_STRICT=0
export npm_config_update_notifier=false
cd "$SIGNALBOX_ROOT"
