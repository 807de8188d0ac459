export { createSecretBox } from './secret-box';
export type { SecretBox } from './secret-box';
export { createInternalSigner } from './internal-signature';
export type { InternalSigner } from './internal-signature';
