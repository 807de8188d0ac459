#!/usr/bin/env bash
# Local infrastructure for development, tests and CI: Redis, RabbitMQ, and FerretDB (MongoDB wire
# protocol) on PostgreSQL (Debian's package, a cluster of its own on 127.0.0.1:5433), each bound
# to loopback, with data and logs under <repo>/.infra.
#
#   FERRETDB_BACKEND=sqlite RELAY_MONGO_PORT=27018 bash scripts/infra.sh up
#       FerretDB on SQLite instead (no PostgreSQL), here beside the default one: the backends
#       side by side (docs/benchmarks.md "The local store")
#
#   bash scripts/infra.sh up       install/build what is missing, start what is not running, wait
#   bash scripts/infra.sh down     stop what `up` started (nothing else)
#   bash scripts/infra.sh status   state, pid and URL of each server; RabbitMQ queue depths
#   bash scripts/infra.sh tools    install what only the tests use (Chromium, Prometheus, Mosquitto, Jaeger, nats-server,
#                                  ElasticMQ, moto, versitygw, Kafka's jars) and build
#                                  the server programs without starting any: the chaos suite runs
#                                  private instances of them (docs/testing.md)
#
# `up` installs only what the service needs to run (npm start): a newcomer who runs Relay does not
# wait for, or carry, a browser and Prometheus. `npm test` runs `tools` for the e2e tier.
#
# A server whose URL is already set (REDIS_URL, RABBITMQ_URL, MONGODB_URL) is someone else's:
# `up` only waits for it and `down` leaves it alone. Written for a fresh Debian 12 machine run
# as root without systemd (CI), so every install and build step is here.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INFRA="$ROOT/.infra"
WAIT="$ROOT/scripts/infra-wait.js"
WAIT_TIMEOUT="${INFRA_WAIT_TIMEOUT:-120}"

REDIS_PORT=6379
RABBIT_PORT=5672
RABBIT_MGMT_PORT=15672
RABBIT_NODE=relay@localhost
RABBIT_BIN=/usr/lib/rabbitmq/bin
MONGO_PORT="${RELAY_MONGO_PORT:-27017}"
# PostgreSQL is the default, chosen by measuring both on the activity log's workload
# (docs/benchmarks.md "The local store": faster reads, no slow-down at 1,000,000 rows)
FERRETDB_BACKEND="${FERRETDB_BACKEND:-postgresql}"
[[ "$FERRETDB_BACKEND" == sqlite || "$FERRETDB_BACKEND" == postgresql ]] || { echo "infra: FERRETDB_BACKEND must be sqlite or postgresql" >&2; exit 2; }
PG_PORT="${RELAY_POSTGRES_PORT:-5433}"
FERRETDB_VERSION=v1.24.2
FERRETDB="$INFRA/bin/ferretdb"
# Jaeger v2 (the trace backend the tracing e2e test reads spans back from): its Go module is
# tagged v1.x beside each v2 release: module v1.76.0 is Jaeger v2.13.0 (its CHANGELOG.md)
JAEGER_MODULE_VERSION=v1.76.0
JAEGER="$INFRA/bin/jaeger"
# nats-server with JetStream, for the nats_jetstream target's tests (test/e2e/nats-jetstream-delivery.test.ts)
NATS_SERVER_VERSION=v2.15.2
NATS_SERVER="$INFRA/bin/nats-server"
# The SQS target's test servers (docs/testing.md "Queue servers"): ElasticMQ for deliveries and
# outages, moto's server for the signature checks ElasticMQ does not make
ELASTICMQ_VERSION=1.6.14
ELASTICMQ="$INFRA/tools/elasticmq-$ELASTICMQ_VERSION"
MOTO_VERSION=5.2.5
MOTO="$INFRA/tools/moto-$MOTO_VERSION"
# The S3 target's test server: versitygw on its posix backend, which verifies SigV4 signatures
VERSITYGW_VERSION=v1.8.0
VERSITYGW="$INFRA/tools/versitygw-$VERSITYGW_VERSION/versitygw"

LOCAL_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
LOCAL_RABBITMQ_URL="amqp://127.0.0.1:$RABBIT_PORT"
LOCAL_MONGODB_URL="mongodb://127.0.0.1:$MONGO_PORT/relay"

