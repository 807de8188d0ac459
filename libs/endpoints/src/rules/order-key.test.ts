import { MAX_ORDER_KEY_LENGTH } from '@relay/contracts';
import { compileOrderKey } from './order-key';

describe('compileOrderKey (docs/ordering.md "The key")', () => {
  const byPath = compileOrderKey({ from: 'path', path: 'data.id' });
  const byHeader = compileOrderKey({ from: 'header', header: 'X-Order-Key' });

  it.each([
    ['a string', { data: { id: 'ord_1' } }, 'ord_1'],
    ['a number, as JSON writes it', { data: { id: 42 } }, '42'],
    ['a missing field', { data: {} }, null],
    ['an empty string', { data: { id: '' } }, null],
    ['an object', { data: { id: { a: 1 } } }, null],
    ['a boolean', { data: { id: true } }, null],
    ['null', { data: { id: null } }, null],
    ['an array on the way', { data: [{ id: 'x' }] }, null],
  ])('reads a payload field: %s', (_what, data, key) => {
    expect(byPath({}, data)).toBe(key);
  });

  it('reads a request header by its name in any case, the first of several values', () => {
    expect(byHeader({ 'x-order-key': 'abc' }, undefined)).toBe('abc');
    expect(byHeader({ 'x-order-key': ['first', 'second'] }, undefined)).toBe('first');
    expect(byHeader({}, undefined)).toBeNull();
    expect(byHeader({ 'x-order-key': '' }, undefined)).toBeNull();
  });

  it(`cuts a key to ${MAX_ORDER_KEY_LENGTH} characters`, () => {
    expect(byPath({}, { data: { id: 'k'.repeat(1000) } })).toBe('k'.repeat(MAX_ORDER_KEY_LENGTH));
  });
});
