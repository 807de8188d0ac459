import { addressProblem, validateEmailConfig } from './config';
import { MAX_RECIPIENTS } from './limits';

describe('email target settings', () => {
  it('accepts to/cc/bcc, a subject template and a reply-to', () => {
    expect(
      validateEmailConfig({
        to: ['ops@example.com'],
        cc: ['a@b.co'],
        bcc: ['c@d.co'],
        subject: 'New {{type}}',
        reply_to: 'help@example.com',
      }),
    ).toEqual({
      ok: true,
      value: {
        to: ['ops@example.com'],
        cc: ['a@b.co'],
        bcc: ['c@d.co'],
        subject: 'New {{type}}',
        reply_to: 'help@example.com',
      },
    });
  });

  it('to is required; cc, bcc, subject and reply_to are optional', () => {
    expect(validateEmailConfig({})).toEqual({
      ok: false,
      errors: [{ field: 'config.to', message: 'to is required: at least one address' }],
    });
    expect(validateEmailConfig({ to: [] })).toMatchObject({ ok: false, errors: [{ field: 'config.to' }] });
    expect(validateEmailConfig({ to: ['a@b.co'] })).toEqual({
      ok: true,
      value: { to: ['a@b.co'], cc: [], bcc: [], subject: '' },
    });
    expect(validateEmailConfig({ to: [' a@b.co'] })).toMatchObject({ ok: false, errors: [{ field: 'config.to[0]' }] });
  });

  it(`at most ${MAX_RECIPIENTS} recipients across to, cc and bcc`, () => {
    const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}@example.com`);
    expect(validateEmailConfig({ to: many(25, 't'), cc: many(20, 'c'), bcc: many(5, 'b') }).ok).toBe(true);
    expect(validateEmailConfig({ to: many(25, 't'), cc: many(20, 'c'), bcc: many(6, 'b') })).toMatchObject({
      ok: false,
      errors: [{ field: 'config.to', message: expect.stringContaining('at most 50') }],
    });
  });

  it('reports every problem at its field', () => {
    const v = validateEmailConfig({
      to: ['not-an-address', 7],
      cc: 'x@y.co',
      subject: 5,
      reply_to: 'a@',
      colour: 'red',
    });
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors.map((e) => e.field).sort()).toEqual([
        'config.cc',
        'config.colour',
        'config.reply_to',
        'config.subject',
        'config.to[0]',
        'config.to[1]',
      ]);
  });

  it.each([
    ['ops@example.com', null],
    ['first.last+tag@sub.example.co.uk', null],
    ['x@xn--bcher-kva.example', null],
    ['a,b@example.com', 'must be an address of the form name@example.com'],
    ['Ops <ops@example.com>', 'must be an address of the form name@example.com'],
    ['a@b', 'must be an address of the form name@example.com'],
    ['"quoted"@example.com', 'must be an address of the form name@example.com'],
    ['a@example.com\r\n', 'must not contain a line break (CR or LF)'],
    [`${'l'.repeat(65)}@example.com`, 'must have at most 64 characters before the @'],
  ])('address %j → %j', (address, problem) => {
    expect(addressProblem(address)).toBe(problem);
  });
});
