# Sourced by scripts/infra.sh (one node) and scripts/cluster.sh (three): the environment that
# rabbitmq-server and rabbitmqctl of one local node share, so starting, stopping and asking talk to
# the same node with the same Erlang cookie ($HOME/.erlang.cookie). Every file of the node lives
# under <dir>; it listens on loopback only. Call it in a subshell only: it changes HOME.
#
#   rabbit_node_env <dir> <home> <node name> <AMQP port> <distribution port>
rabbit_node_env() {
  local dir="$1"
  export HOME="$2"
  export RABBITMQ_NODENAME="$3"
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT="$4"
  export RABBITMQ_DIST_PORT="$5"
  export ERL_EPMD_ADDRESS=127.0.0.1
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  export RABBITMQ_MNESIA_BASE="$dir/mnesia"
  export RABBITMQ_LOG_BASE="$dir/log"
  export RABBITMQ_PID_FILE="$dir/rabbitmq.pid"
  export RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins"
  export RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf"
  export RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf"
  export RABBITMQ_ADVANCED_CONFIG_FILE="$dir/advanced.config"
}
