import type { TeamsConfig } from '../../../libs/targets/src/kinds/teams';
import { startFakeTeams, TEAMS_HOST } from '../../support/fake-teams';
import type { FakeTeams } from '../../support/fake-teams';
import { delivery, TEAMS_SIG, TEAMS_URL, TEAMS_WORKFLOW, teamsKind } from './fixtures';

/*
 * The Teams kind against a local HTTPS fake of a Workflows trigger (test/support/fake-teams.ts):
 * every attempt goes through Relay's sender with TLS verified and the SSRF guard on, the real
 * host pointed at loopback.
 */
let fake: FakeTeams;
const stored = (over: Partial<TeamsConfig> & { url?: string } = {}): TeamsConfig => {
  const v = teamsKind.validateConfig({ url: TEAMS_URL, name: 'ops', ...over });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value;
};

beforeAll(async () => {
  fake = await startFakeTeams();
  fake.addWorkflow(TEAMS_WORKFLOW, TEAMS_SIG);
  fake.addWorkflow('0ff0ff0ff0ff0ff0ff0ff0ff0ff0ff0', TEAMS_SIG);
  fake.disable('0ff0ff0ff0ff0ff0ff0ff0ff0ff0ff0');
});
afterAll(() => fake.close());
afterEach(() => fake.setRateLimit(null));

async function deliver(
  payload: unknown,
  config: TeamsConfig = stored(),
  contentType: string | null = 'application/json',
) {
  const outcome = await fake.send(teamsKind.buildRequest(config, delivery(payload, contentType, 'teams')));
  return { result: teamsKind.classify(outcome), posted: fake.posted.at(-1) };
}

describe('Teams target against the fake Workflows trigger (HTTPS)', () => {
  it('posts an Adaptive Card through the sealed URL: 202 Accepted → success', async () => {
    expect(stored().url).not.toContain(TEAMS_SIG);
    const { result, posted } = await deliver({ order: 7 });
    expect(result).toEqual({ result: 'success', status: 202 });
    expect(posted!.body).toMatchObject({
      type: 'message',
      attachments: [{ content: { type: 'AdaptiveCard', body: [{ text: '{\n  "order": 7\n}' }] } }],
    });
  });

  it('format text posts {"text"}; a card payload passes through', async () => {
    expect((await deliver({ id: 1 }, stored({ format: 'text', template: 'Order {{id}}' }))).posted!.body).toEqual({
      text: 'Order 1',
    });
    const card = { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'TextBlock', text: 'hi' }] };
    expect((await deliver(card)).posted!.body).toMatchObject({ attachments: [{ content: card }] });
  });

  it('28 KB: the fake refuses a larger body with 413, the kind cuts its text so it is accepted', async () => {
    const huge = { text: 'x'.repeat(40_000) };
    const raw = await fake.send({
      url: TEAMS_URL,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(huge)),
    });
    expect(teamsKind.classify(raw)).toMatchObject({ result: 'permanent', status: 413, flagTarget: false });
    for (const format of ['adaptive_card', 'text'] as const) {
      const { result } = await deliver('é'.repeat(40_000), stored({ format }), 'text/plain');
      expect(result.result).toBe('success');
      expect(fake.requests.at(-1)!.body.length).toBeLessThanOrEqual(28 * 1024);
    }
  });

  it('more than four requests a second → 429 → retry after Retry-After', async () => {
    fake.setRateLimit(4);
    // six at once, so they fall in one second of the fake's however slow the machine is
    const results = (await Promise.all(Array.from({ length: 6 }, (_, i) => deliver({ i })))).map((d) => d.result);
    expect(results.filter((r) => r.result === 'success').length).toBeLessThanOrEqual(4);
    expect(results).toContainEqual(
      expect.objectContaining({ result: 'retry', status: 429, retryAfterMs: 1000, error: 'Teams 429 TooManyRequests' }),
    );
  });

  it('a regenerated sig, a deleted flow and a flow turned off flag the target; no error holds the URL', async () => {
    const cases = [
      stored({ url: TEAMS_URL.replace(TEAMS_SIG, 'regenerated0000000000000000') }),
      stored({ url: TEAMS_URL.replace(TEAMS_WORKFLOW, 'deadbeefdeadbeefdeadbeefdeadbeef') }),
      stored({ url: TEAMS_URL.replace(TEAMS_WORKFLOW, '0ff0ff0ff0ff0ff0ff0ff0ff0ff0ff0') }),
    ];
    const results = [];
    for (const c of cases) results.push((await deliver({}, c)).result);
    expect(results).toEqual([
      { result: 'permanent', status: 401, error: 'Teams 401 DirectApiInvalidAuthorizationSignature', flagTarget: true },
      { result: 'permanent', status: 404, error: 'Teams 404 WorkflowNotFound', flagTarget: true },
      { result: 'permanent', status: 409, error: 'Teams 409 WorkflowTriggerIsNotEnabled', flagTarget: true },
    ]);
    expect(JSON.stringify(results)).not.toContain(TEAMS_HOST);
  });
});
