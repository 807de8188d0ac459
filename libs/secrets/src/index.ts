export { createSecretBox } from './secret-box';
export type { SecretBox } from './secret-box';
export { parseKeys, SecretBoxError } from './keys';
export type { SecretKey } from './keys';
export { createInternalSigner } from './internal-signature';
export type { InternalSigner } from './internal-signature';
