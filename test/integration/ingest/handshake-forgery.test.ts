import { createHmac } from 'node:crypto';
import { HMAC_PRESET_INFO, MAC_HANDSHAKES, MAC_HANDSHAKES_PER_MINUTE } from '@relay/endpoints';
import type { HandshakeKind } from '@relay/endpoints';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';

/**
 * A handshake that answers a MAC made with the event key over text the requester chose is a
 * signature oracle. For every preset whose handshake computes a MAC (MAC_HANDSHAKES, read from
 * the catalog), on the real gateway: asking for the MAC of a forged event's signed content is
 * refused 400 without the MAC, the event posted with what came back is 401, and an event whose
 * body is a token the handshake does answer is 401 with the answered MAC as its signature.
 */

/** The gateway's clock, mid-minute: the MAC handshake counter is per minute. */
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
const TS = String(Math.floor(NOW.getTime() / 1000));

interface Answer {
  status: number;
  text: string;
  retryAfter: string | null;
}

/**
 * How each MAC handshake is asked for a MAC over `token`, where the MAC is in its answer, and
 * how an event of that preset carries a signature. A MAC handshake without a row here fails the
 * test below: a new one cannot ship without its forgery test.
 */
interface ForgeryDriver {
  /** the text the event signature covers for `body` */
  signedContent(body: string): string;
  ask(call: Caller, secret: string, token: string): Promise<Answer>;
  macIn(answer: Answer): string | undefined;
  /** the event's headers carrying `mac` as its signature */
  eventHeaders(mac: string): Record<string, string>;
  /** the MAC the handshake computes, as it would appear in its answer */
  expectedMac(secret: string, text: string): string;
}

