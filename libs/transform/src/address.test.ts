import { addressedUrl, addressOf, MAX_PATH_CHARS, MAX_QUERY_CHARS } from './address';
import type { Address } from './address';

/* Where a transformation's path and query send a webhook delivery (docs/transformations.md "What a result changes"). */

const RECEIVED = { path: '/relay/ep_1', query: 'a=1&b=2&b=3' };

describe('the address a result gives', () => {
  test.each<[string, Record<string, unknown>, Address | undefined]>([
    [
      'path and query as received: none (the target URL as it is)',
      { path: '/relay/ep_1', query: { a: '1', b: ['2', '3'] } },
      undefined,
    ],
    ['path and query left out: none', { body: 1 }, undefined],
    ['null path and query: as left out', { path: null, query: null }, undefined],
    [
      'the received query in another order, or one value as an array: unchanged',
      { query: { b: ['2', '3'], a: ['1'] } },
      undefined,
    ],
    ['a new path', { path: '/orders/7', query: { a: '1', b: ['2', '3'] } }, { path: '/orders/7' }],
    ['a new query, in its own order', { query: { z: 'x y', a: ['1', '2'] } }, { query: 'z=x+y&a=1&a=2' }],
    ['an emptied query', { query: {} }, { query: '' }],
    ['both', { path: '/', query: { t: '' } }, { path: '/', query: 't=' }],
    ['a path with escapes, spaces and non-ASCII, as it is', { path: '/a%2Fb/c d/é' }, { path: '/a%2Fb/c d/é' }],
    ['dots that are not a segment of their own', { path: '/a..b/.../.x/..x' }, { path: '/a..b/.../.x/..x' }],
  ])('%s', (_name, result, address) => {
    expect(addressOf(result, undefined, RECEIVED)).toEqual(address);
  });

  test('what the step before set is kept when left out, and undone by the received value', () => {
    const held = { path: '/orders', query: 'x=1' };
    expect(addressOf({ body: 1 }, held, RECEIVED)).toEqual(held);
    expect(addressOf({ path: '/relay/ep_1' }, held, RECEIVED)).toEqual({ query: 'x=1' });
    expect(addressOf({ path: '/relay/ep_1', query: { a: '1', b: ['2', '3'] } }, held, RECEIVED)).toBeUndefined();
  });

  test.each([
    ['a number', { path: 7 }, 'path must be a string starting with /'],
    ['a relative path', { path: 'orders' }, 'path must be a string starting with /'],
    ['an empty path', { path: '' }, 'path must be a string starting with /'],
    ['a path too long', { path: `/${'a'.repeat(MAX_PATH_CHARS)}` }, `path: at most ${MAX_PATH_CHARS} characters`],
    ['a line break', { path: '/a\r\nHost: evil' }, 'path holds a control character'],
    ['a NUL', { path: '/a\u0000' }, 'path holds a control character'],
    ['DEL', { path: '/a\u007f' }, 'path holds a control character'],
    ['a C1 control', { path: '/a\u0085' }, 'path holds a control character'],
    ['..', { path: '/a/../b' }, 'path holds a .. segment'],
    ['.. at the end', { path: '/..' }, 'path holds a .. segment'],
    ['.. escaped', { path: '/a/%2e%2E/b' }, 'path holds a .. segment'],
    ['.. half escaped', { path: '/.%2e' }, 'path holds a .. segment'],
    ['.. after a backslash', { path: '/a\\..\\b' }, 'path holds a .. segment'],
    ['.. after an escaped slash', { path: '/a%2F..%5Cb' }, 'path holds a .. segment'],
    ['a query that is a string', { query: 'a=1' }, 'query must be an object of names to strings or arrays of strings'],
    [
      'a query that is an array',
      { query: [['a', '1']] },
      'query must be an object of names to strings or arrays of strings',
    ],
    ['a number value', { query: { n: 1 } }, 'query.n must be a string or an array of strings'],
    ['an object value', { query: { n: { a: '1' } } }, 'query.n must be a string or an array of strings'],
    ['an array holding a number', { query: { n: ['1', 2] } }, 'query.n must be a string or an array of strings'],
    [
      'a query too long',
      { query: { q: 'a'.repeat(MAX_QUERY_CHARS) } },
      `query: at most ${MAX_QUERY_CHARS} characters as a query string`,
    ],
  ])('refused, naming the field: %s', (_name, result, message) => {
    expect(() => addressOf(result, undefined, RECEIVED)).toThrow(message);
  });

  test('the longest path and query are accepted', () => {
    const path = `/${'a'.repeat(MAX_PATH_CHARS - 1)}`;
    const q = 'a'.repeat(MAX_QUERY_CHARS - 2);
    expect(addressOf({ path, query: { q } }, undefined, RECEIVED)).toEqual({ path, query: `q=${q}` });
  });
});

describe('the URL a webhook target sends to', () => {
  test.each<[string, string, Address, string]>([
    [
      'nothing changed: the URL exactly as configured',
      'HTTPS://Hooks.Example.com:443/in',
      {},
      'HTTPS://Hooks.Example.com:443/in',
    ],
    [
      'the path appended to the URL’s path',
      'https://h.example/in',
      { path: '/orders/7' },
      'https://h.example/in/orders/7',
    ],
    ['one / between them', 'https://h.example/in/', { path: '/orders' }, 'https://h.example/in/orders'],
    ['a URL without a path', 'https://h.example', { path: '/orders' }, 'https://h.example/orders'],
    ['path /', 'https://h.example/in', { path: '/' }, 'https://h.example/in/'],
    [
      'the query after the URL’s own',
      'https://h.example/in?token=t',
      { query: 'a=1' },
      'https://h.example/in?token=t&a=1',
    ],
    ['the query alone', 'https://h.example/in', { query: 'a=1&a=2' }, 'https://h.example/in?a=1&a=2'],
    ['an emptied query: the URL’s own', 'https://h.example/in?token=t', { query: '' }, 'https://h.example/in?token=t'],
    [
      'both, the port kept',
      'http://127.0.0.1:8080/in?token=t',
      { path: '/orders', query: 'kind=charge' },
      'http://127.0.0.1:8080/in/orders?token=t&kind=charge',
    ],
    ['spaces and non-ASCII escaped', 'https://h.example/in', { path: '/a b/é' }, 'https://h.example/in/a%20b/%C3%A9'],
    ['escapes kept as they are', 'https://h.example/in', { path: '/a%2Fb' }, 'https://h.example/in/a%2Fb'],
    [
      '?, # and \\ are characters of the path',
      'https://h.example/in',
      { path: '/a?b#c\\d' },
      'https://h.example/in/a%3Fb%23c%5Cd',
    ],
    [
      '// cannot name another host',
      'https://h.example',
      { path: '//evil.example/x' },
      'https://h.example//evil.example/x',
    ],
    ['@ cannot name another host', 'https://h.example', { path: '/@evil.example' }, 'https://h.example/@evil.example'],
  ])('%s', (_name, url, address, sent) => {
    expect(addressedUrl(url, address)).toBe(sent);
    expect(new URL(addressedUrl(url, address)).host).toBe(new URL(url).host);
  });
});
