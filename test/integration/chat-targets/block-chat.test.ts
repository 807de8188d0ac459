import type { BlockChatConfig } from '../../../libs/targets/src/kinds/block_chat';
import type { OutboundRequest } from '@relay/targets';
import { startFakeSlack } from '../../support/fake-slack';
import type { FakeSlack } from '../../support/fake-slack';
import { SLACK_PATH, SLACK_URL, blockChatKind, delivery } from './fixtures';

const config: BlockChatConfig = { url: SLACK_URL, name: 'ops', markup: true };
const ARCHIVED_PATH = '/services/T0FAKE001/B0ARCHIVE/archivedSecret123456789';
let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack({ hooks: [SLACK_PATH], archived: [ARCHIVED_PATH] });
});
afterAll(() => fake.close());
afterEach(() => fake.setRateLimit(null));

async function deliver(
  payload: unknown,
  contentType: string | null = 'application/json',
  cfg: BlockChatConfig = config,
) {
  const outcome = await fake.send(blockChatKind.buildRequest(cfg, delivery(payload, contentType, 'block_chat')));
  return { result: blockChatKind.classify(outcome), saved: fake.messages.at(-1), last: fake.requests.at(-1)! };
}

function raw(body: string, url = SLACK_URL): OutboundRequest {
  return { url, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
}

describe('Block-style target against the fake Slack', () => {
  it('by default the payload is placed in the text field: 200 ok (text/html) → success', async () => {
    const { result, saved, last } = await deliver({ build: 42 });
    expect(result).toEqual({ result: 'success', status: 200 });
    expect(last.response).toBe('ok');
    expect(saved!.body).toEqual({ text: '```\n{\n  "build": 42\n}\n```' });
  });

  it('the government-variant host is sent the same way', async () => {
    const gov = { ...config, url: SLACK_URL.replace('hooks.slack.com', 'hooks.slack-gov.com') };
    expect((await deliver('hi', 'text/plain', gov)).result.result).toBe('success');
  });

  it('a payload that already has text, blocks or attachments keeps its structure', async () => {
    const payload = {
      text: 'fallback',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }],
      attachments: [{ text: 'a' }],
    };
    const { result, saved } = await deliver(payload);
    expect(result.result).toBe('success');
    expect(saved!.body).toEqual(payload);
  });

  it('a custom message template may be enabled', async () => {
    const { saved } = await deliver({ who: 'ann', what: '<!channel>' }, 'application/json', {
      ...config,
      template: '*{{who}}* said {{what}}',
    });
    expect(saved!.text).toBe('*ann* said &lt;!channel&gt;');
  });

  it('markup switch off → mrkdwn false reaches the platform', async () => {
    const { saved } = await deliver({ text: '*x*' }, 'application/json', { ...config, markup: false });
    expect(saved!.body).toEqual({ text: '*x*', mrkdwn: false });
  });

  describe('platform limits: the fake refuses the raw message, the kind cuts it so it is accepted', () => {
    const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
    it.each<[string, Record<string, unknown>, string]>([
      ['more than 50 blocks', { blocks: Array.from({ length: 55 }, (_v, i) => section(`b${i}`)) }, 'invalid_blocks'],
      ['section text over 3,000', { blocks: [section('s'.repeat(3500))] }, 'invalid_blocks'],
      [
        'more than 100 attachments',
        { attachments: Array.from({ length: 101 }, () => ({ text: 'a' })) },
        'too_many_attachments',
      ],
    ])('%s', async (_n, payload, error) => {
      const refused = await fake.send(raw(JSON.stringify(payload)));
      expect(blockChatKind.classify(refused)).toEqual({
        result: 'permanent',
        status: 400,
        error: `Slack 400 ${error}`,
        flagTarget: false,
      });
      expect((await deliver(payload)).result).toEqual({ result: 'success', status: 200 });
    });

    it('long message text is cut to 40,000 with a visible marker', async () => {
      const { result, saved } = await deliver('w'.repeat(50_000), 'text/plain');
      expect(result.result).toBe('success');
      expect(saved!.text!.length).toBe(40_000);
      expect(saved!.text!.endsWith('… (truncated)')).toBe(true);
    });
  });

  it.each<[string, OutboundRequest, number, string, boolean]>([
    ['bad JSON → 400 invalid_payload, permanent', raw('{nope'), 400, 'invalid_payload', false],
    ['no text/blocks/attachments → 400 no_text, permanent', raw('{"username":"x"}'), 400, 'no_text', false],
    [
      'unknown hook → 404 channel_not_found, permanent, target flagged',
      raw('{"text":"x"}', 'https://hooks.slack.com/services/T0FAKE001/B0NOPE/zzzzzzzzzzzz'),
      404,
      'channel_not_found',
      true,
    ],
    [
      'archived channel → 410 channel_is_archived, permanent, target flagged',
      raw('{"text":"x"}', `https://hooks.slack.com${ARCHIVED_PATH}`),
      410,
      'channel_is_archived',
      true,
    ],
  ])('%s', async (_n, req, status, body, flagTarget) => {
    const out = await fake.send(req);
    expect(out).toMatchObject({ response: { status, body } });
    expect(blockChatKind.classify(out)).toEqual({
      result: 'permanent',
      status,
      error: `Slack ${status} ${body}`,
      flagTarget,
    });
  });

  it('500 rollup_error → retry', async () => {
    fake.queueResponse({ status: 500, body: 'rollup_error' });
    expect((await deliver({ a: 1 })).result).toMatchObject({
      result: 'retry',
      status: 500,
      error: 'Slack 500 rollup_error',
    });
  });

  it('429 honours Retry-After', async () => {
    fake.setRateLimit({ limit: 1, windowSec: 3 });
    expect((await deliver({ n: 1 })).result.result).toBe('success');
    const { result, last } = await deliver({ n: 2 });
    expect(last.status).toBe(429);
    expect(result).toMatchObject({ result: 'retry', status: 429, retryAfterMs: expect.any(Number) });
    expect((result as { retryAfterMs: number }).retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect((result as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(3000);
  });
});
