import { classifyRedisAppend } from './classify';

const failed = (code: string, message = code) => classifyRedisAppend({ error: { code, message } });

describe('Redis Streams outcomes', () => {
  it('an entry id is a success, with no status code', () => {
    expect(classifyRedisAppend({ id: '1700000000000-0' })).toEqual({ result: 'success', status: null });
  });

  it.each([
    ['WRONGPASS', 'check the user and password in the URL'],
    ['NOAUTH', 'add it to the URL'],
    ['NOPERM', 'grant it +xadd'],
    ['WRONGTYPE', 'not a stream'],
    ['MOVED', 'clusters are not supported'],
  ])('%s flags the target: %s', (code, reason) => {
    expect(failed(code)).toEqual({
      result: 'permanent',
      status: null,
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it('an ERR reply flags the target with the server’s words, never a URL', () => {
    expect(failed('ERR', 'ERR DB index is out of range')).toEqual({
      result: 'permanent',
      status: null,
      error: 'Redis refused XADD: ERR DB index is out of range',
      flagTarget: true,
    });
    expect(failed('ERR', 'ERR bad redis://:pw@h')).toMatchObject({ error: 'Redis refused XADD: ERR bad <url>' });
  });

  it.each([['SSRF_BLOCKED'], ['SELF_SIGNED_CERT_IN_CHAIN']])('%s: not dialled, the target flagged', (code) => {
    expect(failed(code)).toMatchObject({ result: 'permanent', flagTarget: true });
  });

  it.each([
    ['ECONNREFUSED'],
    ['ETIMEDOUT'],
    ['ECONNCLOSED'],
    ['ENOTFOUND'],
    ['LOADING'],
    ['BUSY'],
    ['OOM'],
    ['READONLY'],
    ['MASTERDOWN'],
  ])('%s is retried on the schedule', (code) => {
    expect(failed(code)).toEqual({ result: 'retry', status: null, error: `Redis unavailable (${code})` });
  });
});
