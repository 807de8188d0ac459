#!/usr/bin/env bash
# Clustered infrastructure on loopback, the topology users run when they outgrow one machine
# (docs/operations.md "Clustered RabbitMQ and Redis"): a three-node RabbitMQ cluster (quorum
# queues replicated over the three) and a three-master Redis Cluster, each master with a replica
# that takes over when it stops. Debian's packages, the
# programs `scripts/infra.sh tools` installs; data and logs under <repo>/.infra/cluster.
#
#   bash scripts/cluster.sh up              start whatever is not running, join, wait
#   bash scripts/cluster.sh down            stop every node this script started and remove their data
#   bash scripts/cluster.sh up-rabbit|up-redis|down-rabbit|down-redis   one of the two only
#   bash scripts/cluster.sh stop-rabbit N   stop RabbitMQ node N (1-3): a node failure
#   bash scripts/cluster.sh start-rabbit N  start it again; it rejoins by itself
#   bash scripts/cluster.sh stop-redis N    stop Redis node N (1-6; 1-3 start as masters)
#   bash scripts/cluster.sh start-redis N   start it again; it rejoins (as a replica if replaced)
#   bash scripts/cluster.sh urls            the URLs Relay's services take (RABBITMQ_URL, REDIS_URL)
#   bash scripts/cluster.sh quorum-members Q  how many nodes hold quorum queue Q
#
# Ports (loopback only): RabbitMQ AMQP 5701-5703, distribution 25701-25703; Redis 7101-7106
# (cluster bus 17101-17106). The shared servers of infra.sh (5672, 6379) are left alone.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/.infra/cluster"
RABBIT_BIN=/usr/lib/rabbitmq/bin
NODES=(1 2 3)
REDIS_NODES=(1 2 3 4 5 6)

log() { echo "cluster: $*"; }
die() { echo "cluster: ERROR: $*" >&2; exit 1; }

amqp_port() { echo $((5700 + $1)); }
redis_port() { echo $((7100 + $1)); }
rabbit_node() { echo "relayc$1@localhost"; }

# One environment per node (scripts/rabbit-env.sh, as infra.sh's node); every node shares one
# Erlang cookie ($HOME/.erlang.cookie), which is what lets them form a cluster. Subshell only.
# shellcheck source=scripts/rabbit-env.sh
source "$ROOT/scripts/rabbit-env.sh"
rabbit_env() { rabbit_node_env "$DIR/rabbit$1" "$DIR/rabbit-home" "$(rabbit_node "$1")" "$(amqp_port "$1")" $((25700 + $1)); }

ctl() { local n="$1"; shift; (rabbit_env "$n" && "$RABBIT_BIN/rabbitmqctl" -q -n "$(rabbit_node "$n")" "$@"); }

rabbit_running() { local pid; pid="$(cat "$DIR/rabbit$1/rabbitmq.pid" 2>/dev/null)" && kill -0 "$pid" 2>/dev/null; }

# Starts node N's server in the background, configured to form the cluster by itself: a blank
# node finds its peers in the config (classic peer discovery, which takes a lock so that only one
# of nodes booting together forms the cluster); a node with data rejoins as itself.
rabbit_launch() {
  local n="$1" d="$DIR/rabbit$1" peer
  if rabbit_running "$n"; then return 0; fi
  mkdir -p "$d/mnesia" "$d/log" "$DIR/rabbit-home"
  : > "$d/enabled_plugins"
  : > "$d/rabbitmq-env.conf"
  # pause_minority: without it a node left alone after a partition would wait for the others
  # forever; the cluster the tests stop nodes of must heal by itself when a node comes back.
  {
    echo "cluster_partition_handling = pause_minority"
    echo "cluster_formation.peer_discovery_backend = classic_config"
    for peer in "${NODES[@]}"; do echo "cluster_formation.classic_config.nodes.$peer = $(rabbit_node "$peer")"; done
  } > "$d/rabbitmq.conf"
  (
    rabbit_env "$n"
    exec setsid nohup "$RABBIT_BIN/rabbitmq-server"
  ) > "$d/out.log" 2>&1 < /dev/null &
}

# Waits for node N's broker to be up: one rabbitmqctl process that watches the pid file, not a
# poll (each rabbitmqctl call boots an Erlang VM).
rabbit_await() {
  local n="$1" d="$DIR/rabbit$1"
  if ctl "$n" wait "$d/rabbitmq.pid" --timeout 120 >/dev/null 2>&1; then return 0; fi
  tail -n 30 "$d/out.log" >&2
  die "rabbitmq node $n did not start"
}

rabbit_start() { rabbit_launch "$1"; rabbit_await "$1"; }

rabbit_stop() {
  local n="$1" d="$DIR/rabbit$1" pid
  [[ -f "$d/rabbitmq.pid" ]] || return 0
  pid="$(cat "$d/rabbitmq.pid")"
  ctl "$n" stop "$d/rabbitmq.pid" >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  rm -f "$d/rabbitmq.pid"
}

# Joins node N to node 1's cluster unless it is in it already (peer discovery normally did).
rabbit_join() {
  local n="$1" seed; seed="$(rabbit_node 1)"
  if ctl "$n" cluster_status --formatter json 2>/dev/null | grep -q "$seed"; then return 0; fi
  log "rabbitmq node $n formed no cluster with node 1 at boot; joining it"
  ctl "$n" stop_app
  ctl "$n" join_cluster "$seed"
  ctl "$n" start_app
}

