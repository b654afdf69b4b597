#!/bin/sh
# First start: a cluster whose superuser is POSTGRES_USER with POSTGRES_PASSWORD (scram over the network,
# no trust anywhere), and the POSTGRES_DB database. Then PostgreSQL itself, as PID 1.
set -eu
: "${POSTGRES_USER:?set POSTGRES_USER}" "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" "${POSTGRES_DB:?set POSTGRES_DB}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=scram-sha-256 --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  export PGPASSWORD="$POSTGRES_PASSWORD"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  createdb -h /var/run/postgresql -U "$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  unset PGPASSWORD
  echo "initialised $PGDATA with database $POSTGRES_DB"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c max_connections="${POSTGRES_MAX_CONNECTIONS:-200}"
