import { randomBytes } from 'node:crypto';
import { createInternalSigner } from './internal-signature';

const key = () => randomBytes(32).toString('base64');

describe('internal request signatures (management API → gateway test requests)', () => {
  const keys = `k1:${key()}`;
  const signer = createInternalSigner(keys, 'test-request');
  const body = Buffer.from('{"endpoint_id":"ep_1"}');

  it('verifies what it signed, within the allowed clock skew', () => {
    const now = Date.now();
    expect(signer.verify(signer.sign(body, now), body, now + 299_000)).toBe(true);
    expect(signer.verify(signer.sign(body, now), body, now + 301_000)).toBe(false);
  });

  it('refuses another body, another purpose, another key set, a missing or malformed header', () => {
    const sig = signer.sign(body);
    expect(signer.verify(sig, Buffer.from('{"endpoint_id":"ep_2"}'))).toBe(false);
    expect(createInternalSigner(keys, 'other-route').verify(sig, body)).toBe(false);
    expect(createInternalSigner(`k1:${key()}`, 'test-request').verify(sig, body)).toBe(false);
    for (const bad of [undefined, '', 't=1', 'garbage', sig.replace(/v1=[0-9a-f]+/, 'v1=zz')])
      expect(signer.verify(bad, body)).toBe(false);
  });

  it('accepts a signature by any configured key, so keys can rotate (new key first, old still listed)', () => {
    const oldKey = `old:${key()}`;
    const before = createInternalSigner(oldKey, 'test-request');
    const after = createInternalSigner(`new:${key()},${oldKey}`, 'test-request');
    expect(after.verify(before.sign(body), body)).toBe(true);
  });
});
