// The MQTT topic output: settings, the message of one delivery, and its publish's classification.
export { checkMqttUrl, mqttDescription, topicProblem, validateMqttConfig } from './config';
export type { MqttConfig } from './config';
export { classifyMqttPublish } from './classify';
export { createMqttKind, mqttInfo, mqttMessage } from './kind';
export type { MqttKindDeps } from './kind';
