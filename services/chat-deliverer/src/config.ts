import { delivererConfigSpec } from '@relay/deliverer';
import type { DelivererConfig } from '@relay/deliverer';

// chat targets follow the fast schedules (1 s … 30 s), so this channel declares short tiers
export const configSpec = delivererConfigSpec({ healthPort: 8092, channel: 'chat' });

export type Config = DelivererConfig;
