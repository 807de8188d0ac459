import { loadConfig } from '@relay/config';
import { runMain } from '@relay/runtime';
import { parseRedriveArgs, redriveConfigSpec, runRedrive } from './retry/redrive-command';

/**
 * Moves dead-lettered deliveries back to the work queue (docs/delivery.md "Redrive"):
 *   npm run redrive -- [--channel webhook|chat|outputs (default webhook)] [--limit N] [--target tg_…]
 * Prints one JSON line: {"channel":…,"moved":N,"kept":N}. Logs go to stderr.
 */
runMain(async () => {
  const config = loadConfig(redriveConfigSpec, process.env);
  const args = parseRedriveArgs(process.argv.slice(2), 'webhook');
  const result = await runRedrive(config, args, process.stderr);
  process.stdout.write(`${JSON.stringify({ channel: args.channel, ...result })}\n`);
});
