import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { TargetConfigError } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { KafkaCluster, KafkaLink, KafkaRecord } from '../../transports/kafka';
import { pathText, readPayload, templateData } from '../template';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { classifyKafkaProduce } from './classify';
import { kafkaDescription } from './config';
import type { KafkaConfig } from './config';

/**
 * On the outputs channel with the other broker kinds, and their schedule. `resendable` is false:
 * a produce whose answer was lost may have been written, and an attempt by another producer
 * (after a deliverer restart or a reopened client) writes it again; consumers drop a repeated
 * `relay-delivery-id` header.
 */
export const kafkaInfo: KindInfo = {
  kind: 'kafka',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: kafkaDescription,
  resendable: false,
};

export interface KafkaKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  kafka?: KafkaLink;
}

/** The record of one delivery: the same value, key and headers on every attempt. */
export function kafkaRecord(config: KafkaConfig, d: DeliveryMessageV1): KafkaRecord {
  const key = config.key_path === '' ? undefined : pathText(templateData(readPayload(d.payload)), config.key_path);
  return {
    topic: config.topic,
    ...(key !== undefined ? { key } : {}),
    value: Buffer.from(d.payload.body_base64, 'base64'),
    headers: {
      'relay-delivery-id': d.delivery_id,
      'relay-event-id': d.event_id,
      'relay-endpoint-id': d.endpoint_id,
      ...(d.payload.content_type ? { 'content-type': d.payload.content_type } : {}),
    },
    timestamp: String(Date.parse(d.received_at)),
  };
}

/** The cluster of a target, its sealed password opened. */
export function kafkaCluster(secrets: SecretSealer, config: KafkaConfig): KafkaCluster {
  const cluster = { brokers: config.brokers, tls: config.tls };
  if (config.sasl.mechanism === 'none') return cluster;
  let password: string;
  try {
    password = secrets.decrypt(config.sasl.password);
  } catch {
    throw new TargetConfigError('SECRET_UNREADABLE', 'the SASL password cannot be opened with any configured key');
  }
  return { ...cluster, sasl: { mechanism: config.sasl.mechanism, username: config.sasl.username, password } };
}

/** Each delivery produced to the target's topic (docs/targets-queues.md "Apache Kafka"). */
export function createKafkaKind(deps: KafkaKindDeps): TransportKind<KafkaConfig> {
  return {
    ...kafkaInfo,
    ...describedConfig<KafkaConfig>(kafkaDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.kafka) return { result: 'retry', status: null, error: 'this deliverer cannot reach Kafka clusters' };
      const record = kafkaRecord(config, d);
      return classifyKafkaProduce(await deps.kafka.produce(ownerOf(d), kafkaCluster(deps.secrets, config), record));
    },
  };
}
