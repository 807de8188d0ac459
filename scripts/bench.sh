#!/usr/bin/env bash
# npm run bench: every bench of bench/catalog.js, in this order — the whole system beside bare
# express, then alternated with an earlier build (BENCH_BASELINE), a 10-minute soak at a steady 300 requests/s to one account and to ten (with
# BENCH_LONG=1 also the 30-minute and writer-stop soaks of bench/catalog.js), the whole system
# on 1 to 10,000 endpoints, the architecture's floor alone and with the least activity log the
# spec asks, the activity log, writers, searches and bulk-retry list at 1,000,000 rows, the gateway
# alone, inbound verification per family, one webhook and one outputs deliverer, rules and limits
# against the plain case, a quiet account beside one whose rules cost the most, one event resent
# 1,000 times, and the tracing hooks. Real local Redis, RabbitMQ and FerretDB; everything on loopback.
# Raw reports go to a scratch directory; scripts/bench-record.js records them in
# bench/results/<bench>.json (date, machine, command, figures) and scripts/docs.js rewrites
# docs/benchmarks.md from those. Commit both with the change they measure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/infra.sh up >/dev/null
# the outputs bench's private nats-server
bash scripts/infra.sh tools >/dev/null
npx tsc -b
export BENCH_RESULTS_DIR="${BENCH_RESULTS_DIR:-$(mktemp -d /tmp/relay-bench.XXXXXX)}"
node bench/system.js
# the same, alternated with a build of BENCH_BASELINE (default: the last commit)
node bench/system-vs.js
# a steady open-loop 300/s for 10 minutes to one account, then to ten: the activity log keeps up
SOAK_ACCOUNTS=1 node bench/soak.js
SOAK_ACCOUNTS=10 node bench/soak.js
if [[ "${BENCH_LONG:-}" == 1 ]]; then
  # about 90 minutes more: 30 minutes on an empty store and on 1,000,000 rows in the hour, every
  # writer stopped for 10 minutes under load, and one account at the whole-system rate
  SOAK_DURATION_S=1800 SOAK_NAME=soak-30min-1-account node bench/soak.js
  SOAK_DURATION_S=1800 SOAK_PREFILL_ROWS=1000000 SOAK_NAME=soak-30min-1-account-1m-rows node bench/soak.js
  SOAK_DURATION_S=1200 SOAK_PAUSE_WRITERS_AT_S=60 SOAK_PAUSE_WRITERS_S=600 SOAK_NAME=soak-writers-stopped node bench/soak.js
  SOAK_RATE=800 SOAK_WRITERS=4 SOAK_NAME=soak-one-account-4-writers node bench/soak.js
fi
node bench/tenants.js
node bench/floor.js
FLOOR_LOG=1 node bench/floor.js
node bench/activity.js
node bench/activity-writers.js
node bench/rules.js
node bench/hostile-rules.js
node bench/transform.js
node bench/transform-call.js
node bench/transform-isolation.js
node bench/activity-scopes.js
node bench/activity-search.js
node bench/bulk-retries.js
node bench/gateway.js
node bench/verify-families.js
if [[ -f bench/deliverer.js ]]; then node bench/deliverer.js; fi
node bench/outputs.js
node bench/resend.js
node bench/tracing.js
node scripts/bench-record.js "$BENCH_RESULTS_DIR"
node scripts/docs.js
