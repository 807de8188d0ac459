import { ALWAYS_REMOVED } from '../../../libs/targets/src/kinds/webhook';
import { TestReceiver } from '../../support/receiver';
import { attempt, delivery, kind, saveConfig } from './fixtures';

const SENTINEL = 'relay-test-sentinel';

describe('webhook header rules over the wire (spec "Forwarded request (outbound)")', () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await TestReceiver.start();
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.requests.length = 0;
  });
  const received = async () => (await receiver.waitForRequests(1))[0]!;

  it('header rule 1: configured outbound authentication headers are added', async () => {
    await attempt(
      saveConfig({ url: receiver.url(), auth: { type: 'bearer', token: 'out-token' } }),
      delivery({}, { authorization: 'Bearer sender-token' }),
    );
    expect((await received()).headers.authorization).toBe('Bearer out-token');
  });

  it('header rule 2: a custom header wins over a forwarded header of the same name', async () => {
    const config = saveConfig({
      url: receiver.url(),
      custom_headers: [{ name: 'X-Tenant', value: 'custom' }],
      forward_headers: { mode: 'all' },
    });
    await attempt(config, delivery({}, { 'x-tenant': 'forwarded', 'x-trace': 't-1' }));
    const req = await received();
    expect(req.headers['x-tenant']).toBe('custom');
    expect(req.headers['x-trace']).toBe('t-1');
    expect(req.rawHeaders.filter((h) => h.toLowerCase() === 'x-tenant')).toHaveLength(1);
  });

  it.each([
    ['Bearer', { type: 'bearer', token: 't' }, 'Authorization'],
    ['Basic', { type: 'basic', username: 'u', password: 'p' }, 'authorization'],
    ['API key', { type: 'api_key', header: 'X-Api-Key', key: 'k' }, 'X-API-KEY'],
  ])('header rule 3: a custom header may not use the name of the %s authentication header (%s)', (_n, auth, name) => {
    const r = kind.validateConfig({
      url: receiver.url(),
      enforce_https: false,
      auth,
      custom_headers: [{ name, value: 'x' }],
    });
    expect(r).toEqual({
      ok: false,
      errors: [{ field: 'config.custom_headers[0].name', message: expect.stringContaining('header rule 3') }],
    });
  });

  it.each(ALWAYS_REMOVED)('always removed: %s is not forwarded', async (name) => {
    // format None (no Content-Type of Relay's own), so a forwarded Content-Type could not hide behind an override
    const none = { payload: { content_type: null, body_base64: '' } };
    await attempt(
      saveConfig({ url: receiver.url(), forward_headers: { mode: 'all' } }),
      delivery(none, { [name.toLowerCase()]: SENTINEL, 'x-kept': 'yes' }),
    );
    const req = await received();
    expect(req.headers['x-kept']).toBe('yes');
    expect(req.headers[name.toLowerCase()]).not.toBe(SENTINEL);
    expect(req.rawHeaders).not.toContain(SENTINEL);
  });

  it.each([
    'X-Forwarded-For',
    'X-Forwarded-Host',
    'X-Forwarded-Proto',
    'X-Forwarded-Client-Cert',
    'Forwarded',
    'Via',
    'X-Real-IP',
    'Content-Encoding',
  ])(
    'never forwarded, beyond rule 4: a sender-supplied %s does not reach the target with forward-all',
    async (name) => {
      await attempt(
        saveConfig({ url: receiver.url(), forward_headers: { mode: 'all' } }),
        delivery({}, { [name.toLowerCase()]: SENTINEL, 'x-kept': 'yes' }),
      );
      const req = await received();
      expect(req.headers['x-kept']).toBe('yes');
      expect(req.rawHeaders).not.toContain(SENTINEL);
    },
  );

  it("an operator may still configure X-Forwarded-For as a custom header ({{originating_ip}}); Content-Encoding stays Relay's", async () => {
    await attempt(
      saveConfig({ url: receiver.url(), custom_headers: [{ name: 'X-Forwarded-For', value: '{{originating_ip}}' }] }),
      delivery({}, { 'x-forwarded-for': SENTINEL }),
    );
    expect((await received()).headers['x-forwarded-for']).toBe('198.51.100.7');
    expect(
      kind.validateConfig({
        url: receiver.url(),
        enforce_https: false,
        custom_headers: [{ name: 'Content-Encoding', value: 'gzip' }],
      }).ok,
    ).toBe(false);
    expect(
      kind.validateConfig({
        url: receiver.url(),
        enforce_https: false,
        forward_headers: { mode: 'list', names: ['X-Forwarded-For'] },
      }),
    ).toEqual({
      ok: false,
      errors: [{ field: 'config.forward_headers.names[0]', message: expect.stringContaining('never forwarded') }],
    });
  });

  it('header rule 4: a named forwarding list cannot name an always-removed header', () => {
    const r = kind.validateConfig({
      url: receiver.url(),
      enforce_https: false,
      forward_headers: { mode: 'list', names: ['Cookie'] },
    });
    expect(r.ok).toBe(false);
  });

  it('header rule 5: endpoint-specific headers the gateway removed are not emitted by the list or by templates', async () => {
    // the gateway strips required headers, the inbound API key / HMAC signature / chat-HMAC
    // timestamp headers before publishing, so request.headers never carries them
    const config = saveConfig({
      url: receiver.url(),
      forward_headers: {
        mode: 'list',
        names: ['X-Hub-Signature-256', 'X-Inbound-Key', 'X-Signature-Timestamp', 'X-Trace'],
      },
      custom_headers: [{ name: 'X-Echo', value: '{{originating_ip}}' }],
    });
    await attempt(config, delivery({}, { 'x-trace': 't-2' }));
    const req = await received();
    expect(req.headers['x-trace']).toBe('t-2');
    for (const h of ['x-hub-signature-256', 'x-inbound-key', 'x-signature-timestamp'])
      expect(req.headers).not.toHaveProperty(h);
    expect(req.headers['x-echo']).toBe('198.51.100.7');
  });

  it('a named list forwards only the listed headers present on the request', async () => {
    await attempt(
      saveConfig({ url: receiver.url(), forward_headers: { mode: 'list', names: ['X-A', 'X-Missing'] } }),
      delivery({}, { 'x-a': 'a', 'x-b': 'b' }),
    );
    const req = await received();
    expect(req.headers['x-a']).toBe('a');
    expect(req.headers).not.toHaveProperty('x-b');
    expect(req.headers).not.toHaveProperty('x-missing');
  });
});
