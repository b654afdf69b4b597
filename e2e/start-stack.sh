#!/usr/bin/env bash
# The whole stack for the end-to-end tests: a fresh PostgreSQL database, Redis, the API serving
# the built SPA, and a local worker — started the way `make up` starts it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${E2E_DATA_DIR:?}" "${E2E_PORT:?}"
# Several stacks may run side by side (one per developer): E2E_DB and E2E_REDIS_DB keep them apart.
db=${E2E_DB:-storbench_e2e}
redis_db=${E2E_REDIS_DB:-13}
export PGPASSWORD=storbench
dropdb -h 127.0.0.1 -U storbench --if-exists --force "$db"
createdb -h 127.0.0.1 -U storbench "$db"
redis-cli -h 127.0.0.1 -p "${E2E_REDIS_PORT:-6379}" -n "$redis_db" flushdb >/dev/null
rm -rf "$E2E_DATA_DIR"
mkdir -p "$E2E_DATA_DIR/scratch/e2e-target"
export STORBENCH_DATABASE_URL=postgresql+psycopg://storbench:storbench@127.0.0.1:5432/$db
export STORBENCH_BROKER_URL=redis://127.0.0.1:${E2E_REDIS_PORT:-6379}/$redis_db
export STORBENCH_DATA_DIR=$E2E_DATA_DIR
export STORBENCH_PORT=$E2E_PORT
export STORBENCH_SECRET_KEY=e2e-secret
export STORBENCH_ADMIN_EMAIL=e2e-admin@example.com
export STORBENCH_ADMIN_PASSWORD=e2e-password
export STORBENCH_HEARTBEAT_INTERVAL=2
exec "$root/.venv/bin/python" "$root/scripts/up.py"
