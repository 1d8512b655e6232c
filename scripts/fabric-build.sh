#!/usr/bin/env bash
# Builds the Hyperledger Fabric binaries ChainLaunch runs (peer, orderer, osnadmin, configtxlator,
# configtxgen) with Go from the module proxy (or a Fabric clone), into a cache directory keyed by version:
#
#   ${CHAINLAUNCH_FABRIC_CACHE:-$HOME/.cache/chainlaunch/fabric}/<version>/bin
#
# Usage: scripts/fabric-build.sh [VERSION]      (default 3.1.5; also 2.5.16 and the others listed below)
#
# Idempotent: when all five binaries exist and `peer version` reports VERSION, nothing is rebuilt.
# Set FABRIC_BUILD_FORCE=1 to rebuild anyway.
#
# Two sources:
#   - default: the commands at <pseudo-version> through the Go module proxy (GOPROXY), built in a
#     scratch module (equivalent to `go install <pkg>@<pseudo-version>`).
#   - FABRIC_SRC=<path to a git clone of github.com/hyperledger/fabric> (bare or not): the release commit is
#     exported with `git archive` and built offline from its vendor/ directory (`go build -mod=vendor`).
#     Use this where the proxy does not serve the pinned pseudo-version, or on a machine without a proxy.
#
# Why pseudo-versions: Fabric's module path has no /v2 or /v3 suffix, so `@v3.1.5` is rejected by Go's
# major-version rule. Each release commit is addressed by the pseudo-version Go derives from the newest
# v1 ancestor tag (v1.4.0-rc1) plus the commit time and hash (see docs/notes: fabric-runtime.md, A2).
set -euo pipefail

VERSION="${1:-3.1.5}"
VERSION="${VERSION#v}"

case "$VERSION" in
  3.1.5) PSEUDO="v1.4.0-rc1.0.20260618074816-86c1172bec37" ;;
  3.1.4) PSEUDO="v1.4.0-rc1.0.20260223074757-57f91e9b60bc" ;;
  3.1.0) PSEUDO="v1.4.0-rc1.0.20250318174348-8f08391d840c" ;;
  3.0.0) PSEUDO="v1.4.0-rc1.0.20240918034325-94590aa4332b" ;;
  2.5.16) PSEUDO="v1.4.0-rc1.0.20260617221605-f871cf92a026" ;;
  2.5.15) PSEUDO="v1.4.0-rc1.0.20260223074129-83c7930b3ea7" ;;
  2.5.14) PSEUDO="v1.4.0-rc1.0.20251012211716-24767bad4dda" ;;
  2.5.13) PSEUDO="v1.4.0-rc1.0.20250429034740-0fcc97e57d34" ;;
  2.5.10) PSEUDO="v1.4.0-rc1.0.20240920064138-1a81040fedf7" ;;
  *)
    echo "error: unknown Fabric version '$VERSION'." >&2
    echo "       known: 3.1.5 3.1.4 3.1.0 3.0.0 2.5.16 2.5.15 2.5.14 2.5.13 2.5.10" >&2
    echo "       (add its pseudo-version here: v1.4.0-rc1.0.<UTC commit time>-<12-hex commit>)" >&2
    exit 2
    ;;
esac
COMMIT="${PSEUDO##*-}"

MODULE="github.com/hyperledger/fabric"
BINARIES=(peer orderer osnadmin configtxlator configtxgen)
CACHE_ROOT="${CHAINLAUNCH_FABRIC_CACHE:-$HOME/.cache/chainlaunch/fabric}"
DEST="$CACHE_ROOT/$VERSION/bin"

is_built() {
  local b
  for b in "${BINARIES[@]}"; do
    [ -x "$DEST/$b" ] || return 1
  done
  "$DEST/peer" version 2>/dev/null | grep -Eq "^[[:space:]]*Version: ${VERSION//./\\.}\$"
}

if [ "${FABRIC_BUILD_FORCE:-0}" != "1" ] && is_built; then
  echo "fabric $VERSION: already built in $DEST"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "error: 'go' not found on PATH. Fabric $VERSION needs Go >= 1.26.4 (https://go.dev/dl/)." >&2
  exit 1
fi

mkdir -p "$CACHE_ROOT/$VERSION"
# One build per version at a time (make test and a developer may race).
exec 9>"$CACHE_ROOT/$VERSION/.build.lock"
if ! flock -n 9; then
  echo "fabric $VERSION: another build holds $CACHE_ROOT/$VERSION/.build.lock; waiting..."
  flock 9
  if [ "${FABRIC_BUILD_FORCE:-0}" != "1" ] && is_built; then
    echo "fabric $VERSION: already built in $DEST"
    exit 0
  fi
fi

# Build into a scratch dir, then move into place, so a failed build never leaves a half-filled bin/.
STAGE="$CACHE_ROOT/$VERSION/bin.tmp.$$"
rm -rf "$STAGE"
mkdir -p "$STAGE"
trap 'rm -rf "$STAGE"' EXIT

