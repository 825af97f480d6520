#!/usr/bin/env bash
# What `pnpm test` needs besides node_modules, made ready on a fresh machine (Debian, root):
# PostgreSQL on 127.0.0.1:5432 with a database `test`, Debian's Chromium for the dashboard's
# end-to-end test, and SoftHSM2 for the PKCS#11 vault. Quick when all are there; run by `pnpm test` first.
set -euo pipefail

# @agentwallet/postgres tests need PostgreSQL at 127.0.0.1:5432 (trust auth, database `test`, or
# AGENTWALLET_TEST_PG_URL); they fail rather than skip without it, so start (or install) it here.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if [ ! -d /etc/postgresql ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    pg_version="$(ls /etc/postgresql | sort -V | tail -1)"
    # A fresh cluster asks for passwords on TCP; the throwaway CI database trusts localhost.
    sed -i -E 's#^(host\s+all\s+all\s+(127\.0\.0\.1/32|::1/128)\s+)\S+#\1trust#' \
      "/etc/postgresql/${pg_version}/main/pg_hba.conf"
  fi
  pg_version="$(ls /etc/postgresql | sort -V | tail -1)"
  pg_ctlcluster --skip-systemctl-redirect "$pg_version" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  psql -h 127.0.0.1 -U postgres -d test -c 'select 1' >/dev/null 2>&1 ||
    runuser -u postgres -- createdb test || true
fi

# The dashboard's end-to-end test drives Debian's Chromium with playwright-core (no browser download).
command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# @agentwallet/vault-pkcs11's tests make SoftHSM2 tokens in temp dirs (test/helpers/softHsmToken.ts).
command -v softhsm2-util >/dev/null || (apt-get update && apt-get install -y softhsm2)
