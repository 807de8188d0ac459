import { delivererConfigSpec } from '@relay/targets';
import type { DelivererConfig } from '@relay/targets';

// chat targets follow the fast schedules (1 s … 30 s), so this channel declares short tiers
export const configSpec = delivererConfigSpec({ healthPort: 8092, channel: 'chat' });

export type Config = DelivererConfig;
