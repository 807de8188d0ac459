import type { CheckContext, KindDescription } from '../../describe/field';
import { CHAT_NAME_AND_TEMPLATE } from '../chat-config';

/** A Telegram target's stored configuration (docs/targets-chat.md "Telegram"). */
export interface TelegramConfig {
  /** the bot's token from @BotFather, `<bot id>:<secret>`; stored sealed (`enc:v1:…`) */
  bot_token: string;
  /** a chat's numeric id (negative for groups and channels) or a public channel's `@username` */
  chat_id: string;
  /** the target's name in Relay; not sent to Telegram */
  name: string;
  template?: string;
  /** how Telegram reads the text: `none` (plain), `HTML` or `MarkdownV2` */
  parse_mode: TelegramParseMode;
  /** delivered without sound */
  disable_notification: boolean;
}

export const PARSE_MODES = ['none', 'HTML', 'MarkdownV2'] as const;
export type TelegramParseMode = (typeof PARSE_MODES)[number];

/** `123456789:AA…`: the bot id, a colon, then 35 characters of base64url (BotFather's form). */
export const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,100}$/;
/** a numeric chat id (≤ 52 significant bits, Bot API "chat_id") or a public `@channelusername` */
const CHAT_ID = /^(?:-?\d{1,16}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

/** Checked as data where it can be; the token's form is a pattern, but its message must not echo it. */
function checkToken(value: string, ctx: CheckContext): void {
  if (!BOT_TOKEN.test(value)) ctx.fail('bot_token must be a bot token from @BotFather: "<bot id>:<secret>"');
}

/** Bot API sendMessage (docs/targets-chat.md "Telegram"). */
export const telegramDescription: KindDescription = {
  label: 'Telegram bot message',
  help: 'A message from your bot to one chat, group or channel (Bot API sendMessage); docs/targets-chat.md.',
  fields: {
    bot_token: {
      type: 'string',
      label: 'Bot token',
      required: true,
      credential: true,
      example: '123456789:AA…',
      help: 'from @BotFather; a secret: stored sealed, never shown',
      check: checkToken,
    },
    chat_id: {
      type: 'string',
      label: 'Chat id',
      required: true,
      trim: true,
      pattern: CHAT_ID.source,
      example: '-1001234567890',
      help: 'a numeric chat id (groups and channels are negative) or a public channel’s @username; the bot must be a member',
      message: 'chat_id must be a numeric chat id or a public channel’s @username',
    },
    // name and optional template, as the other chat kinds; the template is read in the parse mode below
    ...CHAT_NAME_AND_TEMPLATE,
    parse_mode: {
      type: 'enum',
      label: 'Formatting (parse mode)',
      default: 'none',
      help: 'how Telegram reads the text; values from the payload are escaped for it',
      values: [
        { value: 'none', label: 'Plain text' },
        { value: 'HTML', label: 'HTML' },
        { value: 'MarkdownV2', label: 'MarkdownV2' },
      ],
    },
    disable_notification: {
      type: 'boolean',
      label: 'Send silently',
      default: false,
      help: 'members get the message without sound',
    },
  },
};
