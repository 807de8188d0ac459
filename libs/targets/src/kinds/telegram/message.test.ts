import type { ChatPayload } from '../template';
import type { TelegramConfig } from './config';
import { EMPTY_PAYLOAD_TEXT, MAX_TEXT, TEXT_MARKER, telegramMessage, telegramText } from './message';

const json = (value: unknown): ChatPayload => ({ kind: 'json', value });
const config = (over: Partial<TelegramConfig> = {}): TelegramConfig => ({
  bot_token: 'sealed',
  chat_id: '42',
  name: 'a',
  parse_mode: 'none',
  disable_notification: false,
  ...over,
});

describe('Telegram message (Bot API sendMessage)', () => {
  it('sends the chat id and the text; parse mode and silence only when set; link previews off', () => {
    expect(telegramMessage(config(), { kind: 'text', text: 'hi', form: false })).toEqual({
      chat_id: '42',
      text: 'hi',
      link_preview_options: { is_disabled: true },
    });
    expect(
      telegramMessage(config({ parse_mode: 'HTML', disable_notification: true }), {
        kind: 'text',
        text: 'hi',
        form: false,
      }),
    ).toMatchObject({ parse_mode: 'HTML', disable_notification: true });
  });

  it.each<[TelegramConfig['parse_mode'], string]>([
    ['none', '{\n  "a": "<b>"\n}'],
    ['HTML', '<pre>{\n  "a": "&lt;b&gt;"\n}</pre>'],
    ['MarkdownV2', '```\n{\n  "a": "<b>"\n}\n```'],
  ])('a JSON payload is pretty-printed, in a preformatted block under %s', (parse_mode, text) => {
    expect(telegramText(config({ parse_mode }), json({ a: '<b>' }))).toBe(text);
  });

  it('template values are escaped for the parse mode, the template itself is the operator’s markup', () => {
    expect(
      telegramText(config({ parse_mode: 'HTML', template: '<b>{{who}}</b> paid' }), json({ who: 'A&B <script>' })),
    ).toBe('<b>A&amp;B &lt;script&gt;</b> paid');
    expect(
      telegramText(
        config({ parse_mode: 'MarkdownV2', template: '*{{who}}* paid {{sum}}' }),
        json({ who: 'ann_b', sum: '1.50 (net)' }),
      ),
    ).toBe('*ann\\_b* paid 1\\.50 \\(net\\)');
  });

  it('an empty payload still sends a text: Telegram refuses an empty one', () => {
    expect(telegramText(config(), { kind: 'empty' })).toBe(EMPTY_PAYLOAD_TEXT);
    expect(telegramText(config({ parse_mode: 'MarkdownV2' }), { kind: 'empty' })).toBe('\\(empty payload\\)');
  });

  it.each(['none', 'HTML', 'MarkdownV2'] as const)(
    'the text never exceeds 4,096 characters and says it was cut (%s)',
    (parse_mode) => {
      const text = telegramText(config({ parse_mode }), { kind: 'text', text: '<&.'.repeat(5000), form: false });
      expect(text.length).toBeLessThanOrEqual(MAX_TEXT);
      expect(text.length).toBeGreaterThan(MAX_TEXT - 20);
      expect(text.replace(/\\/g, '')).toContain(TEXT_MARKER);
      // no escape sequence or entity is split by the cut
      if (parse_mode === 'HTML') expect(text).not.toMatch(/&[a-z]*…/);
      const big = telegramText(config({ parse_mode }), json({ rows: 'x'.repeat(9000) }));
      expect(big.length).toBeLessThanOrEqual(MAX_TEXT);
    },
  );
});
