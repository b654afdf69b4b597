#!/usr/bin/env bash
# Installs the Debian packages storbench needs when they are missing; quiet when all are there.
#   scripts/bootstrap.sh          what `make up` needs: fio, python3-venv, node/npm
#   scripts/bootstrap.sh remote   and redis-server (make up REMOTE=1)
#   scripts/bootstrap.sh test     and what the tests need: chromium, redis-server, postgresql
set -euo pipefail
missing=()
command -v fio >/dev/null 2>&1 || missing+=(fio)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ "${1:-}" = "remote" ]; then  # make up REMOTE=1: a broker other hosts can reach
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
fi
if [ "${1:-}" = "test" ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  [ -x /usr/bin/pg_ctlcluster ] || missing+=(postgresql)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> installing Debian packages: ${missing[*]}"
  run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  run apt-get update -qq
  DEBIAN_FRONTEND=noninteractive run apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
