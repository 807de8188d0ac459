import { createSecretBox } from '@relay/secrets';
import { CATALOG, createDefaultRegistry, wireDescription } from '@relay/targets';
import {
  inputOf,
  parseSchedule,
  pathsOf,
  startObject,
} from '../../../services/management-api/dashboard/src/lib/kind-form';
import type { TargetKindField } from '@relay/client';

/*
 * The target form's value, derived from a kind's description as GET /v1/target-kinds serves it:
 * a new form's defaults are accepted by the kind as they are once the required values are typed,
 * an edit starts with write-only values blank, and what a save sends passes the kind's own checks.
 */
const fieldsOf = (kind: string): TargetKindField[] =>
  wireDescription(CATALOG.entries.find((e) => e.kind === kind)!.description).fields as unknown as TargetKindField[];
const registry = createDefaultRegistry({ secrets: createSecretBox(`k1:${Buffer.alloc(32, 3).toString('base64')}`) });

describe('dashboard target form from a kind description', () => {
  it('a new webhook form: the defaults, and what it sends the kind accepts', () => {
    const fields = fieldsOf('webhook');
    const start = startObject(fields, undefined);
    expect(start).toEqual({
      url: '',
      enforce_https: true,
      auth: { type: 'none' },
      custom_headers: [],
      forward_headers: { mode: 'none' },
      signing: null,
      tls: null,
    });
    const sent = inputOf(fields, {
      ...start,
      url: 'https://hooks.example.com/in',
      auth: { type: 'bearer', token: 't0k', username: 'left over from another choice' },
    });
    expect(sent.auth).toEqual({ type: 'bearer', token: 't0k' });
    expect(registry.get('webhook')!.validateConfig(sent).ok).toBe(true);
  });

  it('a chat form never sends the target’s name in the config: the API fills it', () => {
    const fields = fieldsOf('block_chat');
    const sent = inputOf(fields, {
      ...startObject(fields, undefined),
      url: 'https://hooks.slack.com/services/T000/B000/XXXX',
    });
    expect(sent).toEqual({ url: 'https://hooks.slack.com/services/T000/B000/XXXX', markup: true });
    expect(pathsOf(fields, sent, 'config')).not.toContain('config.name');
  });

  it('an edit starts from the view with every credential blank, a conditional one only when on', () => {
    const fields = fieldsOf('webhook');
    const view = {
      url: 'https://x.example/',
      enforce_https: true,
      auth: { type: 'basic', username: 'u', password: '[redacted]' },
      custom_headers: [
        { name: 'A', value: 'open', sensitive: false },
        { name: 'B', value: '[redacted]', sensitive: true },
      ],
      forward_headers: { mode: 'none' },
      signing: { standard_webhooks: true, secret: '[redacted]' },
    };
    const start = startObject(fields, view);
    expect(start.auth).toEqual({ type: 'basic', username: 'u', password: '' });
    expect(start.custom_headers).toEqual([
      { name: 'A', value: 'open', sensitive: false },
      { name: 'B', value: '', sensitive: true },
    ]);
    expect(start.signing).toEqual({ standard_webhooks: true, secret: '' });
    expect(pathsOf(fields, start, 'config')).toEqual(
      expect.arrayContaining(['config.auth.password', 'config.custom_headers[1].value', 'config.signing.secret']),
    );
  });

  it('a retry schedule as typed: empty is the kind’s default, "none" no retries', () => {
    expect(parseSchedule('')).toBeNull();
    expect(parseSchedule('none')).toEqual([]);
    expect(parseSchedule('1000, 60000 5000')).toEqual([1000, 60000, 5000]);
  });
});
