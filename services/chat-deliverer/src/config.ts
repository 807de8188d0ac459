import { delivererConfigSpec } from '@relay/targets';
import type { DelivererConfig } from '@relay/targets';

export const configSpec = delivererConfigSpec(8092);

export type Config = DelivererConfig;
