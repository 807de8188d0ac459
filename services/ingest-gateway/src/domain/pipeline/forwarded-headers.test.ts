import { forwardableHeaders } from './forwarded-headers';

describe('forwardableHeaders: what a delivery message may carry to targets', () => {
  it("drops the never-forwarded list (rule 4, Relay's namespace, the sender's hop headers) and the endpoint's own credential headers", () => {
    const out = forwardableHeaders(
      {
        host: 'relay.example',
        authorization: 'Bearer s',
        cookie: 'c',
        'x-relay-delivery-id': 'd',
        'x-relay-anything': 'r',
        'x-forwarded-for': '10.0.0.1',
        forwarded: 'for=10.0.0.1',
        via: '1.1 proxy',
        'x-real-ip': '10.0.0.1',
        'content-encoding': 'gzip',
        'x-inbound-key': 'k',
        'x-shop': 'a',
        'x-multi': ['1', '2'],
        'x-none': undefined,
      },
      new Set(['x-inbound-key']),
    );
    expect(out).toEqual({ 'x-shop': 'a', 'x-multi': '1, 2' });
  });
});
