#!/usr/bin/env bash
# Builds the Docker registry (distribution) the Docker tests pull from, once, into
# ~/.cache/chainlaunch/registry/<version>/registry (server/src/test-support/registry.ts looks there,
# and builds it itself when it is missing). Run by `make test` beside the Fabric build, so a fresh
# machine does not build it inside a test file. A failure is not fatal: the registry test then
# skips and prints why.
set -uo pipefail
version="${1:-v3.1.2}"
dest="${HOME}/.cache/chainlaunch/registry/${version}"
[ -x "$dest/registry" ] && { echo "registry ${version}: cached"; exit 0; }
go=""
for g in go /usr/local/go/bin/go; do command -v "$g" >/dev/null 2>&1 && { go="$g"; break; }; done
[ -n "$go" ] || { echo "registry ${version}: no go; the registry test will skip"; exit 0; }
mkdir -p "$dest"
scratch="$(mktemp -d "${dest}.build-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
if GOBIN="$scratch" CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-buildvcs=false \
  "$go" install "github.com/distribution/distribution/v3/cmd/registry@${version}"; then
  mv "$scratch/registry" "$dest/registry" && echo "registry ${version}: built into $dest"
else
  echo "registry ${version}: the build failed; the registry test will skip"
fi
exit 0
