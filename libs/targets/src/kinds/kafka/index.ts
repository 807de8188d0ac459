// The Apache Kafka output: settings, the record of one delivery, and its produce's classification.
export { kafkaDescription, validateKafkaConfig } from './config';
export type { KafkaConfig } from './config';
export { classifyKafkaProduce } from './classify';
export { createKafkaKind, kafkaCluster, kafkaInfo, kafkaRecord } from './kind';
export type { KafkaKindDeps } from './kind';
