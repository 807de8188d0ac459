export { ConfigError, describeConfig, envNames, loadConfig } from './load';
export { int, list, oneOf, str, url } from './spec';
export type { ConfigOf, ConfigSpec, VarSpec } from './spec';
export {
  activityVars,
  cacheVars,
  commonVars,
  healthHostVars,
  mongoVars,
  rabbitVars,
  redisVars,
  smtpVars,
  ssrfVars,
} from './common';
