#!/usr/bin/env bash
# npm start: provision the local servers if needed, build, and run every service as its own
# process (plus a demo receiver), then print the ingest URL, a demo endpoint and an API key.
# Ctrl-C stops everything this script started. Logs: .infra/logs/<service>.log
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/infra.sh up
echo "start: building"
npx tsc -b
npm run --silent build:dashboard

mkdir -p .infra/logs
# Target secrets are sealed with SECRETS_KEYS; a local key is made once and kept (git-ignored).
if [[ ! -f .infra/secrets.env ]]; then
  echo "SECRETS_KEYS=local1:$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')" > .infra/secrets.env
  chmod 600 .infra/secrets.env
fi
set -a
# shellcheck disable=SC1091
source .infra/secrets.env
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
RABBITMQ_URL="${RABBITMQ_URL:-amqp://127.0.0.1:5672}"
MONGODB_URL="${MONGODB_URL:-mongodb://127.0.0.1:27017/relay}"
GATEWAY_PORT="${GATEWAY_PORT:-8080}"
# the gateway's /healthz, /readyz and /metrics: never on the public ingest port
GATEWAY_HEALTH_PORT="${GATEWAY_HEALTH_PORT:-8090}"
PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:$GATEWAY_PORT}"
# The demo receiver runs on loopback, which the SSRF guard refuses unless allowed. Local only.
SSRF_ALLOW_CIDRS="${SSRF_ALLOW_CIDRS:-127.0.0.0/8}"
HOST=127.0.0.1
set +a

pids=()
cleanup() {
  trap - EXIT INT TERM
  echo "start: stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

run() { # run NAME ENV... -- CMD...
  local name="$1"; shift
  local envs=()
  while [[ "$1" != "--" ]]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" "$@" >> ".infra/logs/$name.log" 2>&1 &
  pids+=("$!")
}

ready() { # ready NAME URL
  for _ in $(seq 1 150); do
    if node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$2"; then return 0; fi
    sleep 0.2
  done
  echo "start: $1 did not become ready; see .infra/logs/$1.log" >&2
  tail -n 20 ".infra/logs/$1.log" >&2
  exit 1
}

run demo-receiver DEMO_RECEIVER_PORT=8099 -- node scripts/demo-receiver.js
# a local SMTP server for email targets: STARTTLS + AUTH relay/relay-local on 127.0.0.1:2525
run mail-catcher MAIL_CATCHER_SMTP_PORT=2525 MAIL_CATCHER_WEB_PORT=8098 MAIL_CATCHER_DIR="$ROOT/.infra/mail" -- node scripts/mail-catcher.js
# the outputs deliverer reads the catcher's certificate at start, so the catcher comes first
ready mail-catcher http://127.0.0.1:8098/
run management-api PORT=8081 HEALTH_PORT=8094 GATEWAY_INTERNAL_URL="http://127.0.0.1:$GATEWAY_HEALTH_PORT" -- node services/management-api/dist/main.js
run ingest-gateway PORT="$GATEWAY_PORT" HEALTH_PORT="$GATEWAY_HEALTH_PORT" -- node services/ingest-gateway/dist/main.js
# one deliverer program, one process per channel (docs/architecture.md "Deliverers")
run webhook-deliverer DELIVERY_CHANNEL=webhook HEALTH_PORT=8091 -- node services/deliverer/dist/main.js
run chat-deliverer DELIVERY_CHANNEL=chat HEALTH_PORT=8092 -- node services/deliverer/dist/main.js
# the outputs channel: email targets through the operator's mail relay when any SMTP_* names one,
# else the local mail catcher; spreadsheet targets to Google
mapfile -d '' smtp_env < <(bash scripts/smtp-env.sh "$ROOT")
if [[ ${#smtp_env[@]} -eq 0 ]]; then
  mail_via="your mail relay   ${SMTP_HOST:-(SMTP_HOST not set)}:${SMTP_PORT:-587}, from your SMTP_* settings"
else
  mail_via="email targets     through the mail catcher below (set SMTP_HOST etc. to use your own relay)"
fi
run outputs-deliverer DELIVERY_CHANNEL=outputs HEALTH_PORT=8095 "${smtp_env[@]}" -- node services/deliverer/dist/main.js
run activity-writer HEALTH_PORT=8093 -- node services/activity-writer/dist/main.js
ready management-api http://127.0.0.1:8081/readyz
ready ingest-gateway "http://127.0.0.1:$GATEWAY_HEALTH_PORT/readyz"
ready webhook-deliverer http://127.0.0.1:8091/readyz
ready chat-deliverer http://127.0.0.1:8092/readyz
ready outputs-deliverer http://127.0.0.1:8095/readyz
ready activity-writer http://127.0.0.1:8093/readyz

demo="$(node services/management-api/dist/bootstrap.js --account 'Local demo' --demo-target-url http://127.0.0.1:8099/hook)"
field() { node -e 'process.stdout.write(String(JSON.parse(process.argv[1])[process.argv[2]]))' "$demo" "$1"; }
cat <<MSG

Relay is running (logs in .infra/logs/).
  ingest base URL   $PUBLIC_BASE_URL/relay/<endpoint_id>
  management API    http://127.0.0.1:8081/v1   (Authorization: Bearer <api key>)
  dashboard         http://127.0.0.1:8081/     (sign in with the API key below)
  demo endpoint     $(field endpoint_id)  →  webhook target http://127.0.0.1:8099/hook
  API key           $(field api_key)   (shown once)
  $mail_via
  mail catcher      smtp://127.0.0.1:2525 (STARTTLS, user relay / relay-local); caught mail at
                    http://127.0.0.1:8098/ and as .eml files in .infra/mail/

Try it:
  curl -i -X POST '$(field ingest_url)' -H 'content-type: application/json' -d '{"hello":"relay"}'
  tail -f .infra/logs/demo-receiver.log
  # an email target on the demo endpoint; then send the event again and open http://127.0.0.1:8098/
  curl -s -X POST -H 'authorization: Bearer $(field api_key)' -H 'content-type: application/json' \\
    http://127.0.0.1:8081/v1/endpoints/$(field endpoint_id)/targets \\
    -d '{"kind":"email","name":"demo mail","config":{"to":["you@example.com"],"subject":"Relay: {{hello}}"}}'
  curl -s -H 'authorization: Bearer $(field api_key)' http://127.0.0.1:8081/v1/activity

Ctrl-C stops every service.
MSG
wait