log() { echo "infra: $*"; }
die() { echo "infra: ERROR: $*" >&2; exit 1; }

# --- helpers ---------------------------------------------------------------------------------

# pid_of FILE PATTERN: prints the pid in FILE if that process is alive and its command line
# matches PATTERN (so a stale pid file whose pid was reused is not mistaken for our server).
pid_of() {
  local file="$1" pattern="$2" pid
  [[ -f "$file" ]] || return 1
  pid="$(tr -dc '0-9' < "$file")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$pattern" || return 1
  echo "$pid"
}

# stop_pid PID NAME: SIGTERM, then wait up to 30 s, then SIGKILL.
stop_pid() {
  local pid="$1" name="$2" i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "$name (pid $pid) ignored SIGTERM for 30 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

# answers NAME URL: one handshake attempt (see infra-wait.js); success means a server answers.
answers() {
  case "$1" in
    redis) REDIS_URL="$2" node "$WAIT" --timeout 0 --quiet redis ;;
    rabbitmq) RABBITMQ_URL="$2" node "$WAIT" --timeout 0 --quiet rabbitmq ;;
    mongodb) MONGODB_URL="$2" node "$WAIT" --timeout 0 --quiet mongodb ;;
  esac
}

require_node_modules() {
  [[ -d "$ROOT/node_modules/amqplib" && -d "$ROOT/node_modules/ioredis" && -d "$ROOT/node_modules/mongoose" ]] \
    || die "node_modules is missing amqplib/ioredis/mongoose (used for readiness handshakes); run 'npm ci' first"
}

APT_UPDATED=0
apt_install() {
  if [[ "$APT_UPDATED" == 0 ]]; then
    log "apt-get update"
    apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  # The packages' init scripts would start system-wide servers on the same ports (RabbitMQ on
  # every interface); we run our own on loopback, so keep them from starting, the Debian way.
  local policy=/usr/sbin/policy-rc.d added=0
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && added=1
  fi
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null || rc=$?
  if [[ "$added" == 1 ]]; then rm -f "$policy"; fi
  return "$rc"
}

