import type { SendOutcome } from '../../kind';
import { classifyTeams } from './classify';

const answer = (status: number, body = '', headers: Record<string, string> = {}): SendOutcome => ({
  response: { status, headers, body },
  durationMs: 1,
});
const azure = (code: string, message = 'the workflow https://prod-1.x.logic.azure.com/…?sig=SECRET is gone') =>
  JSON.stringify({ error: { code, message } });

describe('Teams answers, classified (docs/targets-chat.md "Microsoft Teams")', () => {
  it.each<[string, SendOutcome, Record<string, unknown>]>([
    ['202 Accepted (Workflows) → success', answer(202), { result: 'success', status: 202 }],
    ['200 "1" (legacy webhook) → success', answer(200, '1'), { result: 'success', status: 200 }],
    [
      '200 "…returned HTTP error 413" (legacy) → permanent, not flagged',
      answer(200, 'Microsoft Teams endpoint returned HTTP error 413 with ContextId …'),
      { result: 'permanent', status: 413, flagTarget: false },
    ],
    [
      '429 → retry after Retry-After',
      answer(429, azure('TooManyRequests'), { 'retry-after': '7' }),
      { result: 'retry', status: 429, retryAfterMs: 7_000, error: 'Teams 429 TooManyRequests' },
    ],
    ['503 → retry', answer(503), { result: 'retry', status: 503 }],
    [
      '413 → permanent, not flagged (over 28 KB)',
      answer(413, azure('RequestEntityTooLarge')),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '400 → permanent, not flagged',
      answer(400, azure('InvalidRequestContent')),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '401 bad signature → permanent, flagged',
      answer(401, azure('DirectApiInvalidAuthorizationSignature')),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '404 workflow deleted → permanent, flagged',
      answer(404, azure('WorkflowNotFound')),
      { result: 'permanent', flagTarget: true, error: 'Teams 404 WorkflowNotFound' },
    ],
    [
      '409 workflow disabled → permanent, flagged',
      answer(409, azure('WorkflowTriggerIsNotEnabled')),
      { result: 'permanent', flagTarget: true },
    ],
  ])('%s', (_n, outcome, expected) => {
    const r = classifyTeams(outcome);
    expect(r).toMatchObject(expected);
    expect(JSON.stringify(r)).not.toContain('SECRET');
  });
});
