import type { AwsFailure } from '../transports/aws';
import { classifyAwsFailure, THROTTLED_RETRY_MS } from './aws-outcome';
import type { AwsOutcomeRules } from './aws-outcome';

/** A service of the test's own: each rule's one code, to see what the shared reading does with it. */
const rules: AwsOutcomeRules = {
  service: 'Svc',
  operation: 'Put',
  fixes: { NoSuchThing: 'the thing does not exist (NoSuchThing)' },
  throttled: new Set(['SlowDown']),
  transient: new Set(['RequestTimeTooSkewed']),
  refusedDelivery: (code) => code === 'TooLarge',
};
const classify = (failure: AwsFailure) => classifyAwsFailure(failure, rules);
const answer = (code: string, status: number, fault: 'client' | 'server' = status >= 500 ? 'server' : 'client') =>
  classify({ code, message: `${code} at https://svc.example.com/x said no`, status, fault });

describe('an AWS-style service’s failure, read the same way for every such kind', () => {
  it('a code the operator must fix flags the target with its reason', () => {
    expect(answer('NoSuchThing', 404)).toEqual({
      result: 'permanent',
      status: 404,
      error: 'the thing does not exist (NoSuchThing)',
      flagTarget: true,
    });
  });

  it('any other client error flags the target with the server words, no URL in them', () => {
    expect(answer('Weird', 400)).toEqual({
      result: 'permanent',
      status: 400,
      error: 'Svc refused Put (Weird: Weird at <url> said no)',
      flagTarget: true,
    });
  });

  it('refused for this delivery only: permanent, the target not flagged', () => {
    expect(answer('TooLarge', 400)).toMatchObject({ result: 'permanent', flagTarget: false });
  });

  it('throttled: retried no sooner than the hint; a server error or a transient code: retried on the schedule', () => {
    expect(answer('SlowDown', 503)).toEqual({
      result: 'retry',
      status: 503,
      error: 'Svc throttled the requests (SlowDown)',
      retryAfterMs: THROTTLED_RETRY_MS,
    });
    expect(answer('InternalError', 500)).toEqual({
      result: 'retry',
      status: 500,
      error: 'Svc unavailable (InternalError: InternalError at <url> said no)',
    });
    expect(answer('RequestTimeTooSkewed', 403)).toMatchObject({ result: 'retry', status: 403 });
  });

  it.each([['ECONNREFUSED'], ['ECONNRESET'], ['ETIMEDOUT']])('no answer (%s) is retried', (code) => {
    expect(classify({ code, message: code })).toEqual({
      result: 'retry',
      status: null,
      error: `Svc unavailable (${code})`,
    });
  });

  it('an address the SSRF guard refuses, or an untrusted certificate, flags the target', () => {
    for (const code of ['SSRF_BLOCKED', 'DEPTH_ZERO_SELF_SIGNED_CERT'])
      expect(classify({ code, message: code })).toEqual({
        result: 'permanent',
        status: null,
        error: `Svc not dialled (${code})`,
        flagTarget: true,
      });
  });
});