redis_start() {
  local n="$1" d="$DIR/redis$1" port; port="$(redis_port "$1")"
  if redis-cli -p "$port" ping >/dev/null 2>&1; then return 0; fi
  mkdir -p "$d"
  # appendonly + fsync always: an acknowledged quota increment survives a master's stop; the
  # cluster config file is the node's identity, kept across restarts so it rejoins as itself.
  redis-server --port "$port" --bind 127.0.0.1 --dir "$d" --daemonize yes --pidfile "$d/redis.pid" \
    --logfile "$d/redis.log" --cluster-enabled yes --cluster-config-file nodes.conf \
    --cluster-node-timeout 2000 --appendonly yes --appendfsync always --save ''
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "redis node $n did not start"
}

redis_stop() {
  local port; port="$(redis_port "$1")"
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
}

redis_create() {
  if redis-cli -p "$(redis_port 1)" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; then return 0; fi
  local addrs=()
  for n in "${REDIS_NODES[@]}"; do addrs+=("127.0.0.1:$(redis_port "$n")"); done
  # the first three given become masters, the next three their replicas
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >/dev/null
  for _ in $(seq 1 100); do
    redis-cli -p "$(redis_port 1)" cluster info | grep -q 'cluster_state:ok' && return 0
    sleep 0.1
  done
  die "redis cluster did not reach cluster_state:ok"
}

# The number of nodes holding a quorum queue (its members), asked of whichever node answers.
quorum_members() {
  local n out
  for n in "${NODES[@]}"; do
    if out="$(cd "$DIR" && (rabbit_env "$n" && "$RABBIT_BIN/rabbitmq-queues" -q -n "$(rabbit_node "$n")" quorum_status "$1" --formatter json) 2>/dev/null)"; then
      node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).length))' <<< "$out"
      return 0
    fi
  done
  die "no node answered for queue $1"
}

cmd_urls() {
  local amqp=() redis=()
  for n in "${NODES[@]}"; do amqp+=("amqp://127.0.0.1:$(amqp_port "$n")"); redis+=("redis://127.0.0.1:$(redis_port "$n")"); done
  echo "RABBITMQ_URL=$(IFS=,; echo "${amqp[*]}")"
  echo "REDIS_URL=$(IFS=,; echo "${redis[*]}")"
}

# Each half on its own, so the RabbitMQ and the Redis test files (which npm test may run at the
# same time, in two workers) never stop each other's cluster.
cmd_up_rabbit() {
  [[ -x "$RABBIT_BIN/rabbitmq-server" ]] || die "run 'bash scripts/infra.sh tools' first"
  mkdir -p "$DIR"
  local pids=() n
  # the nodes boot together, each awaited by its own watcher
  for n in "${NODES[@]}"; do rabbit_launch "$n"; done
  for n in "${NODES[@]}"; do rabbit_await "$n" & pids+=($!); done
  for n in "${pids[@]}"; do wait "$n"; done
  for n in 2 3; do rabbit_join "$n"; done
}

cmd_up_redis() {
  command -v redis-server >/dev/null || die "run 'bash scripts/infra.sh tools' first"
  mkdir -p "$DIR"
  for n in "${REDIS_NODES[@]}"; do redis_start "$n"; done
  redis_create
}

cmd_up() {
  cmd_up_rabbit
  cmd_up_redis
  log "ready"
  cmd_urls
}

# The cluster is for tests and trials: `down` removes its data, so the next `up` forms a new one
# (a stopped RabbitMQ cluster must otherwise be started last-stopped-first).
cmd_down_rabbit() {
  local pids=() n
  for n in "${NODES[@]}"; do rabbit_stop "$n" & pids+=($!); done
  for n in "${pids[@]}"; do wait "$n"; done
  rm -rf "$DIR"/rabbit*
}

cmd_down_redis() {
  for n in "${REDIS_NODES[@]}"; do redis_stop "$n"; done
  rm -rf "$DIR"/redis*
}

cmd_down() {
  cmd_down_rabbit
  cmd_down_redis
  rm -rf "$DIR"
}

main() {
  local cmd="${1:-}"
  case "$cmd" in
    up) cmd_up ;;
    down) cmd_down ;;
    up-rabbit) cmd_up_rabbit; log "ready"; cmd_urls ;;
    down-rabbit) cmd_down_rabbit ;;
    up-redis) cmd_up_redis; log "ready"; cmd_urls ;;
    down-redis) cmd_down_redis ;;
    urls) cmd_urls ;;
    quorum-members) quorum_members "${2:?queue name}" ;;
    stop-rabbit) rabbit_stop "${2:?node 1-3}" ;;
    start-rabbit) rabbit_start "${2:?node 1-3}" ;;
    stop-redis) redis_stop "${2:?node 1-6}" ;;
    start-redis) redis_start "${2:?node 1-6}" ;;
    *) echo "usage: bash scripts/cluster.sh up|down|up-rabbit|down-rabbit|up-redis|down-redis|urls|stop-rabbit N|start-rabbit N|stop-redis N|start-redis N" >&2; exit 2 ;;
  esac
}

main "$@"
