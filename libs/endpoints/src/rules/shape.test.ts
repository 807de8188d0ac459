import { SHAPE_LIMITS, diffShapes, shapeEntries, shapeOf, shapeRecord } from './shape';

const idOf = (data: unknown): string => shapeRecord(shapeOf(data).shape).id;

describe('shapeOf (docs/contracts.md "Drift")', () => {
  it('names each field path with its type, array items collapsed', () => {
    const { shape, truncated } = shapeOf({ id: 'a', n: 1.5, ok: true, none: null, items: [{ sku: 'x' }, { sku: 2 }] });
    expect(shapeEntries(shape)).toEqual([
      ['$', 'object'],
      ['$.id', 'string'],
      ['$.items', 'array'],
      ['$.items[]', 'object'],
      ['$.items[].sku', 'integer|string'],
      ['$.n', 'number'],
      ['$.none', 'null'],
      ['$.ok', 'boolean'],
    ]);
    expect(truncated).toBe(false);
  });

  it('gives the same id to the same shape whatever the values and the key order', () => {
    expect(idOf({ a: 1, b: 'x' })).toBe(idOf({ b: 'y', a: 2 }));
    expect(idOf({ a: 1 })).not.toBe(idOf({ a: '1' }));
    expect(idOf({ a: [1, 'x'] })).toBe(idOf({ a: ['y', 2] }));
  });

  it(`keeps at most ${SHAPE_LIMITS.maxPaths} paths and ${SHAPE_LIMITS.maxDepth} levels`, () => {
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const a = shapeOf(wide);
    expect(a.shape.size).toBe(SHAPE_LIMITS.maxPaths);
    expect(a.truncated).toBe(true);
    let deep: unknown = 1;
    for (let i = 0; i < 50; i++) deep = { d: deep };
    const b = shapeOf(deep);
    expect(b.shape.size).toBe(SHAPE_LIMITS.maxDepth + 1);
    expect(b.truncated).toBe(true);
  });
});

describe('diffShapes', () => {
  it('lists fields added, removed and retyped', () => {
    const before = shapeOf({ id: 'a', amount: 1, old: true }).shape;
    const after = shapeOf({ id: 'a', amount: '1', fresh: {} }).shape;
    expect(diffShapes(before, after)).toEqual({
      added: ['$.fresh'],
      removed: ['$.old'],
      retyped: ['$.amount: integer → string'],
    });
    expect(diffShapes(before, before)).toEqual({ added: [], removed: [], retyped: [] });
  });
});
