import { ALWAYS_REMOVED, isNeverForwarded, NEVER_FORWARDED_HOP_HEADERS } from './forwarding';

describe('one never-forwarded list for the gateway and the webhook kind (spec "Forwarded request (outbound)")', () => {
  it.each(ALWAYS_REMOVED)('rule 4: %s is never forwarded, whatever its case', (name) => {
    expect(isNeverForwarded(name.toLowerCase())).toBe(true);
  });

  it.each(['x-relay-anything', 'x-relay-forward-chain'])("Relay's namespace: %s is never forwarded", (name) => {
    expect(isNeverForwarded(name)).toBe(true);
  });

  it.each([
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'x-forwarded-port',
    'x-forwarded-client-cert',
    'forwarded',
    'via',
    'x-real-ip',
    'content-encoding',
  ])("the sender's hop headers: %s is never forwarded", (name) => expect(isNeverForwarded(name)).toBe(true));

  it("lists the hop headers it adds to the spec's, for the docs", () => {
    expect(NEVER_FORWARDED_HOP_HEADERS).toEqual(['Forwarded', 'Via', 'X-Real-IP', 'X-Forwarded-*', 'Content-Encoding']);
  });

  it.each(['x-shop-domain', 'user-agent', 'accept-language', 'x-request-id', 'x-forwarded', 'x-relayed'])(
    'an ordinary header (%s) may be forwarded',
    (name) => {
      expect(isNeverForwarded(name)).toBe(false);
    },
  );
});
