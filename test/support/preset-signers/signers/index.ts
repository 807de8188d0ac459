import type { CertificatePresetName, HmacPresetName } from '@relay/endpoints';
import type { SignerCase } from '../signer';
import { COMMERCE_SIGNERS } from './commerce';
import { MESSAGING_SIGNERS } from './messaging';
import { ORIGINAL_SIGNERS } from './original';
import { PAYMENT_SIGNERS } from './payments';
import { PRODUCTIVITY_SIGNERS } from './productivity';
import { SOURCE_CONTROL_SIGNERS } from './source-control';
import { STANDARD_SIGNERS } from './standard';

/**
 * One signer per preset; the suite fails when a preset has none. Certificate-signed presets have
 * a suite of their own (test/unit/ingest-gateway/certificate), with a CA made in the test.
 */
export const SIGNERS: Readonly<Record<Exclude<HmacPresetName, CertificatePresetName>, SignerCase>> = {
  ...ORIGINAL_SIGNERS,
  ...SOURCE_CONTROL_SIGNERS,
  ...PAYMENT_SIGNERS,
  ...MESSAGING_SIGNERS,
  ...COMMERCE_SIGNERS,
  ...PRODUCTIVITY_SIGNERS,
  ...STANDARD_SIGNERS,
};
