import type { Request } from 'express';
import { checked } from './operation';
import type { ApiError } from './errors';

const req = (documentErrors: { field: string; message: string }[]): Request =>
  ({ documentErrors }) as unknown as Request;
const failure = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a 400');
};

describe('a handler’s own validation joined with the document’s (every problem at once)', () => {
  it('passes the value through when neither found a problem', () => {
    expect(checked(req([]), { ok: true, value: 7 })).toBe(7);
  });

  it('refuses what only the document found, even when the handler’s checks pass', () => {
    const err = failure(() =>
      checked(req([{ field: 'name', message: 'must be at most 200 characters' }]), { ok: true, value: 7 }),
    );
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'name', message: 'must be at most 200 characters' }],
    });
  });

  it('keeps the handler’s message for a field both name, and adds the document’s on other fields', () => {
    const err = failure(() =>
      checked(
        req([
          { field: 'methods[0]', message: 'must be a string' },
          { field: 'colour', message: 'is not a known field' },
        ]),
        {
          ok: false,
          errors: [{ field: 'methods', message: 'must be a non-empty list of POST, PUT' }],
        },
      ),
    );
    expect(err.errors).toEqual([
      { field: 'methods', message: 'must be a non-empty list of POST, PUT' },
      { field: 'colour', message: 'is not a known field' },
    ]);
    expect(err.message).toBe('methods: must be a non-empty list of POST, PUT; colour: is not a known field');
  });
});
