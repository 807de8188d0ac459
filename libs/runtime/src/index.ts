export { createHealthApp, mountHealth } from './health';
export type { ReadinessChecks } from './health';
export { closeServer, listen, onShutdown, runMain } from './lifecycle';
export { createMetricsRegistry, mountMetrics } from './metrics';
