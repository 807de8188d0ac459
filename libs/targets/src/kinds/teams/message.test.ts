import { PayloadError } from '../../kind';
import type { ChatPayload } from '../template';
import type { TeamsConfig } from './config';
import { MAX_BODY_BYTES, TEXT_MARKER, teamsMessage } from './message';

const config = (over: Partial<TeamsConfig> = {}): TeamsConfig => ({
  url: 'sealed',
  name: 'a',
  format: 'adaptive_card',
  ...over,
});
const json = (value: unknown): ChatPayload => ({ kind: 'json', value });
const cardOf = (body: Record<string, unknown>) =>
  (body.attachments as Array<{ content: { body: Array<Record<string, unknown>> } }>)[0]!.content;

describe('Teams message', () => {
  it('by default an Adaptive Card in the envelope Workflows read, JSON in monospace', () => {
    const body = teamsMessage(config(), json({ order: 7 }));
    expect(body).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }],
    });
    expect(cardOf(body)).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
      body: [{ type: 'TextBlock', text: '{\n  "order": 7\n}', wrap: true, fontType: 'Monospace' }],
    });
  });

  it('format text sends {"text": …}; a template renders over the payload', () => {
    expect(teamsMessage(config({ format: 'text', template: 'Order {{id}} paid' }), json({ id: 9 }))).toEqual({
      text: 'Order 9 paid',
    });
    expect(teamsMessage(config({ format: 'text' }), { kind: 'empty' })).toEqual({ text: '(empty payload)' });
  });

  it('a payload that is already an Adaptive Card or a Teams message is sent as it is', () => {
    const card = { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'TextBlock', text: 'hi' }] };
    expect(cardOf(teamsMessage(config(), json(card)))).toEqual(card);
    const message = {
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }],
    };
    expect(teamsMessage(config(), json(message))).toEqual(message);
  });

  it.each(['adaptive_card', 'text'] as const)(
    'a long text is cut so the whole body stays within 28 KB (%s)',
    (format) => {
      const body = teamsMessage(config({ format }), { kind: 'text', text: '"é\\'.repeat(20_000), form: false });
      const size = Buffer.byteLength(JSON.stringify(body));
      expect(size).toBeLessThanOrEqual(MAX_BODY_BYTES);
      expect(size).toBeGreaterThan(MAX_BODY_BYTES - 64);
      expect(JSON.stringify(body)).toContain(TEXT_MARKER);
    },
  );

  it('a card too large to send is the payload’s problem: PayloadError', () => {
    const big = {
      type: 'AdaptiveCard',
      body: Array.from({ length: 600 }, (_v, i) => ({ type: 'TextBlock', text: `row ${i} ${'x'.repeat(40)}` })),
    };
    expect(() => teamsMessage(config(), json(big))).toThrow(PayloadError);
  });
});
