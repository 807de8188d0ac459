import { delivererConfigSpec } from '@relay/targets';
import type { DelivererConfig } from '@relay/targets';

export const configSpec = delivererConfigSpec(8091);

export type Config = DelivererConfig;
