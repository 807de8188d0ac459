import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { guardedLookup, SsrfBlockedError } from './agents';
import { createAddressPolicy } from './policy';

const policy = createAddressPolicy({ allowCidrs: [] });
const answering = (addresses: LookupAddress[]): LookupFunction => (_h, opts, cb) =>
  opts.all ? cb(null, addresses) : cb(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);

function resolve(lookup: LookupFunction, all: boolean): Promise<{ err: NodeJS.ErrnoException | null; address: unknown }> {
  return new Promise((done) => lookup('victim.example', { all }, (err, address) => done({ err, address })));
}

describe('guardedLookup: the check runs on the answer the socket dials (DNS rebinding)', () => {
  it('refuses a hostname whose answer is private, with SSRF_BLOCKED', async () => {
    const { err } = await resolve(guardedLookup(policy, answering([{ address: '10.0.0.7', family: 4 }])), false);
    expect(err).toBeInstanceOf(SsrfBlockedError);
    expect(err?.code).toBe('SSRF_BLOCKED');
    expect(err?.message).toBe('SSRF guard refused victim.example: 10.0.0.7 is a private address');
  });

  it('judges every answer of its own lookup, so a rebinding second answer is caught', async () => {
    let calls = 0;
    const rebinding: LookupFunction = (h, o, cb) => answering([{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }])(h, o, cb);
    const guarded = guardedLookup(policy, rebinding);
    expect((await resolve(guarded, false)).err).toBeNull();
    expect((await resolve(guarded, false)).err?.code).toBe('SSRF_BLOCKED');
  });

  it('with all addresses (happy eyeballs) drops refused ones and keeps the public ones', async () => {
    const mixed = answering([{ address: '127.0.0.1', family: 4 }, { address: '93.184.216.34', family: 4 }, { address: '::ffff:10.0.0.1', family: 6 }]);
    expect(await resolve(guardedLookup(policy, mixed), true)).toEqual({ err: null, address: [{ address: '93.184.216.34', family: 4 }] });
  });

  it('with all addresses refused, fails with SSRF_BLOCKED', async () => {
    const { err } = await resolve(guardedLookup(policy, answering([{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }])), true);
    expect(err?.code).toBe('SSRF_BLOCKED');
  });

  it('passes resolver errors through unchanged', async () => {
    const failing: LookupFunction = (_h, _o, cb) => cb(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }), '');
    expect((await resolve(guardedLookup(policy, failing), false)).err?.code).toBe('ENOTFOUND');
  });
});
