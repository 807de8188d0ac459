import { hostname } from 'node:os';
import { BrokerConnection, ConfirmPublisher } from '@relay/broker';
import { ConfigError, commonVars, int, rabbitVars } from '@relay/config';
import type { ConfigOf } from '@relay/config';
import { DELIVERY_CHANNELS } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { redriveDeadDeliveries } from './redrive';
import type { RedriveResult } from './redrive';

/** What the redrive command reads from the environment (the same names the deliverers read). */
export const redriveConfigSpec = {
  ...commonVars,
  ...rabbitVars,
  deliveryLimit: int(
    'BROKER_DELIVERY_LIMIT',
    'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)',
    { default: 20, min: 1 },
  ),
  confirmTimeoutMs: int(
    'PUBLISH_CONFIRM_TIMEOUT_MS',
    'how long recording an attempt outcome waits for the broker confirm before the delivery is requeued',
    { default: 5000, min: 50 },
  ),
};
export type RedriveConfig = ConfigOf<typeof redriveConfigSpec>;

export interface RedriveArgs {
  channel: DeliveryChannel;
  limit: number;
  targetId?: string;
}

export const REDRIVE_USAGE = `usage: redrive --channel ${DELIVERY_CHANNELS.join('|')} [--limit N (default 1000)] [--target <target_id>]`;

/** `--channel webhook [--limit N] [--target tg_…]`; every problem reported at once. */
export function parseRedriveArgs(argv: readonly string[], defaultChannel?: DeliveryChannel): RedriveArgs {
  const problems: string[] = [];
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (!['--channel', '--limit', '--target'].includes(flag)) problems.push(`unknown argument ${flag}`);
    else if (value === undefined || value.startsWith('--')) problems.push(`${flag} needs a value`);
    else {
      values.set(flag, value);
      i += 1;
    }
  }
  const channel = values.get('--channel') ?? defaultChannel;
  if (!channel || !DELIVERY_CHANNELS.includes(channel as DeliveryChannel))
    problems.push(`--channel must be one of ${DELIVERY_CHANNELS.join(', ')}`);
  const limitText = values.get('--limit') ?? '1000';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > 1_000_000)
    problems.push('--limit must be an integer from 1 to 1000000');
  if (problems.length > 0) throw new ConfigError([...problems, REDRIVE_USAGE]);
  const args: RedriveArgs = { channel: channel as DeliveryChannel, limit };
  const target = values.get('--target');
  if (target !== undefined) args.targetId = target;
  return args;
}

/** One redrive run: connects, moves, closes. The caller prints the result; logs go to `logStream`. */
export async function runRedrive(
  config: RedriveConfig,
  args: RedriveArgs,
  logStream: NodeJS.WritableStream,
): Promise<RedriveResult> {
  const logger = createLogger({ service: 'redrive', level: config.logLevel, stream: logStream });
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `redrive ${hostname()}:${process.pid}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start(10_000);
  try {
    const publisher = new ConfirmPublisher(broker, config.confirmTimeoutMs);
    const opts = {
      namespace: config.namespace,
      channel: args.channel,
      limit: args.limit,
      ...(args.targetId ? { targetId: args.targetId } : {}),
    };
    return await redriveDeadDeliveries(broker, publisher, opts);
  } finally {
    await broker.close();
  }
}
