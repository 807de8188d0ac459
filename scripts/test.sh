#!/usr/bin/env bash
# npm test: provision the local servers, build, run the tiers (`npm run lint` type-checks the tests).
#   bash scripts/test.sh [all|unit|integration|e2e|bench]
# all = unit, integration and e2e; bench (npm run bench:smoke) runs every bench in its short mode.
# Exits non-zero when anything fails; the last line is "N passed, N failed".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
tier="${1:-all}"

case "$tier" in
  all) projects=(unit integration e2e) ;;
  unit|integration|e2e|bench) projects=("$tier") ;;
  *) echo "usage: scripts/test.sh [all|unit|integration|e2e|bench]" >&2; exit 2 ;;
esac

if [[ "$tier" != unit ]]; then
  bash scripts/infra.sh up
  # the services read these; the tests use the same servers
  export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
  export RABBITMQ_URL="${RABBITMQ_URL:-amqp://127.0.0.1:5672}"
  export MONGODB_URL="${MONGODB_URL:-mongodb://127.0.0.1:27017/relay}"
fi
if [[ "$tier" == all || "$tier" == e2e || "$tier" == bench ]]; then
  # the chaos suite (test/e2e/chaos) and the outputs bench (Mosquitto, nats-server) run private
  # servers of their own: the programs must be here
  bash scripts/infra.sh tools
fi

if [[ " ${projects[*]} " == *" unit "* ]]; then
  # the kustomize the Kubernetes manifest tests render with (test/unit/deploy/k8s-render.ts),
  # and the helm the chart's tests render with (test/unit/deploy/helm.test.ts)
  bash scripts/k8s-tools.sh >/dev/null
  bash scripts/helm-tool.sh >/dev/null
fi

echo "test: building (tsc -b, the dashboard)"
npx tsc -b
# the dashboard's browser tests load the built pages from the management API
npm run --silent build:dashboard

reports=()
status=0
# Three workers, one shared stack each for its end-to-end files: most end-to-end time is waiting
# on services, so a third keeps the 2 cores busier (main phase 555 s against 650 s with two).
report="$(mktemp)"; reports+=("$report")
# the files that run after the others (below): two side by side, then one alone
beside=(test/e2e/chaos/chaos.test.ts test/e2e/cluster-redis.test.ts)
alone=(test/e2e/cluster-rabbitmq.test.ts)
after=("${beside[@]}" "${alone[@]}")
npx jest --selectProjects "${projects[@]}" --maxWorkers=3 --testPathIgnorePatterns /node_modules/ "${after[@]/#//}" \
  --json --outputFile="$report" || status=$?
if [[ " ${projects[*]} " == *" e2e "* ]]; then
  # The chaos suite's stream and the two cluster files run last: each loads the machine (private
  # servers, a three- or six-node cluster) and bounds how soon an outage is answered, which files
  # beside it would stretch and which would slow the files beside it. The stream and the Redis
  # cluster (a light stream, bounds of 5 and 10 s) run side by side; the RabbitMQ cluster, whose
  # gateway must fail over within 10 s, runs alone. The chaos suite's activity-writers file
  # bounds nothing tighter than a minute: it runs with the rest.
  report="$(mktemp)"; reports+=("$report")
  npx jest --selectProjects e2e --maxWorkers=2 --json --outputFile="$report" -- "${beside[@]}" || status=$?
  report="$(mktemp)"; reports+=("$report")
  npx jest --selectProjects e2e --maxWorkers=1 --json --outputFile="$report" -- "${alone[@]}" || status=$?
fi
node -e '
  const fs = require("node:fs");
  const rs = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const sum = (k) => rs.reduce((n, r) => n + r[k], 0);
  // the failures again, one line each, so that the last lines of a long log name them all
  for (const r of rs)
    for (const file of r.testResults) {
      const name = file.name.replace(process.cwd() + "/", "");
      if (file.status === "failed" && file.assertionResults.length === 0) console.log(`failed: ${name}: ${file.message.split("\n").find((l) => l.trim()) ?? ""}`);
      for (const t of file.assertionResults)
        if (t.status === "failed") {
          console.log(`failed: ${name} › ${t.fullName}`);
          // and why: the first lines of its message, since the log above may be cut
          const why = (t.failureMessages[0] ?? "").replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((l) => l.trim());
          for (const l of why.slice(0, 4)) console.log(`    ${l.trim()}`);
        }
    }
  console.log(`${sum("numPassedTests")} passed, ${sum("numFailedTests") + sum("numRuntimeErrorTestSuites")} failed`);
  if (rs.some((r) => r.numTotalTests === 0)) process.exitCode = 1;
' "${reports[@]}" || status=1
rm -f "${reports[@]}"
exit "$status"
