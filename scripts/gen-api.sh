#!/usr/bin/env bash
# Regenerates the web client's OpenAPI document and TypeScript types from the server's route schemas.
# `--check` fails when the committed files are stale (run by `make check`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/web/src/api"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root/server" && npx tsx src/main.ts openapi --out "$tmp/openapi.json")
npx --prefix "$root" openapi-typescript "$tmp/openapi.json" -o "$tmp/schema.d.ts" >/dev/null
npx --prefix "$root" prettier --log-level warn --write "$tmp/schema.d.ts" >/dev/null 2>&1 || true
if [ "${1:-}" = "--check" ]; then
  if ! cmp -s "$tmp/openapi.json" "$out/openapi.json" || ! cmp -s "$tmp/schema.d.ts" "$out/schema.d.ts"; then
    echo "web/src/api is stale: run scripts/gen-api.sh and commit the result" >&2
    diff -u "$out/openapi.json" "$tmp/openapi.json" | head -40 >&2 || true
    exit 1
  fi
  echo "web/src/api is up to date"
else
  cp "$tmp/openapi.json" "$out/openapi.json"
  cp "$tmp/schema.d.ts" "$out/schema.d.ts"
  echo "wrote web/src/api/openapi.json and web/src/api/schema.d.ts"
fi
