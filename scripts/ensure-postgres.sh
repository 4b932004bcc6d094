#!/usr/bin/env bash
# Run before `npm test` (the `pretest` script): the store contract suites and the replica tests run
# on a real PostgreSQL, a throwaway cluster the test setup starts with Debian's initdb/pg_ctl
# (test/support/postgres.ts). On a fresh Debian machine as root this installs it (postgresql, ~20 s);
# elsewhere it says what to install. Does nothing when initdb is already there, or when DATABASE_URL
# names a server to use instead.
set -euo pipefail
case "${DATABASE_URL:-}" in postgres://* | postgresql://*) exit 0 ;; esac
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing postgresql for the store and replica tests (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql postgresql-contrib >/dev/null
  exit 0
fi
echo "pretest: the store and replica tests need PostgreSQL; install it with: sudo apt-get install postgresql" >&2
echo "         (or set DATABASE_URL=postgres://user@host:port/db to use a server you run)" >&2
exit 1
