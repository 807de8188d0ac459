import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DELIVERY_V1 } from '@relay/contracts';
import { createDefaultRegistry } from '@relay/targets';
import { applyTransformations } from './apply';
import { DEFAULT_LIMITS } from './limits';
import type { Carried, TransformContext } from './request';
import { Sandbox } from './sandbox';

/*
 * The examples of docs/transformations.md, read from the page and run in the sandbox on samples
 * of the providers' payloads (trimmed from their documentation), so the page cannot show code
 * that does not do what it says. Results meant for a chat target are passed through that kind,
 * which must send them as they are.
 */

const PAGE = readFileSync(path.resolve(__dirname, '../../../docs/transformations.md'), 'utf8');

/** `### <title>` → its `js` block, under "## Examples". */
function examplesOf(page: string): Map<string, string> {
  const start = page.indexOf('\n## Examples\n');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const out = new Map<string, string>();
  for (const part of section.split('\n### ').slice(1)) {
    const title = part.slice(0, part.indexOf('\n'));
    const code = /```js\n([\s\S]*?)\n```/.exec(part)?.[1];
    if (code === undefined) throw new Error(`the example "${title}" has no js block`);
    out.set(title, code);
  }
  return out;
}
const EXAMPLES = examplesOf(PAGE);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.load();
});
afterAll(() => sandbox.close());

const registry = createDefaultRegistry({ secrets: { encrypt: (s) => s, decrypt: (s) => s } });

function carriedOf(body: unknown, headers: Record<string, string>): Carried {
  return {
    request: { method: 'POST', source_ip: '192.0.2.10', headers, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from(JSON.stringify(body)).toString('base64') },
  };
}

const contextOf = (provider: string, kind: string): TransformContext => ({
  event_id: 'evt_01example',
  received_at: '2026-11-28T10:00:00.000Z',
  endpoint: { id: 'ep_01example', name: provider },
  target: { id: 'tg_01example', name: 'example', kind },
  provider,
});

/** Runs the page's example `title` as a target's transformation on one request. */
async function run(
  title: string,
  sample: { body: unknown; headers?: Record<string, string>; provider: string; kind: string },
) {
  const code = EXAMPLES.get(title);
  if (code === undefined) throw new Error(`docs/transformations.md has no example "${title}"`);
  const r = await applyTransformations(
    async (tenant, c, args) => sandbox.call(tenant, c, args),
    'acc_examples',
    [{ scope: 'target', version: 1, code }],
    carriedOf(sample.body, sample.headers ?? {}),
    contextOf(sample.provider, sample.kind),
    DEFAULT_LIMITS.outputBytes,
  );
  if (r.result === 'failed') throw new Error(`"${title}" failed: ${r.error}`);
  return r;
}

/** A GitHub delivery of `event` (its `X-GitHub-Event`) through the example `title`. */
const fromGithub = (title: string, event: string, body: unknown, kind = 'webhook') =>
  run(title, { body, headers: { 'x-github-event': event }, provider: 'github', kind });

/** The body a target of `kind` sends for what the transformation passed on. */
function sentBy(kind: string, config: Record<string, unknown>, carried: Carried): unknown {
  const k = registry.get(kind);
  if (!k || !('buildRequest' in k)) throw new Error(`${kind} is not a kind that sends one POST`);
  const v = k.validateConfig(config);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  const request = k.buildRequest(v.value, {
    type: DELIVERY_V1,
    event_id: 'evt_01example',
    delivery_id: 'dlv_01example',
    attempt: 1,
    account_id: 'acc_examples',
    endpoint_id: 'ep_01example',
    target_id: 'tg_01example',
    target_kind: kind,
    received_at: '2026-11-28T10:00:00.000Z',
    ...carried,
  });
  return JSON.parse(request.body.toString('utf8'));
}

const bodyOf = (carried: Carried): unknown =>
  JSON.parse(Buffer.from(carried.payload.body_base64, 'base64').toString('utf8'));

