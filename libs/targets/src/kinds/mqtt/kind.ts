import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { PayloadError } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { MqttLink, MqttMessage } from '../../transports/mqtt';
import { readPayload, renderTemplate, templateData } from '../template';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { openServerUrl } from '../server-url';
import { classifyMqttPublish } from './classify';
import { mqttDescription, topicProblem } from './config';
import type { MqttConfig } from './config';

/**
 * On the outputs channel with the other broker kinds, and their schedule. `resendable` is false:
 * a QoS 1 publish whose PUBACK was lost may have been delivered, and the next attempt publishes
 * again (at least once; MQTT has no broker-side deduplication across connections, so consumers
 * drop a repeated `relay-delivery-id`).
 */
export const mqttInfo: KindInfo = {
  kind: 'mqtt',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: mqttDescription,
  resendable: false,
};

export interface MqttKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  mqtt?: MqttLink;
}

/**
 * The message of one delivery: the same on every attempt. The ids travel as MQTT 5 user
 * properties; a 3.1.1 PUBLISH has no properties, so there the body goes alone
 * (docs/decisions/0026-mqtt-target-kind.md).
 */
export function mqttMessage(config: MqttConfig, d: DeliveryMessageV1): MqttMessage {
  const topic = renderTemplate(config.topic, templateData(readPayload(d.payload)));
  const problem = topicProblem(topic);
  if (problem) throw new PayloadError('TOPIC_INVALID', `the rendered topic ${problem}`);
  return {
    topic,
    body: Buffer.from(d.payload.body_base64, 'base64'),
    userProperties: {
      'relay-delivery-id': d.delivery_id,
      'relay-event-id': d.event_id,
      'relay-endpoint-id': d.endpoint_id,
    },
    ...(d.payload.content_type ? { contentType: d.payload.content_type } : {}),
  };
}

/** Each delivery published to the target's broker at QoS 1 (docs/targets-queues.md "MQTT"). */
export function createMqttKind(deps: MqttKindDeps): TransportKind<MqttConfig> {
  return {
    ...mqttInfo,
    ...describedConfig<MqttConfig>(mqttDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.mqtt) return { result: 'retry', status: null, error: 'this deliverer cannot reach MQTT brokers' };
      const message = mqttMessage(config, d);
      const url = openServerUrl(deps.secrets, config.url, 'MQTT');
      return classifyMqttPublish(
        await deps.mqtt.publish(ownerOf(d), { url, protocolVersion: config.protocol_version }, message),
      );
    },
  };
}
