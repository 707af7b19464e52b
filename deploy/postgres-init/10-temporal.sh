#!/bin/bash
# Runs once, when the postgres container initialises an empty data volume (the image's
# /docker-entrypoint-initdb.d hook). POSTGRES_USER/POSTGRES_DB already created the
# application's role and database (switchboard); this adds Temporal's own role and its two
# databases, so Temporal's tables never share a database or a role with the app's.
set -euo pipefail

: "${TEMPORAL_DB_PASSWORD:?TEMPORAL_DB_PASSWORD must be set for the postgres service}"

# The password goes in as a psql variable (:'temporal_password' quotes it as a literal),
# never spliced into the SQL text by the shell.
psql -v ON_ERROR_STOP=1 \
  --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v temporal_password="$TEMPORAL_DB_PASSWORD" <<'SQL'
CREATE ROLE temporal LOGIN PASSWORD :'temporal_password';
CREATE DATABASE temporal OWNER temporal;
CREATE DATABASE temporal_visibility OWNER temporal;
SQL