ensure_packages() {
  local missing=()
  if [[ -z "${REDIS_URL:-}" ]] && ! command -v redis-server >/dev/null; then missing+=(redis-server); fi
  if [[ -z "${RABBITMQ_URL:-}" && ! -x "$RABBIT_BIN/rabbitmq-server" ]]; then missing+=(rabbitmq-server); fi
  if [[ -z "${MONGODB_URL:-}" && "$FERRETDB_BACKEND" == postgresql && -z "$(pg_bin)" ]]; then missing+=(postgresql); fi
  if ((${#missing[@]} > 0)); then apt_install "${missing[@]}"; fi
  return 0
}

# --- Chromium (the dashboard's browser tests) -------------------------------------------------

# The dashboard's end-to-end tests drive Debian's Chromium through playwright-core; no test tool
# may download a browser of its own here. Fonts, so screenshots show text, not boxes.
ensure_chromium() {
  if [[ ! -x /usr/bin/chromium ]]; then apt_install chromium fonts-liberation fonts-dejavu-core; fi
  return 0
}

# --- Prometheus (binaries only) --------------------------------------------------------------

# The observability tests run `promtool check|test rules` on deploy/observability and start a
# Prometheus of their own (temp config and data, a free loopback port, stopped when they end):
# both binaries come from Debian's package, needed whatever servers the URLs name. No system
# Prometheus is ever run: apt_install keeps the package's init script from starting one now, and
# its boot-time start is switched off, so nothing is left listening on :9090.
ensure_prometheus() {
  if command -v promtool >/dev/null && command -v prometheus >/dev/null; then return 0; fi
  apt_install prometheus
  if command -v update-rc.d >/dev/null; then update-rc.d prometheus disable >/dev/null 2>&1 || true; fi
  if command -v deb-systemd-helper >/dev/null; then deb-systemd-helper disable prometheus.service >/dev/null 2>&1 || true; fi
  command -v promtool >/dev/null || die "prometheus installed but promtool is not on PATH"
}

# --- Mosquitto (binaries only) ---------------------------------------------------------------

# The MQTT target's tests start a Mosquitto of their own (temp config, password file and data, a
# free loopback port, stopped when they end). No system Mosquitto is ever left running: apt_install
# keeps the package's init script from starting one, its boot-time start is switched off, and one
# the package's own script did start (a policy-rc.d of someone else's) is stopped.
ensure_mosquitto() {
  if command -v mosquitto >/dev/null && command -v mosquitto_passwd >/dev/null; then return 0; fi
  apt_install mosquitto
  if command -v update-rc.d >/dev/null; then update-rc.d mosquitto disable >/dev/null 2>&1 || true; fi
  if command -v deb-systemd-helper >/dev/null; then deb-systemd-helper disable mosquitto.service >/dev/null 2>&1 || true; fi
  local pid
  if pid="$(pid_of /run/mosquitto/mosquitto.pid mosquitto)"; then stop_pid "$pid" mosquitto; fi
  command -v mosquitto_passwd >/dev/null || die "mosquitto installed but mosquitto_passwd is not on PATH"
}

# --- Apache Kafka (jars only) ---------------------------------------------------------------

# The Kafka target kind's tests and bench/outputs.js start a single-node KRaft broker of their
# own on the JVM (bench/kafka-broker.js). The release tarball is not on a package registry, so
# the broker's jars (kafka_2.13 and its runtime dependencies: kafka-server, -storage, -metadata,
# -raft, Scala's library...) are resolved from Maven Central by a generated pom into
# $KAFKA_LIBS, marked complete by .complete. Run as `java -cp "$KAFKA_LIBS/*"`.
KAFKA_VERSION=4.1.1
KAFKA_DIR="$INFRA/tools/kafka-$KAFKA_VERSION"
KAFKA_LIBS="$KAFKA_DIR/libs"
kafka_assemble() {
  if [[ -f "$KAFKA_LIBS/.complete" ]]; then return; fi
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  command -v mvn >/dev/null || apt_install maven
  log "kafka: resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION and its runtime jars into $KAFKA_LIBS (first time only)"
  local work started=$SECONDS
  mkdir -p "$KAFKA_DIR"
  work="$(mktemp -d "$KAFKA_DIR/assemble.XXXXXX")"
  cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>relay.test</groupId>
  <artifactId>kafka-broker-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>$KAFKA_VERSION</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.8.1</version>
      </plugin>
    </plugins>
  </build>
</project>
POM
  if ! nice -n 19 mvn -B -q -f "$work/pom.xml" -Dmaven.repo.local="$KAFKA_DIR/m2" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$work/libs"; then
    rm -rf "$work"
    die "kafka: could not resolve kafka_2.13:$KAFKA_VERSION from Maven Central"
  fi
  touch "$work/libs/.complete"
  rm -rf "$KAFKA_LIBS"
  mv "$work/libs" "$KAFKA_LIBS"
  # the jars are copied out; Maven's repository is needed only to assemble them again
  rm -rf "$work" "$KAFKA_DIR/m2"
  log "kafka: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars in $((SECONDS - started)) s"
}

# --- Redis -----------------------------------------------------------------------------------

REDIS_DIR="$INFRA/redis"
REDIS_PID="$REDIS_DIR/redis.pid"

redis_up() {
  if [[ -n "${REDIS_URL:-}" ]]; then log "redis: REDIS_URL is set; not starting one"; return; fi
  local pid
  if pid="$(pid_of "$REDIS_PID" redis-server)"; then log "redis: already running (pid $pid)"; return; fi
  if answers redis "$LOCAL_REDIS_URL"; then log "redis: another process answers on port $REDIS_PORT; using it"; return; fi
  mkdir -p "$REDIS_DIR"
  # Append-only file, no RDB snapshots: durable enough for tests, cheap to write.
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --daemonize yes \
    --dir "$REDIS_DIR" --pidfile "$REDIS_PID" --logfile "$REDIS_DIR/redis.log" \
    --save "" --appendonly yes --appendfsync everysec 9>&-
  log "redis: started"
}

redis_down() {
  local pid
  if pid="$(pid_of "$REDIS_PID" redis-server)"; then
    log "redis: stopping (pid $pid)"
    stop_pid "$pid" redis
  else
    log "redis: not running (not started by infra.sh)"
  fi
  rm -f "$REDIS_PID"
}

# --- RabbitMQ --------------------------------------------------------------------------------

RABBIT_DIR="$INFRA/rabbitmq"
RABBIT_PID="$RABBIT_DIR/rabbitmq.pid"

# One environment for rabbitmq-server and rabbitmqctl, so `up`, `down` and `status` talk to the
# same node (scripts/rabbit-env.sh, shared with scripts/cluster.sh). Runs in a subshell only.
# shellcheck source=scripts/rabbit-env.sh
source "$ROOT/scripts/rabbit-env.sh"
rabbit_env() { rabbit_node_env "$RABBIT_DIR" "$RABBIT_DIR" "$RABBIT_NODE" "$RABBIT_PORT" 25672; }

rabbitmqctl_() { (rabbit_env && "$RABBIT_BIN/rabbitmqctl" -n "$RABBIT_NODE" "$@"); }

rabbit_up() {
  if [[ -n "${RABBITMQ_URL:-}" ]]; then log "rabbitmq: RABBITMQ_URL is set; not starting one"; return; fi
  local pid
  if pid="$(pid_of "$RABBIT_PID" rabbit)"; then log "rabbitmq: already running (pid $pid)"; return; fi
  if answers rabbitmq "$LOCAL_RABBITMQ_URL"; then log "rabbitmq: another process answers on port $RABBIT_PORT; using it"; return; fi
  mkdir -p "$RABBIT_DIR/mnesia" "$RABBIT_DIR/log"
  # The management UI/API is for SREs (queue depths, consumers); loopback only.
  echo '[rabbitmq_management].' > "$RABBIT_DIR/enabled_plugins"
  cat > "$RABBIT_DIR/rabbitmq.conf" <<EOF
management.tcp.ip = 127.0.0.1
management.tcp.port = $RABBIT_MGMT_PORT
EOF
  : > "$RABBIT_DIR/rabbitmq-env.conf" # keep /etc/rabbitmq/rabbitmq-env.conf out of our node
  # exec: no shell stays behind waiting for the node (and holding the lock or our stdout).
  (
    rabbit_env
    exec setsid nohup "$RABBIT_BIN/rabbitmq-server"
  ) > "$RABBIT_DIR/out.log" 2>&1 < /dev/null 9>&- &
  log "rabbitmq: starting node $RABBIT_NODE (log: $RABBIT_DIR/out.log)"
}

rabbit_down() {
  local pid
  if pid="$(pid_of "$RABBIT_PID" rabbit)"; then
    log "rabbitmq: stopping (pid $pid)"
    # With the pid file, `stop` returns only once the Erlang VM has exited.
    rabbitmqctl_ stop "$RABBIT_PID" >/dev/null 2>&1 || stop_pid "$pid" rabbitmq
  else
    log "rabbitmq: not running (not started by infra.sh)"
  fi
  rm -f "$RABBIT_PID"
}

# --- FerretDB --------------------------------------------------------------------------------

FERRET_DIR="$INFRA/ferretdb-$FERRETDB_BACKEND"
FERRET_PID="$FERRET_DIR/ferretdb.pid"

# FerretDB has no Debian package, and `go install ...@version` fails behind a Go proxy that
# refuses the deprecation lookup, so: download the module, build it from the module cache.
ferretdb_build() {
  # the output is captured first: with pipefail, `grep -q` closing the pipe early made the
  # version check fail now and then (SIGPIPE, 141) and rebuilt a good binary
  if [[ -x "$FERRETDB" ]] && grep -q "version: $FERRETDB_VERSION\$" <<< "$("$FERRETDB" --version 2>/dev/null || true)"; then return; fi
  # The official Go tarball installs to /usr/local/go, which a non-login shell may not have on PATH.
  command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
  command -v go >/dev/null || die "Go is needed to build FerretDB $FERRETDB_VERSION (no Debian package exists)"
  log "ferretdb: building $FERRETDB_VERSION into $FERRETDB (first time only; about a minute or two)"
  local started=$SECONDS
  ( # subshell, so the EXIT trap removes the scratch directory however the build ends
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    cd "$tmp"
    go mod init fbuild >/dev/null 2>&1
    go mod download "github.com/FerretDB/FerretDB@$FERRETDB_VERSION"
    cp -r "$(go env GOMODCACHE)/github.com/!ferret!d!b/!ferret!d!b@$FERRETDB_VERSION" src
    chmod -R u+w src
    # The module zip lacks build/version/version.txt; without it the binary panics at start.
    echo "$FERRETDB_VERSION" > src/build/version/version.txt
    mkdir -p "$INFRA/bin"
    cd src
    CGO_ENABLED=0 go build -trimpath -buildvcs=false -o "$FERRETDB.tmp" ./cmd/ferretdb
    mv "$FERRETDB.tmp" "$FERRETDB"
  )
  log "ferretdb: built in $((SECONDS - started)) s"
}

# go_module_build NAME MODULE VERSION PACKAGE BIN: builds PACKAGE (a path in the module) of a Go
# module (lower case, as the module cache spells it) from the Go module proxy into BIN, with
# BIN.version beside it, so a warm machine skips the build until the pinned version changes.
# `nice`: the machine's cores are shared.
go_module_build() {
  local name="$1" module="$2" version="$3" package="$4" bin="$5"
  if [[ -x "$bin" && -f "$bin.version" && "$(cat "$bin.version")" == "$version" ]]; then return; fi
  command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
  command -v go >/dev/null || die "Go is needed to build $name $version"
  log "$name: building $module@$version into $bin (first time only)"
  local started=$SECONDS
  (
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    cd "$tmp"
    go mod init modbuild >/dev/null 2>&1
    go mod download "$module@$version"
    cp -r "$(go env GOMODCACHE)/$module@$version" src
    chmod -R u+w src
    mkdir -p "$(dirname "$bin")"
    cd src
    CGO_ENABLED=0 nice -n 19 go build -trimpath -buildvcs=false -o "$bin.tmp" "$package"
    mv "$bin.tmp" "$bin"
    echo "$version" > "$bin.version"
  )
  log "$name: built in $((SECONDS - started)) s"
}

# Jaeger v2 for the tracing test (test/e2e/tracing.test.ts), cached in .infra/bin. A cold build
# (2,327 packages) took ~18 min on 2 busy cores, seconds with Go's build cache warm (docs/observability.md).
jaeger_build() {
  go_module_build jaeger github.com/jaegertracing/jaeger "$JAEGER_MODULE_VERSION" ./cmd/jaeger "$JAEGER"
}

# nats-server for the nats_jetstream target's tests, which start a private one with JetStream on
# a free loopback port (test/support/private-servers.ts); no Debian package. About a minute cold.
nats_server_build() {
  go_module_build nats-server github.com/nats-io/nats-server/v2 "$NATS_SERVER_VERSION" . "$NATS_SERVER"
}

# ElasticMQ, an SQS-compatible server on the JVM, for the SQS target's tests: its jars assembled
# from Maven Central by `mvn dependency:copy-dependencies` from a generated pom, into a folder
# named by the version, finished only once complete (an interrupted run starts again).
elasticmq_install() {
  if [[ -f "$ELASTICMQ/complete" ]]; then return; fi
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  command -v mvn >/dev/null || apt_install maven
  log "elasticmq: assembling $ELASTICMQ_VERSION from Maven Central into $ELASTICMQ"
  (
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    cat > "$tmp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>relay.infra</groupId><artifactId>elasticmq</artifactId><version>1</version>
  <dependencies><dependency>
    <groupId>org.elasticmq</groupId><artifactId>elasticmq-server_2.13</artifactId><version>$ELASTICMQ_VERSION</version>
  </dependency></dependencies>
</project>
POM
    rm -rf "$ELASTICMQ"
    nice -n 19 mvn -q -B -Dstyle.color=never -f "$tmp/pom.xml" dependency:copy-dependencies -DoutputDirectory="$ELASTICMQ/lib" -DincludeScope=runtime
  )
  touch "$ELASTICMQ/complete"
}

# moto's server (PyPI), an emulator of AWS APIs that, with IAM checks on, recomputes each
# request's SigV4 signature from the secret of the access key it names: the SQS target's
# wrong-credential test runs against it. A virtual environment of its own, named by the version.
moto_install() {
  # the tests run `python3 -m moto.server` from the environment, which works wherever it was made
  if [[ -f "$MOTO/complete" ]] && "$MOTO/bin/python3" -c 'import moto.server' 2>/dev/null; then return; fi
  /usr/bin/python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
  log "moto: installing moto[server]==$MOTO_VERSION into $MOTO"
  rm -rf "$MOTO"
  /usr/bin/python3 -m venv "$MOTO"
  nice -n 19 "$MOTO/bin/pip" install -q --disable-pip-version-check "moto[server]==$MOTO_VERSION"
  touch "$MOTO/complete"
}

# versitygw (Versity S3 Gateway), an S3 server that keeps objects as files and checks every
# request's SigV4 signature: built from the Go module proxy like Jaeger, into a folder named by
# the version. A cold build took about 4 min on 2 busy cores.
versitygw_build() {
  if [[ -x "$VERSITYGW" ]]; then return; fi
  command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
  command -v go >/dev/null || die "Go is needed to build versitygw $VERSITYGW_VERSION (the S3 target's test server)"
  log "versitygw: building $VERSITYGW_VERSION into $VERSITYGW (first time only)"
  local started=$SECONDS dir
  dir="$(dirname "$VERSITYGW")"
  mkdir -p "$dir"
  CGO_ENABLED=0 GOBIN="$dir" nice -n 19 go install -trimpath "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
  log "versitygw: built in $((SECONDS - started)) s"
}

ferretdb_up() {
  if [[ -n "${MONGODB_URL:-}" ]]; then log "ferretdb: MONGODB_URL is set; not starting one"; return; fi
  local pid
  # first, and even when FerretDB already runs: a store provisioned by an earlier version gets
  # this version's PostgreSQL settings (postgres_up is idempotent)
  if [[ "$FERRETDB_BACKEND" == postgresql ]]; then postgres_up; fi
  if pid="$(pid_of "$FERRET_PID" ferretdb)"; then log "ferretdb: already running (pid $pid)"; return; fi
  if answers mongodb "$LOCAL_MONGODB_URL"; then log "ferretdb: another process answers on port $MONGO_PORT; using it"; return; fi
  ferretdb_build
  mkdir -p "$FERRET_DIR/data"
  # --log-level=error: at warn, FerretDB logs every client's unsupported `endSessions` on close.
  # Without job control a background job is not a process-group leader, so setsid does not
  # fork and $! is FerretDB's own pid.
  local storage=(--handler=sqlite --sqlite-url="file:$FERRET_DIR/data/")
  if [[ "$FERRETDB_BACKEND" == postgresql ]]; then
    # pool_max_conns: an `update` command holds a pooled connection per statement until it ends
    # (measured: 50 statements wedge the instance at the default pool; 64 connections held by
    # several writers' updates at once wedged it too). A process sends at most 25 statements a
    # command and one update command at a time (libs/store keyed-collection.ts), so 180 leaves
    # room for seven processes updating at once beside the rest (max_connections is 200)
    storage=(--handler=postgresql --postgresql-url="postgres://postgres@127.0.0.1:$PG_PORT/ferretdb?pool_max_conns=180")
  fi
  # GOGC: FerretDB's live heap is a few MB, so at Go's default (100) it collected every few MB
  # allocated, dozens of times a second under load; at 1000 the store used about a quarter less
  # CPU in the whole-system bench (docs/benchmarks.md). GOMEMLIMIT bounds what the larger
  # target may grow to: near it Go collects as often as it must.
  GOGC="${FERRETDB_GOGC:-1000}" GOMEMLIMIT="${FERRETDB_GOMEMLIMIT:-1GiB}" setsid nohup "$FERRETDB" "${storage[@]}" \
    --state-dir="$FERRET_DIR" --listen-addr="127.0.0.1:$MONGO_PORT" --debug-addr="127.0.0.1:$((MONGO_PORT + 1071))" \
    --telemetry=disable --log-level=error > "$FERRET_DIR/out.log" 2>&1 < /dev/null 9>&- &
  echo $! > "$FERRET_PID"
  log "ferretdb: started (pid $!)"
}

ferretdb_down() {
  local pid
  if pid="$(pid_of "$FERRET_PID" ferretdb)"; then
    log "ferretdb: stopping (pid $pid)"
    stop_pid "$pid" ferretdb
  else
    log "ferretdb: not running (not started by infra.sh)"
  fi
  rm -f "$FERRET_PID"
}

# --- PostgreSQL (only with FERRETDB_BACKEND=postgresql) ---------------------------------------

# The cluster lives where the postgres user can always reach it (a checkout under /root is not
# traversable by other users), one per checkout.
PG_DIR="${RELAY_PG_DIR:-/var/lib/postgresql/relay-$(printf '%s' "$ROOT" | md5sum | cut -c1-8)}"

pg_bin() { find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1 || true; }
as_postgres() { runuser -u postgres -- "$@"; }

postgres_up() {
  local bin
  bin="$(pg_bin)"
  [[ -n "$bin" ]] || die "PostgreSQL binaries not found under /usr/lib/postgresql"
  mkdir -p "$PG_DIR"
  chown postgres:postgres "$PG_DIR"
  chmod 700 "$PG_DIR"
  if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
    log "postgres: initdb (trust auth, loopback only)"
    as_postgres "$bin/initdb" -D "$PG_DIR/data" --auth=trust -U postgres > "$PG_DIR/initdb.log"
  fi
  if as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" status > /dev/null 2>&1; then
    log "postgres: already running"
  else
    as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/out.log" -w \
      -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null 9>&-
    log "postgres: started on 127.0.0.1:$PG_PORT"
  fi
  if ! as_postgres "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep -q 1; then
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres ferretdb
  fi
  # lookups by `_id` and declared fields through an index (the file says why); idempotent, so on every `up`
  as_postgres "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d ferretdb -v ON_ERROR_STOP=1 -q \
    -f - < "$ROOT/scripts/ferretdb-postgres.sql" > /dev/null || die "postgres: scripts/ferretdb-postgres.sql failed"
}

postgres_down() {
  local bin
  bin="$(pg_bin)"
  [[ -n "$bin" && -f "$PG_DIR/data/PG_VERSION" ]] || return 0
  if as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" status > /dev/null 2>&1; then
    log "postgres: stopping"
    as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null
  fi
}

# --- commands --------------------------------------------------------------------------------

print_urls() {
  echo "REDIS_URL=${REDIS_URL:-$LOCAL_REDIS_URL}"
  echo "RABBITMQ_URL=${RABBITMQ_URL:-$LOCAL_RABBITMQ_URL}"
  echo "MONGODB_URL=${MONGODB_URL:-$LOCAL_MONGODB_URL}"
}

show_logs_on_failure() {
  local f
  for f in "$REDIS_DIR/redis.log" "$RABBIT_DIR/out.log" "$FERRET_DIR/out.log"; do
    [[ -s "$f" ]] || continue
    echo "----- last lines of $f" >&2
    tail -n 20 "$f" >&2
  done
}

cmd_up() {
  require_node_modules
  ensure_packages
  # Start RabbitMQ first: its ~10 s boot overlaps the FerretDB build and start.
  rabbit_up
  redis_up
  ferretdb_up
  if ! MONGODB_URL="${MONGODB_URL:-$LOCAL_MONGODB_URL}" node "$WAIT" --timeout "$WAIT_TIMEOUT"; then
    show_logs_on_failure
    die "infrastructure not ready after ${WAIT_TIMEOUT} s"
  fi
  log "ready; use:"
  print_urls
}

# What the tests use and the service does not: Chromium (browser tests), Prometheus (rule and
# scrape tests). The chaos suite (test/e2e/chaos) starts private Redis, RabbitMQ and FerretDB processes of its
# own, so it needs the programs even where the shared servers are someone else's (URLs set).
# Its FerretDB keeps its data in a database of its own in the local PostgreSQL cluster, which
# this starts (idempotent; the suite restarts FerretDB, never PostgreSQL): FerretDB on SQLite lost
# acknowledged inserts across a restart (docs/reliability.md), so the suite runs the default store.
cmd_tools() {
  ensure_chromium
  ensure_prometheus
  ensure_mosquitto
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  [[ -x "$RABBIT_BIN/rabbitmq-server" ]] || missing+=(rabbitmq-server)
  [[ -n "$(pg_bin)" ]] || missing+=(postgresql)
  if ((${#missing[@]} > 0)); then apt_install "${missing[@]}"; fi
  ferretdb_build
  jaeger_build
  nats_server_build
  elasticmq_install
  moto_install
  versitygw_build
  kafka_assemble
  # what the deploy tests render with (a Go build on a fresh machine: here, not inside npm test)
  bash "$ROOT/scripts/k8s-tools.sh" >/dev/null
  bash "$ROOT/scripts/helm-tool.sh" >/dev/null
  postgres_up
  log "tools: chromium, promtool, prometheus, mosquitto, redis-server, $RABBIT_BIN/rabbitmq-server, $FERRETDB, $JAEGER, $NATS_SERVER, $ELASTICMQ, $MOTO, $VERSITYGW, the Kafka $KAFKA_VERSION jars ($KAFKA_LIBS), kubectl and helm are installed; PostgreSQL runs on 127.0.0.1:$PG_PORT"
}

cmd_down() {
  redis_down
  rabbit_down
  ferretdb_down
  if [[ "$FERRETDB_BACKEND" == postgresql ]]; then postgres_down; fi
}

status_line() {
  local name="$1" var="$2" url="$3" pidfile="$4" pattern="$5" pid state owner=-
  if pid="$(pid_of "$pidfile" "$pattern")"; then owner="infra.sh, pid $pid"; elif [[ -n "${!var:-}" ]]; then owner="external ($var)"; fi
  if answers "$name" "$url"; then state=up; else state=down; fi
  printf '%-9s %-5s %-24s %s\n' "$name" "$state" "$owner" "$url"
}

# The activity-writer's own view of how far behind the log is (its /metrics, port as npm start runs it).
activity_lag_line() {
  local url="http://127.0.0.1:${ACTIVITY_WRITER_HEALTH_PORT:-8093}/metrics" metrics lag unwritten
  if ! metrics="$(node -e 'fetch(process.argv[1]).then(r=>r.text()).then(t=>process.stdout.write(t),()=>process.exit(1))' "$url" 2>/dev/null)"; then
    echo "activity  no activity-writer answers on $url"
    return
  fi
  lag="$(awk '$1=="relay_activity_lag_seconds"{print $2}' <<< "$metrics")"
  unwritten="$(awk '$1=="relay_activity_unwritten_records"{print $2}' <<< "$metrics")"
  printf 'activity  lag %ss (oldest record not yet written), %s unwritten records held by the writer\n' "${lag:-?}" "${unwritten:-?}"
}

cmd_status() {
  require_node_modules
  status_line redis REDIS_URL "${REDIS_URL:-$LOCAL_REDIS_URL}" "$REDIS_PID" redis-server
  status_line rabbitmq RABBITMQ_URL "${RABBITMQ_URL:-$LOCAL_RABBITMQ_URL}" "$RABBIT_PID" rabbit
  status_line mongodb MONGODB_URL "${MONGODB_URL:-$LOCAL_MONGODB_URL}" "$FERRET_PID" ferretdb
  [[ -n "${MONGODB_URL:-}" ]] || echo "          FerretDB on $FERRETDB_BACKEND (FERRETDB_BACKEND)"
  activity_lag_line
  if pid_of "$RABBIT_PID" rabbit >/dev/null; then
    echo "rabbitmq management UI: http://127.0.0.1:$RABBIT_MGMT_PORT (guest/guest)"
    echo "queues:"
    rabbitmqctl_ list_queues -q name messages messages_unacknowledged 2>&1 | sed 's/^/  /' || true
  fi
}

main() {
  local cmd="${1:-}"
  case "$cmd" in
    up | down | status | tools) ;;
    *) echo "usage: bash scripts/infra.sh up|down|status|tools" >&2; exit 2 ;;
  esac
  mkdir -p "$INFRA"
  # One infra.sh at a time per checkout: concurrent `up`s (two test runs) must not race. The
  # servers are started with fd 9 closed, so they never hold this lock.
  exec 9> "$INFRA/.lock"
  flock 9
  "cmd_$cmd"
}

main "$@"
