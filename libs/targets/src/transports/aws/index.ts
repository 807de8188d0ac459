export { awsClientConfig, awsFailure, poolKey } from './client';
export type { AwsAccess, AwsFailure } from './client';
