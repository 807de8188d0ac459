export { featuresFor } from './features';
export type { PayloadFeatures } from './features';
export { readPayload } from './read-payload';
export type { Payload, PayloadRejection, PayloadRequest, PayloadResult, ReadPayloadSettings } from './read-payload';
export { MAX_XML_DEPTH } from './xml';