type Caller = (init: {
  method?: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<Answer>;

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text);
const zoomSigned = (secret: string, body: string) => `v0=${hmac(secret, `v0:${TS}:${body}`).digest('hex')}`;

const DRIVERS: { readonly [K in HandshakeKind]?: ForgeryDriver } = {
  x_crc: {
    signedContent: (body) => body,
    ask: (call, _secret, token) => call({ method: 'GET', query: `crc_token=${encodeURIComponent(token)}` }),
    macIn: (answer) => jsonField(answer.text, 'response_token'),
    eventHeaders: (mac) => ({ 'content-type': 'application/json', 'x-twitter-webhooks-signature': mac }),
    expectedMac: (secret, text) => `sha256=${hmac(secret, text).digest('base64')}`,
  },
  // Zoom signs its url_validation: the strongest requester is one who can make Zoom send any plainToken.
  zoom_url_validation: {
    signedContent: (body) => `v0:${TS}:${body}`,
    ask: (call, secret, token) => {
      const body = JSON.stringify({ event: 'endpoint.url_validation', payload: { plainToken: token } });
      return call({
        headers: {
          'content-type': 'application/json',
          'x-zm-request-timestamp': TS,
          'x-zm-signature': zoomSigned(secret, body),
        },
        body,
      });
    },
    macIn: (answer) => jsonField(answer.text, 'encryptedToken'),
    eventHeaders: (mac) => ({
      'content-type': 'application/json',
      'x-zm-request-timestamp': TS,
      'x-zm-signature': `v0=${mac}`,
    }),
    expectedMac: (secret, text) => hmac(secret, text).digest('hex'),
  },
};

function jsonField(text: string, field: string): string | undefined {
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const macPresets = Object.entries(HMAC_PRESET_INFO)
  .filter(([, info]) => info.spec.handshake !== undefined && MAC_HANDSHAKES[info.spec.handshake] !== undefined)
  .map(([preset, info]) => ({ preset: preset as Preset, kind: info.spec.handshake! }));

let h: IngestHarness;
let gw: GatewayInstance;

beforeAll(async () => {
  h = await IngestHarness.start('handshake-forgery');
  gw = await h.gateway({ clock: () => NOW });
});

afterAll(async () => {
  await h?.stop();
});

function caller(endpointId: string): Caller {
  return async (init) => {
    const res = await fetch(`${gw.url}/relay/${endpointId}${init.query ? `?${init.query}` : ''}`, {
      method: init.method ?? 'POST',
      headers: init.headers,
      body: init.body,
    });
    return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
  };
}

type Preset = keyof typeof HMAC_PRESET_INFO;

async function macEndpoint(preset: Preset, secret: string): Promise<string> {
  return h.endpoint(await h.account(), { inbound_auth: { type: 'HMAC', preset, secrets: [h.seal(secret)] } });
}

it('the catalog has MAC handshakes, and every one has a forgery driver', () => {
  expect(macPresets.map((p) => p.preset).sort()).toEqual(['x', 'zoom']);
  expect(Object.keys(MAC_HANDSHAKES).filter((kind) => DRIVERS[kind as HandshakeKind] === undefined)).toEqual([]);
});

describe.each(macPresets)('$preset ($kind): the handshake signs no event', ({ preset, kind }) => {
  const driver = DRIVERS[kind]!;
  const secret = `${preset}-event-key`;

  it('asked for the MAC of a compact JSON event: 400 invalid_handshake_token, no MAC; the event with what came back: 401', async () => {
    const id = await macEndpoint(preset, secret);
    const call = caller(id);
    const event = JSON.stringify({ for_user_id: '2244994945', event: 'forged', n: 1 });
    const asked = await driver.ask(call, secret, driver.signedContent(event));
    expect([asked.status, jsonField(asked.text, 'code')]).toEqual([400, 'invalid_handshake_token']);
    const real = driver.expectedMac(secret, driver.signedContent(event));
    expect(asked.text).not.toContain(real.replace(/^sha256=/, ''));
    const forged = await call({ headers: driver.eventHeaders(driver.macIn(asked) ?? real.slice(0, 8)), body: event });
    expect([forged.status, jsonField(forged.text, 'code')]).toEqual([401, 'auth_failed']);
    const rows = await h.waitForRows(id, 2);
    expect(rows.map((r) => r.outcome)).toEqual([
      kind === 'x_crc' ? 'MALFORMED_QUERY_PARAM' : 'MALFORMED_PAYLOAD',
      'AUTH_FAILED',
    ]);
    await h.settle(gw);
    expect(h.deliveriesOf(id)).toEqual([]);
  });

  it('a token the handshake answers, posted as an event body with the answered MAC: 401', async () => {
    const id = await macEndpoint(preset, secret);
    const call = caller(id);
    // a JSON number: valid JSON, and in the token shape
    const token = '1234567890';
    expect(MAC_HANDSHAKES[kind]!.shape.test(token)).toBe(true);
    const asked = await driver.ask(call, secret, token);
    expect(asked.status).toBe(200);
    const mac = driver.macIn(asked);
    expect(mac).toBe(driver.expectedMac(secret, token));
    const forged = await call({ headers: driver.eventHeaders(mac!), body: token });
    expect([forged.status, jsonField(forged.text, 'code')]).toEqual([401, 'auth_failed']);
    await h.settle(gw);
    expect(h.deliveriesOf(id)).toEqual([]);
  });

  it(`answers at most ${MAC_HANDSHAKES_PER_MINUTE} a minute per endpoint, then 429 handshake_rate_limited with Retry-After`, async () => {
    const id = await macEndpoint(preset, secret);
    const other = await macEndpoint(preset, secret);
    const answers: Answer[] = [];
    for (let i = 0; i <= MAC_HANDSHAKES_PER_MINUTE; i++) answers.push(await driver.ask(caller(id), secret, `tok${i}`));
    expect(answers.map((a) => a.status)).toEqual([...Array<number>(MAC_HANDSHAKES_PER_MINUTE).fill(200), 429]);
    const refused = answers[MAC_HANDSHAKES_PER_MINUTE]!;
    // the clock is 30 s into its minute
    expect([refused.retryAfter, jsonField(refused.text, 'code'), driver.macIn(refused)]).toEqual([
      '30',
      'handshake_rate_limited',
      undefined,
    ]);
    // the count is the endpoint's own
    expect((await driver.ask(caller(other), secret, 'tok0')).status).toBe(200);
  });
});
