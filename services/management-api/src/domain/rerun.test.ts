import { notRerunnable, rerunEnvelope } from './rerun';

const stored = {
  request: { method: 'POST', source_ip: '203.0.113.7', headers: { 'x-team': 'blue' }, query: 'a=1' },
  payload: { content_type: 'application/json', body_base64: Buffer.from('{"a":1}').toString('base64') },
};

describe('re-run (docs/management-api.md "Re-run")', () => {
  it('only a kept request can be re-run; each other row says why not', () => {
    expect(notRerunnable({ quarantine: 'kept' })).toBeNull();
    expect(notRerunnable({ quarantine: 'bound_reached' })).toBe('quarantine_bound_reached');
    expect(notRerunnable({})).toBe('not_quarantined');
  });

  it('sends the kept request as the sender did, its Content-Type back among the headers', () => {
    expect(rerunEnvelope({ id: 'evt_1', endpoint_id: 'ep_1' }, stored)).toEqual({
      endpoint_id: 'ep_1',
      method: 'POST',
      headers: { 'x-team': 'blue', 'content-type': 'application/json' },
      query: 'a=1',
      body_base64: stored.payload.body_base64,
      source_ip: '203.0.113.7',
      rerun_of: 'evt_1',
    });
    const bodiless = { ...stored, payload: { content_type: null, body_base64: '' } };
    expect(rerunEnvelope({ id: 'evt_1', endpoint_id: 'ep_1' }, bodiless).headers).toEqual({ 'x-team': 'blue' });
  });

  it('a re-run of a re-run names the first request: one de-duplication key for the whole chain', () => {
    expect(rerunEnvelope({ id: 'evt_2', endpoint_id: 'ep_1', rerun_of: 'evt_1' }, stored).rerun_of).toBe('evt_1');
  });
});
