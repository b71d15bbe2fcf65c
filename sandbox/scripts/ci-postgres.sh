#!/usr/bin/env bash
# A local PostgreSQL for the sandbox's PostgreSQL tests (sandbox/test/postgres/), without a
# container runtime: installs Debian's `postgresql` package only if it is missing, starts the
# cluster if it is not running, creates the role and the database if they do not exist, and
# prints the connection string on stdout (everything else goes to stderr). Idempotent; run as
# root (CI runs as root). Usage:
#
#   export SANDBOX_TEST_POSTGRES_URL="$(bash sandbox/scripts/ci-postgres.sh)"
#
# Environment: SANDBOX_PG_ROLE (default sandbox), SANDBOX_PG_PASSWORD (default sandbox),
# SANDBOX_PG_DB (default sandbox_test).
set -euo pipefail
ROLE="${SANDBOX_PG_ROLE:-sandbox}"
PASSWORD="${SANDBOX_PG_PASSWORD:-sandbox}"
DB="${SANDBOX_PG_DB:-sandbox_test}"

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

# The first cluster Debian made (e.g. "15 main").
read -r VERSION CLUSTER PORT STATUS _ < <(pg_lsclusters -h | head -n 1)
if [ "$STATUS" != "online" ]; then
  pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi
for _ in $(seq 1 50); do
  su postgres -c "psql -p $PORT -qtAc 'SELECT 1'" >/dev/null 2>&1 && break
  sleep 0.2
done

psql_admin() { su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -qtA $*"; }
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'\"")" != "1" ]; then
  psql_admin "-c \"CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD' CREATEDB\"" >&2
fi
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"")" != "1" ]; then
  psql_admin "-c \"CREATE DATABASE $DB OWNER $ROLE\"" >&2
fi

echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
