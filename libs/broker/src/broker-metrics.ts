import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { BrokerConnection } from './connection';

/**
 * `relay_broker_connected`: 1 while this process holds a connection to the broker, 0 while it
 * is reconnecting; read when scraped. At 0 the gateway answers 503 `delivery_queue_unavailable`
 * and the consumers take nothing: the RelayBrokerUnavailable alert
 * (deploy/observability/prometheus/rules/relay.rules.yml) fires on it. No labels.
 */
export function registerBrokerMetrics(registry: Registry, broker: Pick<BrokerConnection, 'isUp'>): void {
  new Gauge({
    name: 'relay_broker_connected',
    help: '1 while this process is connected to the broker, 0 while it reconnects',
    registers: [registry],
    collect() {
      this.set(broker.isUp() ? 1 : 0);
    },
  });
}
