import { groupScope, scopesOfRow } from './keys';

describe('the scopes a row is listed under', () => {
  const row = { account_id: 'acc_1', endpoint_id: 'ep_1', status: 'completed', test: false };

  it('a completed row: its account and its endpoint only (Completed is most rows; the plain scope serves it)', () => {
    expect(scopesOfRow(row)).toEqual(['a:acc_1', 'e:ep_1']);
  });

  it('a row in Errors or Pending, and a test row, also under that group of each; a row with a reason or a delivery error under texts', () => {
    expect(scopesOfRow({ ...row, status: 'errors' })).toEqual(['a:acc_1', 'a:acc_1#errors', 'e:ep_1', 'e:ep_1#errors']);
    expect(scopesOfRow({ ...row, status: 'errors', reason: 'invalid bearer token' })).toEqual(['a:acc_1', 'a:acc_1#errors', 'a:acc_1#texts', 'e:ep_1', 'e:ep_1#errors', 'e:ep_1#texts']);
    expect(scopesOfRow({ ...row, status: 'pending', reason: null, last_error: 'HTTP 503' })).toEqual(['a:acc_1', 'a:acc_1#pending', 'a:acc_1#texts', 'e:ep_1', 'e:ep_1#pending', 'e:ep_1#texts']);
    expect(scopesOfRow({ ...row, status: 'pending', test: true })).toEqual(['a:acc_1', 'a:acc_1#pending', 'a:acc_1#test', 'e:ep_1', 'e:ep_1#pending', 'e:ep_1#test']);
    expect(groupScope('e:ep_1', 'test')).toBe('e:ep_1#test');
  });
});
