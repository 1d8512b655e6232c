#!/usr/bin/env bash
# A Docker engine of our own, on its own socket, that leaves the host's network alone.
#
#   scripts/docker-daemon.sh start DIR   starts dockerd with every path under DIR; prints DOCKER_HOST
#   scripts/docker-daemon.sh stop DIR    stops it by the pid in DIR/docker.pid, and what it leaves behind
#   scripts/docker-daemon.sh install     installs docker.io and docker-compose with apt when missing
#
# DOCKERD_EXTRA_ARGS adds flags (e.g. another -H tcp://127.0.0.1:PORT with --tlsverify and its files).
#
# Why these flags (docs/docker.md): a plain dockerd flips the FORWARD policy to DROP, turns on
# ip_forward and leaves docker0 behind. With --bridge=none a container has a network only when it
# joins a user-defined one, which is what the console makes.
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"

install() {
  if command -v dockerd >/dev/null && command -v docker-compose >/dev/null; then return 0; fi
  if ! command -v apt-get >/dev/null; then
    echo "docker-daemon: dockerd is missing and there is no apt-get to install docker.io" >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "docker-daemon: installing docker.io and docker-compose (apt)" >&2
  $sudo apt-get install -y --no-install-recommends docker.io docker-compose >&2 ||
    { $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends docker.io docker-compose >&2; }
}

start() {
  [ -n "$dir" ] || { echo "usage: $0 start DIR" >&2; exit 2; }
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  local sock="$dir/docker.sock"
  if [ -f "$dir/docker.pid" ] && kill -0 "$(cat "$dir/docker.pid")" 2>/dev/null; then
    echo "unix://$sock"
    return 0
  fi
  command -v dockerd >/dev/null || { echo "docker-daemon: no dockerd on the PATH (run: $0 install)" >&2; exit 1; }
  setsid dockerd --iptables=false --ip-forward=false --bridge=none \
    --data-root "$dir/data" --exec-root "$dir/exec" \
    -H "unix://$sock" --pidfile "$dir/docker.pid" ${DOCKERD_EXTRA_ARGS:-} >"$dir/dockerd.log" 2>&1 </dev/null &
  for _ in $(seq 1 150); do
    if [ -S "$sock" ] && curl -s --max-time 2 --unix-socket "$sock" http://d/_ping 2>/dev/null | grep -q OK; then
      echo "unix://$sock"
      return 0
    fi
    sleep 0.2
  done
  echo "docker-daemon: dockerd did not answer on $sock within 30 s; its log:" >&2
  tail -20 "$dir/dockerd.log" >&2
  exit 1
}

stop() {
  [ -n "$dir" ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
  local pidfile="$dir/docker.pid"
  # The bridges of its networks (br-<first 12 of the id>) stay on the host after dockerd exits:
  # note them while it still answers, and delete them after.
  local bridges=""
  if [ -S "$dir/docker.sock" ]; then
    bridges="$(curl -s --max-time 5 --unix-socket "$dir/docker.sock" http://d/networks 2>/dev/null |
      grep -o '"Id":"[0-9a-f]\{12\}' | sed 's/"Id":"/br-/' || true)"
  fi
  if [ -f "$pidfile" ]; then
    local pid
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
  fi
  for b in $bridges; do
    ip link delete "$b" 2>/dev/null || true
  done
  # dockerd leaves its network namespace mounted under the exec root.
  if [ -d "$dir/exec" ]; then
    { grep -o " $dir/exec[^ ]*" /proc/mounts 2>/dev/null || true; } | sort -r | while read -r m; do umount "$m" 2>/dev/null || true; done
  fi
}

case "$cmd" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
