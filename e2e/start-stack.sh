#!/usr/bin/env bash
# The whole stack for the end-to-end tests: a fresh PostgreSQL database, Redis, the API serving
# the built SPA, and a local worker — started the way `make up` starts it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${E2E_DATA_DIR:?}" "${E2E_PORT:?}"
# Several stacks may run side by side (one per developer): E2E_DB, E2E_PORT (and with E2E_REMOTE=0,
# E2E_REDIS_DB) keep them apart.
db=${E2E_DB:-storbench_e2e}
redis_db=${E2E_REDIS_DB:-13}
export PGPASSWORD=storbench
dropdb -h 127.0.0.1 -U storbench --if-exists --force "$db"
createdb -h 127.0.0.1 -U storbench "$db"
rm -rf "$E2E_DATA_DIR"
mkdir -p "$E2E_DATA_DIR/scratch/e2e-target"
export STORBENCH_DATABASE_URL=postgresql+psycopg://storbench:storbench@127.0.0.1:5432/$db
if [ "${E2E_REMOTE:-1}" = 0 ]; then
  redis-cli -h 127.0.0.1 -p "${E2E_REDIS_PORT:-6379}" -n "$redis_db" flushdb >/dev/null
  export STORBENCH_BROKER_URL=redis://127.0.0.1:${E2E_REDIS_PORT:-6379}/$redis_db
else
  # The remote mode, as `make up REMOTE=1` runs it: the API listens beyond loopback and a Redis of
  # this stack's own (fresh in E2E_DATA_DIR, one port per stack) is the broker other hosts reach;
  # second-host.spec.ts adds a host through it. E2E_REMOTE=0: the shared Redis, loopback only.
  export STORBENCH_REMOTE=1
  export STORBENCH_REDIS_PORT=${E2E_BROKER_PORT:-$((E2E_PORT + 10000))}
fi
export STORBENCH_DATA_DIR=$E2E_DATA_DIR
export STORBENCH_PORT=$E2E_PORT
export STORBENCH_SECRET_KEY=e2e-secret
export STORBENCH_ADMIN_EMAIL=e2e-admin@example.com
export STORBENCH_ADMIN_PASSWORD=e2e-password
export STORBENCH_HEARTBEAT_INTERVAL=2
exec "$root/.venv/bin/python" "$root/scripts/up.py"
