// The S3-compatible object storage output: settings, the object of one delivery, and its write's classification.
export { DEFAULT_KEY_TEMPLATE, KEY_VARIABLES, s3Description, validateS3Config } from './config';
export type { S3Config } from './config';
export { classifyS3Put } from './classify';
export { createS3Kind, s3Info, s3Object } from './kind';
export type { S3KindDeps } from './kind';
