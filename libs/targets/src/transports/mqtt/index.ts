export { createMqttLink } from './publisher';
export type { MqttBroker, MqttLink, MqttMessage, MqttOutcome, MqttProtocolVersion } from './publisher';