// https://docs.stripe.com/api/events/object, a charge.succeeded
const STRIPE_CHARGE = {
  id: 'evt_3QBkT2LkdIwHu7ix0cYw8Kq1',
  object: 'event',
  api_version: '2024-06-20',
  created: 1764324000,
  type: 'charge.succeeded',
  livemode: false,
  pending_webhooks: 1,
  request: { id: 'req_8aL0pZ3vWmXq1c', idempotency_key: 'f2b5c1d6-4e0a-4d7e-9c77-1d0e6f1b8a2e' },
  data: {
    object: {
      id: 'ch_3QBkT2LkdIwHu7ix0ZqL2mEr',
      object: 'charge',
      amount: 2000,
      amount_captured: 2000,
      currency: 'usd',
      customer: 'cus_R4xYQe3bB0x7Jk',
      description: 'Order 1042',
      paid: true,
      status: 'succeeded',
      receipt_url: 'https://pay.stripe.com/receipts/payment/CAcaFwoVYWNjdF8x',
    },
  },
};

// https://docs.github.com/en/webhooks/webhook-events-and-payloads#pull_request
const GITHUB_PULL_REQUEST = {
  action: 'opened',
  number: 42,
  pull_request: {
    url: 'https://api.github.com/repos/octo-org/shop/pulls/42',
    html_url: 'https://github.com/octo-org/shop/pull/42',
    number: 42,
    state: 'open',
    title: 'Refunds at checkout',
    user: { login: 'octocat', id: 1, type: 'User' },
    body: 'Adds partial refunds.',
    created_at: '2026-11-28T09:58:12Z',
    draft: false,
    merged: false,
    head: { label: 'octo-org:refunds', ref: 'refunds', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e' },
    base: { label: 'octo-org:main', ref: 'main', sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b' },
  },
  repository: { id: 1296269, name: 'shop', full_name: 'octo-org/shop', private: false },
  sender: { login: 'octocat', id: 1, type: 'User' },
};

// https://docs.github.com/en/webhooks/webhook-events-and-payloads#push
const GITHUB_PUSH = {
  ref: 'refs/heads/main',
  before: '9049f1265b7d61be4a8904a9a27120d2064dab3b',
  after: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
  repository: { id: 1296269, name: 'shop', full_name: 'octo-org/shop', private: false },
  pusher: { name: 'octocat', email: 'octocat@github.com' },
  sender: { login: 'octocat', id: 1 },
  commits: [
    {
      id: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
      message: 'Round refund totals half up\n\nMatches the invoice.',
      timestamp: '2026-11-28T09:57:01Z',
      url: 'https://github.com/octo-org/shop/commit/c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
      author: { name: 'Mona Lisa', email: 'mona@example.com', username: 'octocat' },
      added: [],
      removed: [],
      modified: ['refunds.ts'],
    },
  ],
};

// https://docs.gitlab.com/user/project/integrations/webhook_events/#push-events
const GITLAB_PUSH = {
  object_kind: 'push',
  event_name: 'push',
  before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
  after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  ref: 'refs/heads/master',
  checkout_sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  user_id: 4,
  user_name: 'John Smith',
  user_username: 'jsmith',
  project_id: 15,
  project: { id: 15, name: 'Diaspora', path_with_namespace: 'mike/diaspora', default_branch: 'master' },
  commits: [
    {
      id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      message: 'fixed readme\n',
      title: 'fixed readme',
      timestamp: '2012-01-03T23:36:29+02:00',
      url: 'http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
      added: ['CHANGELOG'],
      modified: ['app/controller/application.rb'],
      removed: [],
    },
  ],
  total_commits_count: 1,
};

const TESTED = [
  'Stripe → Slack text',
  'GitHub → Microsoft Teams card',
  'GitHub and GitLab pushes in one shape',
  'GitHub trimmed for a partner, pings dropped',
];

test('every example on the page is one of those tested here', () => {
  expect([...EXAMPLES.keys()]).toEqual(TESTED);
});

test('Stripe → Slack text: the charge as one line, sent by a block_chat target as the message text', async () => {
  const r = await run('Stripe → Slack text', { body: STRIPE_CHARGE, provider: 'stripe', kind: 'block_chat' });
  if (r.result !== 'pass') throw new Error(r.result);
  expect(bodyOf(r.carried)).toEqual({ text: 'charge.succeeded: 20 usd' });
  const sent = sentBy(
    'block_chat',
    { url: 'https://hooks.slack.com/services/T0001/B0001/XXXXXXXX', name: 'payments' },
    r.carried,
  );
  expect(sent).toMatchObject({ text: 'charge.succeeded: 20 usd' });
});

test('GitHub → Microsoft Teams card: a pull request as an Adaptive Card a teams target sends as it is; other events dropped', async () => {
  const title = 'GitHub → Microsoft Teams card';
  const r = await fromGithub(title, 'pull_request', GITHUB_PULL_REQUEST, 'teams');
  if (r.result !== 'pass') throw new Error(r.result);
  const message = bodyOf(r.carried) as { type: string; attachments: Array<{ contentType: string; content: any }> };
  expect(message.type).toBe('message');
  expect(message.attachments).toHaveLength(1);
  expect(message.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
  const card = message.attachments[0]!.content;
  expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
  expect(card.body).toEqual([
    { type: 'TextBlock', text: 'octo-org/shop: pull request opened', weight: 'Bolder', wrap: true },
    { type: 'TextBlock', text: '#42 Refunds at checkout', wrap: true },
    {
      type: 'FactSet',
      facts: [
        { title: 'Author', value: 'octocat' },
        { title: 'Branch', value: 'refunds → main' },
      ],
    },
  ]);
  expect(card.actions).toEqual([
    { type: 'Action.OpenUrl', title: 'Open on GitHub', url: 'https://github.com/octo-org/shop/pull/42' },
  ]);
  const workflow =
    'https://prod-12.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
  expect(sentBy('teams', { url: workflow, name: 'dev channel', format: 'adaptive_card' }, r.carried)).toEqual(message);

  expect((await fromGithub(title, 'push', GITHUB_PUSH, 'teams')).result).toBe('dropped');
});

test('GitHub and GitLab pushes in one shape: the same fields from either; other events dropped', async () => {
  const title = 'GitHub and GitLab pushes in one shape';
  const github = await fromGithub(title, 'push', GITHUB_PUSH);
  const gitlab = await run(title, {
    body: GITLAB_PUSH,
    headers: { 'x-gitlab-event': 'Push Hook' },
    provider: 'gitlab',
    kind: 'webhook',
  });
  if (github.result !== 'pass' || gitlab.result !== 'pass') throw new Error(`${github.result}, ${gitlab.result}`);
  expect(bodyOf(github.carried)).toEqual({
    source: 'github',
    repository: 'octo-org/shop',
    branch: 'main',
    after: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
    pushed_by: 'octocat',
    commits: [
      {
        id: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
        message: 'Round refund totals half up',
        author: 'Mona Lisa',
        url: 'https://github.com/octo-org/shop/commit/c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
      },
    ],
  });
  expect(bodyOf(gitlab.carried)).toEqual({
    source: 'gitlab',
    repository: 'mike/diaspora',
    branch: 'master',
    after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
    pushed_by: 'jsmith',
    commits: [
      {
        id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        message: 'fixed readme',
        author: 'GitLab dev user',
        url: 'http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      },
    ],
  });
  const issue = await fromGithub(title, 'issues', { action: 'opened', issue: { number: 7 } });
  expect(issue.result).toBe('dropped');
});

test('GitHub trimmed for a partner, pings dropped', async () => {
  const title = 'GitHub trimmed for a partner, pings dropped';
  const pr = await fromGithub(title, 'pull_request', GITHUB_PULL_REQUEST);
  if (pr.result !== 'pass') throw new Error(pr.result);
  expect(bodyOf(pr.carried)).toEqual({ repo: 'octo-org/shop', action: 'opened', event: 'evt_01example' });
  const ping = await fromGithub(title, 'ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
  expect(ping.result).toBe('dropped');
});
