#!/usr/bin/env bash
# The stand-in PostgreSQL's entry point: what the official image does with what compose.yaml uses
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA; runs as postgres; listens on all addresses).
set -euo pipefail
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups bash "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD falta}" >"$pwfile"
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pwfile" --auth=scram-sha-256 --auth-local=trust >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  db=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb -U "${POSTGRES_USER:-postgres}" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec "$@"
