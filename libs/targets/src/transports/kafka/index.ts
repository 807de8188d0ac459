export { createKafkaLink, kafkaErrorCode } from './producer';
export type { KafkaCluster, KafkaLink, KafkaRecord, ProduceOutcome } from './producer';
