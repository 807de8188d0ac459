import { loadConfig } from '@relay/config';
import { runMain } from '@relay/runtime';
import { runDeliverer } from '@relay/deliverer';
import { configSpec } from './config';

// Consumes the webhook delivery queue; scale by running more instances.
runMain(() => runDeliverer('webhook-deliverer', 'webhook', loadConfig(configSpec, process.env)));
