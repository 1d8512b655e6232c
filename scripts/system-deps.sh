#!/usr/bin/env bash
# Installs the system packages a tier needs, only when missing. Debian/Ubuntu (apt) as root or via sudo.
#   scripts/system-deps.sh test   -> chromium, postgresql, openssl, build tools for native npm modules
#   scripts/system-deps.sh start  -> build tools for native npm modules
set -euo pipefail
want=()
have() { command -v "$1" >/dev/null 2>&1; }
have make || want+=(make)
have g++ || want+=(g++)
have python3 || want+=(python3)
if [ "${1:-start}" = "test" ]; then
  have chromium || [ -x /usr/bin/chromium ] || want+=(chromium)
  have openssl || want+=(openssl)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || want+=(postgresql)
  fc-list 2>/dev/null | grep -qi liberation || want+=(fonts-liberation)
fi
[ ${#want[@]} -eq 0 ] && exit 0
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
