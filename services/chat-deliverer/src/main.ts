import { loadConfig } from '@relay/config';
import { runMain } from '@relay/runtime';
import { runDeliverer } from '@relay/deliverer';
import { configSpec } from './config';

// Consumes the chat delivery queue; scale by running more instances.
runMain(() => runDeliverer('chat-deliverer', 'chat', loadConfig(configSpec, process.env)));
