#!/usr/bin/env bash
# Installs npm dependencies from the lockfile when node_modules is missing or older than the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.package-lock.json
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "installing npm dependencies"
  # better-sqlite3 compiles when no prebuilt binary can be fetched; node-gyp then needs node's
  # headers, which it downloads unless told where the distribution's are (Debian: /usr/include/node).
  if [ -z "${npm_config_nodedir:-}" ] && [ "$(npm config get nodedir)" = undefined ] && [ -f /usr/include/node/node.h ]; then
    export npm_config_nodedir=/usr
  fi
  npm ci --no-audit --no-fund --loglevel=error
fi
