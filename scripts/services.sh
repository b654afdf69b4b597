#!/usr/bin/env bash
# Installs and starts what the tests need, using services that are already running.
#   scripts/services.sh packages   fio, chromium, redis-server, postgresql (apt-get when missing)
#   scripts/services.sh postgres   a PostgreSQL on 127.0.0.1:5432 with role/password storbench
#   scripts/services.sh redis      a Redis on 127.0.0.1:6379
set -euo pipefail

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    say "apt-get update"
    as_root apt-get update -qq
    apt_updated=1
  fi
  say "installing $*"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

need_packages() {
  local missing=()
  for pair in "$@"; do
    local cmd=${pair%%:*} pkg=${pair##*:}
    command -v "$cmd" >/dev/null 2>&1 || [ -x "$cmd" ] || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

packages() {
  need_packages fio:fio /usr/bin/chromium:chromium redis-server:redis-server \
    /usr/bin/pg_ctlcluster:postgresql ip:iproute2
}

postgres() {
  if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    need_packages /usr/bin/pg_ctlcluster:postgresql
    local version
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$version main$"; then
      say "creating PostgreSQL $version cluster"
      as_root pg_createcluster "$version" main >/dev/null
    fi
    say "starting PostgreSQL $version"
    as_root pg_ctlcluster "$version" main start || true
    for _ in $(seq 1 60); do
      pg_isready -q -h 127.0.0.1 -p 5432 && break
      sleep 0.5
    done
    pg_isready -h 127.0.0.1 -p 5432 >/dev/null || { echo "PostgreSQL did not start" >&2; exit 1; }
  fi
  if ! PGPASSWORD=storbench psql -h 127.0.0.1 -U storbench -d postgres -Atqc 'select 1' >/dev/null 2>&1; then
    say "creating PostgreSQL role storbench"
    as_root su postgres -c "psql -q -v ON_ERROR_STOP=1 -d postgres" <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'storbench') THEN
    CREATE ROLE storbench LOGIN PASSWORD 'storbench' CREATEDB;
  ELSE
    ALTER ROLE storbench LOGIN PASSWORD 'storbench' CREATEDB;
  END IF;
END $$;
SQL
  fi
}

redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then return; fi
  need_packages redis-server:redis-server
  say "starting Redis on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
    --logfile /tmp/storbench-redis.log >/dev/null
  for _ in $(seq 1 50); do
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return
    sleep 0.2
  done
  echo "Redis did not start" >&2
  exit 1
}

for step in "$@"; do "$step"; done
