import { resendable } from './resend';

const payload = {
  request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
  payload: { content_type: 'application/json', body_base64: 'e30=' },
};

describe('which events can be delivered again', () => {
  it('an accepted event whose payload is stored', () => {
    expect(resendable({ outcome: 'ACCEPTED', aggregate: null }, payload)).toBeNull();
    expect(resendable({ outcome: 'ACCEPTED', aggregate: null }, null)).toBe('payload_not_stored');
  });

  it('not a refused request, nor an aggregated row', () => {
    expect(resendable({ outcome: 'AUTH_FAILED', aggregate: null }, payload)).toBe('not_accepted');
    const aggregate = { count: 3, first_seen: new Date(), last_seen: new Date() };
    expect(resendable({ outcome: 'AUTH_FAILED', aggregate }, null)).toBe('not_accepted');
  });

  it("waits, as for a payload on its way, while the gateway's record of the request has not reached the log", () => {
    // the record says what the event was routed to; until it comes the row has deliveries and no outcome
    expect(resendable({ outcome: null, aggregate: null }, payload)).toBe('payload_not_stored');
  });
});
