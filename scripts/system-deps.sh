#!/usr/bin/env bash
# Installs the system packages a tier needs, only when missing. Debian/Ubuntu (apt) as root or via sudo.
#   scripts/system-deps.sh test   -> chromium, postgresql, openssl, build tools for native npm modules
#   scripts/system-deps.sh start  -> build tools for native npm modules, restic (backups), prometheus (metrics)
# The test tier also gets moto_server (S3 for the backup tests) in a venv under ~/.cache/chainlaunch/moto.
set -euo pipefail
want=()
have() { command -v "$1" >/dev/null 2>&1; }
have make || want+=(make)
have g++ || want+=(g++)
have python3 || want+=(python3)
have restic || want+=(restic)
have prometheus || [ -x /usr/bin/prometheus ] || want+=(prometheus)
if [ "${1:-start}" = "test" ]; then
  have chromium || [ -x /usr/bin/chromium ] || want+=(chromium)
  have openssl || want+=(openssl)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || want+=(postgresql)
  fc-list 2>/dev/null | grep -qi liberation || want+=(fonts-liberation)
  have pg_dump || want+=(postgresql-client)
  MOTO_VENV="${HOME}/.cache/chainlaunch/moto"
  if ! have moto_server && [ ! -x "$MOTO_VENV/bin/moto_server" ]; then
    python3 -c "import venv, ensurepip" 2>/dev/null || want+=(python3-venv)
    need_moto=1
  fi
fi
install_moto() {
  [ "${need_moto:-0}" = 1 ] || return 0
  echo "installing moto_server into $MOTO_VENV"
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install -q "moto[server]>=5,<6"
}
if [ ${#want[@]} -eq 0 ]; then
  install_moto
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
