import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CLI_BACKLOG_MAX_AGE_MS, CLI_BACKLOG_MAX_DELIVERIES, displayText } from '@relay/contracts';
import { ApiError, createApi } from './api';
import type { RelayApi } from './api';
import { configPath, readLogin, writeLogin } from './config-file';
import { cliTargetOf, listen, mirrorPercent } from './listen';
import { activityLine, tailActivity } from './tail';
import { previewOnEvents, ran, resultLines, UsageError } from './transform-test';

/*
 * `relay` (docs/cli.md): `listen` forwards an endpoint's live deliveries to a
 * local URL; the other commands are thin reads and actions over the management API. Where the
 * API is and the key to call it with come from the flags, then RELAY_API_URL / RELAY_API_KEY,
 * then what `relay login` stored. Exit codes: 0 done, 1 failed (the API's refusal, or a
 * transformation that threw), 2 a command line that cannot run.
 */

const DEFAULT_API_URL = 'http://127.0.0.1:8081';

interface Globals {
  apiUrl?: string;
  apiKey?: string;
}

function httpUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('must be an http:// or https:// URL');
  return url;
}

/** The command printed what failed itself: exit 1, nothing more to say. */
class Failed extends Error {}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function readCode(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return n;
}

// Every line printed carries text from outside (names, errors, a target's or a local server's
// answer): its control and invisible format characters are shown escaped, never acted on.
const out = (line: string): void => void process.stdout.write(`${displayText(line)}\n`);
const err = (line: string): void => void process.stderr.write(`${displayText(line)}\n`);

function connection(program: Command): { apiUrl: string; apiKey: string; api: RelayApi } {
  const flags = program.opts<Globals>();
  const given = {
    apiUrl: flags.apiUrl ?? process.env.RELAY_API_URL,
    apiKey: flags.apiKey ?? process.env.RELAY_API_KEY,
  };
  // the stored login is read only for what the flags and the environment leave open
  const stored = given.apiUrl && given.apiKey ? null : readLogin(configPath());
  const apiUrl = given.apiUrl ?? stored?.api_url ?? DEFAULT_API_URL;
  const apiKey = given.apiKey ?? stored?.api_key;
  if (!apiKey)
    throw new ApiError(0, 'not_logged_in', 'no API key: run relay login, or pass --api-key / set RELAY_API_KEY');
  return { apiUrl, apiKey, api: createApi(apiUrl, apiKey) };
}

async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split('\n')[0]!.trim();
}