LDFLAGS="-X $MODULE/common/metadata.Version=$VERSION -X $MODULE/common/metadata.CommitSHA=$COMMIT"
start=$(date +%s)
# cgo is not needed (it only enables Go-plugin handler .so loading); CGO_ENABLED=0 gives static binaries.
export CGO_ENABLED="${CGO_ENABLED:-0}"
NICE=(nice -n "${FABRIC_BUILD_NICE:-10}")

if [ -n "${FABRIC_SRC:-}" ]; then
  if ! git -C "$FABRIC_SRC" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    echo "error: FABRIC_SRC=$FABRIC_SRC is not a git clone of Fabric holding commit $COMMIT (v$VERSION)." >&2
    echo "       Update it (git -C \"\$FABRIC_SRC\" fetch --tags) or unset FABRIC_SRC to use the Go module proxy." >&2
    exit 1
  fi
  SRC="$CACHE_ROOT/$VERSION/src.tmp.$$"
  trap 'rm -rf "$STAGE" "$SRC"' EXIT
  mkdir -p "$SRC"
  echo "fabric $VERSION: building ${BINARIES[*]} from $FABRIC_SRC @ $COMMIT with vendored modules (about 2 min on 2 cores)"
  git -C "$FABRIC_SRC" archive --format=tar "$COMMIT" | tar -x -C "$SRC"
  PKGDIRS=()
  for b in "${BINARIES[@]}"; do PKGDIRS+=("./cmd/$b"); done
  if ! (cd "$SRC" && GOFLAGS="-mod=vendor -buildvcs=false" GOPROXY=off GOTOOLCHAIN=local \
    "${NICE[@]}" go build -trimpath -ldflags "$LDFLAGS" -o "$STAGE/" "${PKGDIRS[@]}"); then
    echo "error: go build failed for Fabric $VERSION from $FABRIC_SRC (needs Go >= 1.26.4; found $(go env GOVERSION))." >&2
    exit 1
  fi
else
  # A scratch module that requires Fabric at the pseudo-version, then `go build` of the commands.
  # Same result as `go install <pkg>@<version>`, but it does not ask the proxy for the module's
  # version list (go install does, to report deprecation), which filtering proxies refuse.
  MOD="$CACHE_ROOT/$VERSION/mod.tmp.$$"
  trap 'rm -rf "$STAGE" "$MOD"' EXIT
  mkdir -p "$MOD"
  printf 'module chainlaunch.local/fabricbuild\n\ngo %s\n\nrequire %s %s\n' \
    "$(go env GOVERSION | sed -E 's/^go([0-9]+\.[0-9]+(\.[0-9]+)?).*/\1/')" "$MODULE" "$PSEUDO" >"$MOD/go.mod"
  {
    printf '//go:build tools\n\npackage tools\n\nimport (\n'
    for b in "${BINARIES[@]}"; do printf '\t_ "%s/cmd/%s"\n' "$MODULE" "$b"; done
    printf ')\n'
  } >"$MOD/tools.go"
  PKGS=()
  for b in "${BINARIES[@]}"; do PKGS+=("$MODULE/cmd/$b"); done
  echo "fabric $VERSION: go build ${BINARIES[*]} @ $PSEUDO from the Go module proxy (downloads modules, then compiles: a few minutes on 2 cores)"
  if ! (cd "$MOD" && GOFLAGS="-mod=mod -buildvcs=false" go mod tidy &&
    GOFLAGS="-mod=mod -buildvcs=false" "${NICE[@]}" go build -trimpath -ldflags "$LDFLAGS" -o "$STAGE/" "${PKGS[@]}"); then
    echo "error: building Fabric $VERSION ($PSEUDO) through the Go module proxy failed." >&2
    echo "       Check that the proxy serves this version (go env GOPROXY: $(go env GOPROXY))" >&2
    echo "       and that Go is >= 1.26.4 (found: $(go env GOVERSION))." >&2
    echo "       Without the proxy: clone https://github.com/hyperledger/fabric and rerun with FABRIC_SRC=<clone>," >&2
    echo "       or unpack the official release tarball's bin/ into $DEST." >&2
    exit 1
  fi
fi

for b in "${BINARIES[@]}"; do
  if [ ! -x "$STAGE/$b" ]; then
    echo "error: the build finished but $b is missing from $STAGE" >&2
    exit 1
  fi
done
mkdir -p "$DEST"
for b in "${BINARIES[@]}"; do mv -f "$STAGE/$b" "$DEST/$b"; done

if ! is_built; then
  echo "error: built binaries in $DEST, but 'peer version' does not report $VERSION:" >&2
  "$DEST/peer" version >&2 || true
  exit 1
fi
echo "fabric $VERSION: built ${BINARIES[*]} into $DEST in $(($(date +%s) - start))s"
"$DEST/peer" version
