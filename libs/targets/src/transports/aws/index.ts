export { awsClientConfig, awsFailure } from './client';
export type { AwsAccess, AwsFailure } from './client';
export { pooledAwsClients } from './pooled';