export function buildProgram(): Command {
  const program = new Command('relay')
    .description('Relay from the command line: forward live events to localhost, read endpoints, targets and activity')
    .addOption(
      new Option(
        '--api-url <url>',
        `the management API (default: RELAY_API_URL, then the stored login, then ${DEFAULT_API_URL})`,
      ).argParser((v) => httpUrl(v).origin),
    )
    .addOption(new Option('--api-key <key>', 'an API key (default: RELAY_API_KEY, then the stored login)'))
    .showHelpAfterError()
    // usage errors end in run(), with exit code 2, instead of process.exit(1) inside commander
    .exitOverride();

  program
    .command('login')
    .description(`check an API key against the management API and store it, readable by you alone, in ${configPath()}`)
    .option('--key <key>', 'the API key (default: read from standard input)')
    .action(async (o: { key?: string }) => {
      const flags = program.opts<Globals>();
      const apiUrl = flags.apiUrl ?? process.env.RELAY_API_URL ?? DEFAULT_API_URL;
      const apiKey = o.key ?? flags.apiKey ?? (await readStdinLine());
      if (!apiKey) throw new ApiError(0, 'no_key', 'no API key given (--key, or one line on standard input)');
      await createApi(apiUrl, apiKey).listEndpoints();
      const file = configPath();
      writeLogin(file, { api_url: apiUrl, api_key: apiKey });
      err(`Logged in to ${apiUrl}; the key is stored in ${file} (mode 0600).`);
    });

  program
    .command('endpoints')
    .description("list the account's endpoints")
    .action(async () => {
      for (const e of await connection(program).api.listEndpoints()) out(`${e.id}  ${e.name}`);
    });

  program
    .command('targets')
    .description("list an endpoint's targets")
    .argument('<endpoint>', 'endpoint id (ep_…)')
    .action(async (endpointId: string) => {
      for (const t of await connection(program).api.listTargets(endpointId))
        out(`${t.id}  ${t.kind.padEnd(11)} ${t.enabled ? 'enabled ' : 'disabled'}  ${t.name}`);
    });

  const activity = program.command('activity').description('the Request activity log');
  activity
    .command('tail')
    .description('print the latest activity rows, then each new one as it arrives')
    .option('--endpoint <id>', 'one endpoint (default: every endpoint of the account)')
    .option('--limit <n>', 'rows printed first', positiveInt, 20)
    .option('--interval <ms>', 'how often to look for new rows', positiveInt, 2000)
    .option('--no-follow', 'print the latest rows and stop')
    .action(async (o: { endpoint?: string; limit: number; interval: number; follow: boolean }) => {
      const { api } = connection(program);
      const tail = tailActivity(api, {
        endpointId: o.endpoint,
        limit: Math.min(o.limit, 200),
        intervalMs: o.interval,
        follow: o.follow,
        print: (row) => out(activityLine(row)),
        warn: err,
      });
      process.once('SIGINT', () => tail.stop());
      process.once('SIGTERM', () => tail.stop());
      await tail.done;
    });

  program
    .command('resend')
    .description('deliver an accepted event again from its stored payload, to every target of its endpoint or one')
    .argument('<event>', 'event id (evt_…)')
    .option('--target <id>', 'only this target (tg_…)')
    .action(async (eventId: string, o: { target?: string }) => {
      const result = await connection(program).api.resend(eventId, o.target);
      for (const d of result.deliveries)
        out(`${result.event_id}  ${d.delivery_id}  → ${d.target_id} (${d.target_kind})`);
    });

  const transform = program.command('transform').description('transformations (docs/transformations.md)');
  transform
    .command('test')
    .description(
      "run a draft transformation on events' stored requests, as the deliverer would, delivering nothing: per event the output, the diff, the console lines, the time, or the error and its line",
    )
    .requiredOption('--file <path>', 'the JavaScript: a function (request, context) => request | null')
    .requiredOption('--event <id>', 'an accepted event (evt_…); repeat for several, of one endpoint', collect)
    .option('--endpoint <id>', "the events' endpoint (default: read from their activity rows)")
    .option('--target <id>', "run as this target's transformation, with its context (default: the endpoint's)")
    .action(async (o: { file: string; event: string[]; endpoint?: string; target?: string }) => {
      const code = readCode(o.file);
      const results = await previewOnEvents(connection(program).api, {
        code,
        eventIds: [...new Set(o.event)],
        endpointId: o.endpoint,
        targetId: o.target,
      });
      for (const r of results) for (const line of resultLines(r)) out(line);
      if (!results.every(ran)) throw new Failed();
    });

  program
    .command('listen')
    .description(
      "receive an endpoint's deliveries as they happen and forward each to a local URL; the local answer is the attempt's outcome",
    )
    .argument('<endpoint>', 'endpoint id (ep_…)')
    .requiredOption(
      '--forward <url>',
      'where to send each delivery, e.g. http://localhost:3000/hook',
      (v) => httpUrl(v).href,
    )
    .option(
      '--target <id>',
      "the endpoint's CLI session target to listen for (default: its only one, created if it has none)",
    )
    .option(
      '--mirror <percent>',
      "receive a sample of the endpoint's events (e.g. 10%, chosen by event id) through a mirror target, created if it has none; its other targets get every event as before",
      (v) => {
        const percent = mirrorPercent(v);
        if (percent === null) throw new InvalidArgumentError('a whole percent from 1 to 100, e.g. 10%');
        return percent;
      },
    )
    .addHelpText(
      'after',
      `
Events sent while no session listens are kept for the next one (up to ${CLI_BACKLOG_MAX_DELIVERIES.toLocaleString('en-US')}, for ${CLI_BACKLOG_MAX_AGE_MS / 3_600_000} h)
and delivered first when it connects, one at a time, in the order they were accepted.`,
    )
    .action(async (endpointId: string, o: { forward: string; target?: string; mirror?: number }) => {
      const { api, apiUrl, apiKey } = connection(program);
      const targetId = await cliTargetOf(api, {
        endpointId,
        err,
        ...(o.target ? { targetId: o.target } : {}),
        ...(o.mirror === undefined ? {} : { mirrorPercent: o.mirror }),
      });
      const session = listen({ apiUrl, apiKey, endpointId, forward: new URL(o.forward), out, err }, targetId);
      process.once('SIGINT', () => session.stop());
      process.once('SIGTERM', () => session.stop());
      await session.done;
    });

  return program;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (e) {
    // commander printed the usage error (or the help asked for)
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      err(`relay: ${e.message}`);
      return 2;
    }
    if (e instanceof Failed) return 1;
    if (e instanceof ApiError) err(`relay: ${e.message} (${e.code})`);
    else err(`relay: ${(e as Error).message}`);
    return 1;
  }
}
