#!/usr/bin/env bash
# npm run bench: first the whole system as users run it (every service a process, one webhook
# target on a local receiver; accepted/s, delivered/s, ratio to bare express, activity lag), then
# the same system on 1, 10, 100, 500, 1,000 and 10,000 endpoints over 10 accounts from 1,000
# loopback senders in one run (accepted/s beside the single-endpoint phase, p99, activity lag,
# CPU per event per process, store reads per second), then
# the same load on the architecture's floor (express → quorum queue → got, nothing else) and on
# that floor with the least activity log the spec asks (FLOOR_LOG=1), then
# the activity-writer and the activity API with 1,000,000 rows (BENCH_ACTIVITY_ROWS), the activity
# searches (payload, response status, error text) at that size, the
# bulk-retry list's store path with 1,000,000 documents (BENCH_BULK_DOCS), then gateway
# vs bare express (accepted/s, p50/p99, ratio), the cost of inbound verification per family (issue
# 24, in process), then deliveries/s of one webhook-deliverer, and of one outputs deliverer for an
# email and a spreadsheet target (bench/outputs.js), then what routing rules and per-target limits
# cost the whole system (bench/rules.js, issue 25), one event resent 1,000 times (bench/resend.js),
# and the CPU the tracing hooks add per event, off and on (bench/tracing.js, issue 28).
# The soak (bench/soak.js) runs the system at a steady 300 requests/s for 10 minutes to one
# account and to ten, sampling the activity lag, queues, flush times, store CPU and memory.
# Real local Redis, RabbitMQ and FerretDB; everything on loopback.
# Results: bench-results/*.json; record them in docs/benchmarks.md with the machine and command.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/infra.sh up >/dev/null
npx tsc -b
node bench/system.js
# a steady open-loop 300/s for 10 minutes to one account, then to ten: the activity log keeps up
SOAK_ACCOUNTS=1 node bench/soak.js
SOAK_ACCOUNTS=10 node bench/soak.js
node bench/tenants.js
node bench/floor.js
FLOOR_LOG=1 node bench/floor.js
node bench/activity.js
node bench/activity-writers.js
node bench/rules.js
node bench/activity-scopes.js
node bench/activity-search.js
node bench/bulk-retries.js
node bench/gateway.js
node bench/verify-families.js
if [[ -f bench/deliverer.js ]]; then node bench/deliverer.js; fi
node bench/outputs.js
node bench/resend.js
node bench/tracing.js
