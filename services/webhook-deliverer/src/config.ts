import { delivererConfigSpec } from '@relay/deliverer';
import type { DelivererConfig } from '@relay/deliverer';

// webhook targets follow the long default schedule (5 s … 12 h), so this channel declares long tiers
export const configSpec = delivererConfigSpec({ healthPort: 8091, channel: 'webhook' });

export type Config = DelivererConfig;
