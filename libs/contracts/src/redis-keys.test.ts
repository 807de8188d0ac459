import { quotaKey, quotaMonth } from './redis-keys';

describe('the monthly quota counter key (shared by the gateway and the management API)', () => {
  it.each([
    ['2025-03-31T23:59:59.999Z', '2025-03'],
    ['2025-04-01T00:00:00.000Z', '2025-04'],
    ['2025-04-01T01:00:00+02:00', '2025-03'],
  ])('%s counts in the UTC calendar month %s', (at, month) => {
    expect(quotaMonth(new Date(at))).toBe(month);
    expect(quotaKey('relay', 'acc_1', quotaMonth(new Date(at)))).toBe(`relay:quota:acc_1:${month}`);
  });
});
