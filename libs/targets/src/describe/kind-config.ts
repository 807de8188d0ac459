import type { SecretSealer, TargetKind } from '../kind';
import type { KindDescription } from './field';
import { validateDescribed } from './validate';
import { viewDescribed } from './view';

/**
 * A kind's save-time validation and API view, both derived from its description: what most
 * kinds need and all that they need for their config (`...describedConfig(desc, secrets)`).
 */
export function describedConfig<C>(
  description: KindDescription,
  secrets: SecretSealer,
): Pick<TargetKind<C>, 'validateConfig' | 'publicConfig'> {
  return {
    validateConfig: (input) => validateDescribed<C>(description, input, secrets),
    publicConfig: (config) => viewDescribed(description, config as Record<string, unknown>, secrets),
  };
}
