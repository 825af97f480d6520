#!/usr/bin/env bash
# `pnpm test:loaded`: the whole test suite (`pnpm test`) beside CPU-bound processes, as on a busy CI
# machine, so a test that passes only on an idle machine shows up here rather than in a landing.
#   BURNERS  CPU-bound node processes beside the suite (default 6, three per core of a 2-core machine)
#   RUNS     how many consecutive runs of the suite (default 1); stops at the first failing run
set -euo pipefail
cd "$(dirname "$0")/.."

burners="${BURNERS:-6}"
runs="${RUNS:-1}"
pids=()
stop_burners() { [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop_burners EXIT INT TERM

for _ in $(seq 1 "$burners"); do
  node -e 'for (;;) {}' &
  pids+=("$!")
done
echo "test:loaded: ${burners} CPU burners beside the suite on $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"

for run in $(seq 1 "$runs"); do
  started=$SECONDS
  pnpm test
  echo "test:loaded: run ${run}/${runs} passed in $((SECONDS - started)) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
done
