import { Registry } from 'prom-client';
import { registerBrokerMetrics } from './broker-metrics';

describe('relay_broker_connected (the broker-unavailable alert reads it)', () => {
  it('reports the connection as it is at scrape time: 1 connected, 0 reconnecting', async () => {
    let up = true;
    const registry = new Registry();
    registerBrokerMetrics(registry, { isUp: () => up });
    expect(await registry.metrics()).toMatch(/^relay_broker_connected 1$/m);
    up = false;
    expect(await registry.metrics()).toMatch(/^relay_broker_connected 0$/m);
  });
});
