import { CATALOG, createCatalog } from './catalog';
import type { CatalogEntry } from './catalog';
import type { TargetKind } from './kind';

/** A kind that exists only in this test: a pager on the chat channel with a schedule of its own. */
const pager: TargetKind = {
  kind: 'test_pager',
  channel: 'chat',
  defaultRetryScheduleMs: [7_000, 90_000],
  description: { label: 'Test pager', fields: {} },
  resendable: true,
  validateConfig: (input) => ({ ok: true, value: input }),
  publicConfig: () => ({}),
  buildRequest: () => ({ url: 'https://pager.example/', headers: {}, body: Buffer.alloc(0) }),
  classify: () => ({ result: 'success', status: 200 }),
};
const pagerEntry: CatalogEntry = {
  kind: 'test_pager',
  channel: 'chat',
  defaultRetryScheduleMs: pager.defaultRetryScheduleMs,
  description: pager.description,
  resendable: pager.resendable,
  create: () => pager,
};
const deps = { secrets: { encrypt: (s: string) => s, decrypt: (s: string) => s } };

describe('the catalog: one line per kind, everything else derived from it', () => {
  it("the spec's kinds and their channels (email and spreadsheet on their own deliverer); a kind added later needs no edit here", () => {
    expect(CATALOG.entries.slice(0, 5).map((e) => [e.kind, e.channel])).toEqual([
      ['webhook', 'webhook'],
      ['embed_chat', 'chat'],
      ['block_chat', 'chat'],
      ['email', 'outputs'],
      ['spreadsheet', 'outputs'],
    ]);
    for (const e of CATALOG.entries) expect(CATALOG.channelOf(e.kind)).toBe(e.channel);
    expect(CATALOG.channelOf('nope')).toBeUndefined();
  });

  it('a kind registered with one more line is routed, built and scheduled like the shipped ones', () => {
    const catalog = createCatalog([...CATALOG.entries, pagerEntry]);
    expect(catalog.channelOf('test_pager')).toBe('chat');
    expect(catalog.schedulesOn('chat')).toContain(pager.defaultRetryScheduleMs);
    expect(catalog.schedulesOn('webhook')).not.toContain(pager.defaultRetryScheduleMs);
    expect(catalog.createRegistry(deps).get('test_pager')).toBe(pager);
  });

  it('refuses a kind listed twice, and an entry that does not match the kind it builds', () => {
    expect(() => createCatalog([...CATALOG.entries, pagerEntry, pagerEntry])).toThrow('duplicate target kind');
    const lying = createCatalog([{ ...pagerEntry, defaultRetryScheduleMs: [1_000] }]);
    expect(() => lying.createRegistry(deps)).toThrow('catalog entry test_pager does not match its kind');
    const resending = createCatalog([{ ...pagerEntry, resendable: false }]);
    expect(() => resending.createRegistry(deps)).toThrow('catalog entry test_pager does not match its kind');
  });

  it('says of every shipped kind whether its request may be sent again inside an attempt: never a Sheets append, an email, a stream entry or a broker message', () => {
    expect(Object.fromEntries(CATALOG.entries.map((e) => [e.kind, e.resendable]))).toEqual({
      webhook: true,
      embed_chat: true,
      block_chat: true,
      email: false,
      spreadsheet: false,
      telegram: true,
      teams: true,
      cli: false,
      redis_stream: false,
      amqp_exchange: false,
      mqtt: false,
      nats_jetstream: false,
      sqs: false,
      s3: false,
      kafka: false,
    });
  });
});
