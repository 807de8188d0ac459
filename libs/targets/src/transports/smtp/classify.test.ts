import { classifySmtp, enhancedCodeOf } from './classify';
import type { SmtpOutcome } from './transport';

const failed = (code: string, responseCode: number | null, response = ''): SmtpOutcome => ({
  ok: false,
  error: { code, responseCode, response, message: '' },
  durationMs: 1,
});

describe('SMTP classification table', () => {
  it.each([
    ['421 relay busy', failed('EMESSAGE', 421, '421 4.3.2 Service shutting down'), { result: 'retry', status: 421 }],
    ['450 mailbox unavailable', failed('EENVELOPE', 450, '450 4.2.1 Mailbox busy'), { result: 'retry', status: 450 }],
    [
      '552 message too big',
      failed('EMESSAGE', 552, '552 5.3.4 Message size exceeds fixed limit'),
      { result: 'permanent', status: 552, flagTarget: false },
    ],
    [
      '550 5.1.1 unknown user',
      failed('EENVELOPE', 550, '550 5.1.1 <x@y.co>: User unknown'),
      { result: 'permanent', status: 550, flagTarget: true },
    ],
    [
      '550 5.1.10 null MX',
      failed('EENVELOPE', 550, '550 5.1.10 RESOLVER.ADR.RecipientNotFound'),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '550 user unknown, no enhanced code',
      failed('EENVELOPE', 550, '550 <x@y.co>... User unknown'),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '554 5.7.1 relay access denied',
      failed('EENVELOPE', 554, '554 5.7.1 <x@y.co>: Relay access denied'),
      { result: 'permanent', flagTarget: false },
    ],
    [
      'timeout',
      failed('ETIMEDOUT', null),
      { result: 'retry', status: null, error: 'mail relay unreachable (ETIMEDOUT)' },
    ],
    ['connection refused', failed('ESOCKET', null), { result: 'retry', status: null }],
    [
      'AUTH refused (535)',
      failed('EAUTH', 535, '535 5.7.8 Authentication credentials invalid'),
      { result: 'retry', status: 535 },
    ],
    ['STARTTLS not offered', failed('ETLS', null), { result: 'retry' }],
  ])('%s', (_name, outcome, expected) => {
    expect(classifySmtp(outcome)).toMatchObject(expected);
  });

  it('250 with every recipient taken → success with the reply code', () => {
    expect(classifySmtp({ ok: true, response: '250 2.0.0 Ok: queued as 1234', rejected: [], durationMs: 1 })).toEqual({
      result: 'success',
      status: 250,
    });
  });

  it('enhanced status codes are read only where RFC 3463 puts them', () => {
    expect(enhancedCodeOf('550 5.1.1 <a@b.co> unknown')).toBe('5.1.1');
    expect(enhancedCodeOf('550-5.1.1 first line')).toBe('5.1.1');
    expect(enhancedCodeOf('550 user 5.1.1 unknown')).toBeNull();
  });
});
