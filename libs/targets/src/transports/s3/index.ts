export { createS3Link } from './bucket';
export type { S3Bucket, S3Link, S3Object, S3PutOutcome } from './bucket';
