#!/bin/sh
# Creates or upgrades Temporal's schema in its two PostgreSQL databases (run by the
# temporal-schema job in docker-compose.yml, image temporalio/admin-tools).
# Safe on every start: `setup-schema -v 0.0` leaves an initialised database alone, and
# `update-schema` applies only the versions newer than the one recorded, which is also how a
# newer temporalio/server tag gets its schema upgrades.
# The databases and the role are created by deploy/postgres-init/10-temporal.sh.
# Env: SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD (temporal-sql-tool reads the password from it).
set -eu

SCHEMA_DIR=/etc/temporal/schema/postgresql/v12

tries=0
until nc -z -w 5 "$SQL_HOST" "$SQL_PORT"; do
  tries=$((tries + 1))
  if [ "$tries" -ge 60 ]; then
    echo "PostgreSQL at $SQL_HOST:$SQL_PORT is not reachable" >&2
    exit 1
  fi
  sleep 2
done

for pair in temporal:temporal temporal_visibility:visibility; do
  db=${pair%%:*}
  dir=${pair#*:}
  echo "Temporal schema: $db"
  temporal-sql-tool --plugin postgres12 --ep "$SQL_HOST" -p "$SQL_PORT" -u "$SQL_USER" --db "$db" \
    setup-schema -v 0.0
  temporal-sql-tool --plugin postgres12 --ep "$SQL_HOST" -p "$SQL_PORT" -u "$SQL_USER" --db "$db" \
    update-schema -d "$SCHEMA_DIR/$dir/versioned"
done
echo "Temporal schema is up to date"
