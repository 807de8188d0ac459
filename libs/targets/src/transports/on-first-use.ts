/**
 * A client package loaded when a link first needs it, not when this library is imported. Every
 * service and most tests import the target kinds (their descriptions and checks); only a
 * deliverer with a target of the kind ever opens a link, and the MQTT, Kafka, NATS, SQS, S3 and
 * SMTP clients together take about 0.6 s to load.
 */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
