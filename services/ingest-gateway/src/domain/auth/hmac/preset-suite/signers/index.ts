import type { HmacPresetName } from '@relay/endpoints';
import type { SignerCase } from '../signer';
import { ORIGINAL_SIGNERS } from './original';

/** One signer per preset; the suite fails when a preset has none. */
export const SIGNERS: Readonly<Record<HmacPresetName, SignerCase>> = {
  ...ORIGINAL_SIGNERS,
};
