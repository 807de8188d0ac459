import { must } from '@relay/client';
import { generateKeyPairSync } from 'node:crypto';
import { nkeys } from '@nats-io/transport-node';
import type { Locator, Page } from 'playwright-core';
import { makeTestCa } from '../../support/mtls';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * A target of every kind added, edited and deleted through the dashboard's form in
 * Chromium, as a person would, against the real stack. The form is drawn from each kind's
 * description (`GET /v1/target-kinds`); the first case below is the bug the issue reports — a
 * block-style chat target could not be created ("config.name: name is required") because the
 * form sent the target's name beside the config, where that kind wants it.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let endpointId: string;

const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXX';
const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/tok-EN_1';
const TEAMS =
  'https://prod-12.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=teamsSig_0123456789abcdefXYZ';
/** a webhook target's mutual TLS: a client certificate, its key and a CA to pin */
const BANK = makeTestCa('dashboard');
const NKEY_SEED = new TextDecoder().decode(nkeys.createUser().getSeed());
const SHEET_ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
/** A service account key as Google's console downloads it, with a real (throwaway) RSA key. */
const serviceAccountKey = (): string =>
  JSON.stringify({
    type: 'service_account',
    client_email: 'relay@demo.iam.gserviceaccount.com',
    private_key_id: 'k1',
    private_key: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  });

/**
 * How a person fills each kind's form: `add` fills a new one; `change` changes its
 * configuration on an edit, typing again what is write-only; `shown` and `changed` are what the
 * API then shows of the config. `secret` must never be shown.
 */
interface KindCase {
  kind: string;
  label: string;
  add(form: Locator): Promise<void>;
  shown: Record<string, unknown>;
  change(form: Locator): Promise<void>;
  changed: Record<string, unknown>;
  /** a credential's telling part, which must never be shown; none for a kind without one */
  secret?: string;
}

const CASES: KindCase[] = [
  {
    kind: 'block_chat',
    label: 'Block-style chat webhook (Slack-like)',
    add: (form) => form.getByLabel('Chat webhook URL', { exact: true }).fill(SLACK),
    shown: { url: 'https://hooks.slack.com/services/T000/B000/****', name: 'slack-alerts', markup: true },
    change: async (form) => {
      await form.getByLabel('Chat webhook URL', { exact: true }).fill(SLACK);
      await form.getByLabel('Use the chat service’s own markup', { exact: true }).uncheck();
      await form.getByLabel('Message template (optional)', { exact: true }).fill('*{{order.id}}* paid');
    },
    changed: { markup: false, template: '*{{order.id}}* paid' },
    secret: 'XXXX',
  },
  {
    kind: 'embed_chat',
    label: 'Embed-style chat webhook (Discord-like)',
    add: async (form) => {
      await form.getByLabel('Chat webhook URL', { exact: true }).fill(DISCORD);
      await form.getByLabel('Text-to-speech default', { exact: true }).selectOption('off');
    },
    shown: { url: 'https://discord.com/api/webhooks/123456789012345678/****', tts: false },
    change: async (form) => {
      await form.getByLabel('Chat webhook URL', { exact: true }).fill(DISCORD);
      await form.getByLabel('Text-to-speech default', { exact: true }).selectOption('on');
    },
    changed: { tts: true },
    secret: 'tok-EN_1',
  },
  {
    kind: 'telegram',
    label: 'Telegram bot message',
    add: async (form) => {
      await form.getByLabel('Bot token', { exact: true }).fill('123456789:AAFakeTokenForTests_abcdefghijklmnop');
      await form.getByLabel('Chat id', { exact: true }).fill('-1001234567890');
      await form.getByLabel('Formatting (parse mode)', { exact: true }).selectOption('HTML');
    },
    shown: { bot_token: '[redacted]', chat_id: '-1001234567890', parse_mode: 'HTML', disable_notification: false },
    change: async (form) => {
      await form.getByLabel('Bot token', { exact: true }).fill('123456789:AAFakeTokenForTests_abcdefghijklmnop');
      await form.getByLabel('Send silently', { exact: true }).check();
      await form.getByLabel('Chat id', { exact: true }).fill('@news_channel');
    },
    changed: { chat_id: '@news_channel', disable_notification: true, bot_token: '[redacted]' },
    secret: 'AAFakeTokenForTests',
  },
  {
    kind: 'teams',
    label: 'Microsoft Teams (Workflows webhook)',
    add: (form) => form.getByLabel('Workflows webhook URL', { exact: true }).fill(TEAMS),
    shown: {
      url: 'https://prod-12.westeurope.logic.azure.com/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=****&sv=****&sig=****',
      format: 'adaptive_card',
    },
    change: async (form) => {
      await form.getByLabel('Workflows webhook URL', { exact: true }).fill(TEAMS);
      await form.getByLabel('Message format', { exact: true }).selectOption('text');
    },
    changed: { format: 'text' },
    secret: 'teamsSig_',
  },
  {
    kind: 'email',
    label: 'Email',
    add: async (form) => {
      await form.getByLabel('To (one per line)', { exact: true }).fill('ops@example.com\nsales@example.com');
      await form.getByLabel('Subject template (optional)', { exact: true }).fill('Order {{order.id}}');
    },
    shown: { to: ['ops@example.com', 'sales@example.com'], subject: 'Order {{order.id}}' },
    change: async (form) => {
      await form.getByLabel('Bcc (optional) (one per line)', { exact: true }).fill('audit@example.com');
      await form.getByLabel('Reply-To (optional)', { exact: true }).fill('support@example.com');
    },
    changed: { bcc: ['audit@example.com'], reply_to: 'support@example.com' },
  },
  {
    kind: 'spreadsheet',
    label: 'Spreadsheet (Google Sheets)',
    add: async (form) => {
      await form
        .getByLabel('Spreadsheet id or URL', { exact: true })
        .fill(`https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0`);
      const key = form.getByLabel('Service account key (JSON)', { exact: true });
      await key.pressSequentially('{"type":');
      await key.fill(serviceAccountKey());
      // a multi-line credential is masked while typed, as a password field is, and never spell-checked
      // (the tests are type-checked without the DOM library: the page's getComputedStyle is reached through globalThis)
      const styleOf = (el: unknown): string =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(p: string): string } })
          .getComputedStyle(el)
          .getPropertyValue('-webkit-text-security');
      expect(await key.evaluate(styleOf)).toBe('disc');
      expect(await key.getAttribute('spellcheck')).toBe('false');
    },
    shown: { spreadsheet_id: SHEET_ID, sheet_name: 'Sheet1', service_account_key: '[redacted]' },
    change: async (form) => {
      await form.getByLabel('Service account key (JSON)', { exact: true }).fill(serviceAccountKey());
      await form.getByLabel('Sheet (tab) name', { exact: true }).fill('Leads');
    },
    changed: { sheet_name: 'Leads', service_account_key: '[redacted]' },
    secret: 'PRIVATE KEY',
  },
  {
    // A CLI session target has no destination of its own (`relay listen` says where)
    kind: 'cli',
    label: 'CLI session (relay listen)',
    add: (form) => form.getByLabel('Deliveries in flight per session', { exact: true }).fill('5'),
    shown: { in_flight: 5 },
    change: (form) => form.getByLabel('Deliveries in flight per session', { exact: true }).fill('20'),
    changed: { in_flight: 20 },
  },
  {
    kind: 'amqp_exchange',
    label: 'RabbitMQ exchange (AMQP 0-9-1)',
    add: async (form) => {
      await form
        .getByLabel('AMQP URL', { exact: true })
        .fill('amqps://relay:brokerPa55SECRET@rabbit.example.com/orders');
      await form.getByLabel('Exchange', { exact: true }).fill('webhooks');
    },
    shown: { url: '[redacted]', exchange: 'webhooks', routing_key: '' },
    change: async (form) => {
      await form
        .getByLabel('AMQP URL', { exact: true })
        .fill('amqps://relay:brokerPa55SECRET@rabbit.example.com/orders');
      await form.getByLabel('Routing key template (optional)', { exact: true }).fill('orders.{{type}}');
    },
    changed: { url: '[redacted]', exchange: 'webhooks', routing_key: 'orders.{{type}}' },
    secret: 'brokerPa55SECRET',
  },
  {
    kind: 'mqtt',
    label: 'MQTT topic (3.1.1, 5)',
    add: async (form) => {
      await form.getByLabel('Broker URL', { exact: true }).fill('mqtts://relay:mqttPa55SECRET@broker.example.com:8883');
      await form.getByLabel('Topic template', { exact: true }).fill('hooks/{{type}}');
    },
    shown: { url: '[redacted]', topic: 'hooks/{{type}}', protocol_version: 5 },
    change: async (form) => {
      await form.getByLabel('Broker URL', { exact: true }).fill('mqtts://relay:mqttPa55SECRET@broker.example.com:8883');
      await form.getByLabel('MQTT protocol version', { exact: true }).fill('4');
    },
    changed: { url: '[redacted]', topic: 'hooks/{{type}}', protocol_version: 4 },
    secret: 'mqttPa55SECRET',
  },
  {
    kind: 'kafka',
    label: 'Apache Kafka topic',
    add: async (form) => {
      await form
        .getByLabel('Bootstrap brokers (one per line)', { exact: true })
        .fill('kafka-1.example.com:9093\nkafka-2.example.com:9093');
      await form.getByLabel('Topic', { exact: true }).fill('webhooks');
      await form.getByLabel('SASL authentication', { exact: true }).selectOption('scram-sha-512');
      await form.getByLabel('User name', { exact: true }).fill('relay');
      await form.getByLabel('Password', { exact: true }).fill('kafkaPa55SECRET');
    },
    shown: {
      brokers: ['kafka-1.example.com:9093', 'kafka-2.example.com:9093'],
      topic: 'webhooks',
      key_path: '',
      sasl: { mechanism: 'scram-sha-512', username: 'relay', password: '[redacted]' },
      tls: false,
    },
    change: async (form) => {
      await form.getByLabel('Password', { exact: true }).fill('kafkaPa55SECRET');
      await form.getByLabel('Record key path (optional)', { exact: true }).fill('customer.id');
      await form.getByLabel('TLS', { exact: true }).check();
    },
    changed: {
      key_path: 'customer.id',
      tls: true,
      sasl: { mechanism: 'scram-sha-512', username: 'relay', password: '[redacted]' },
    },
    secret: 'kafkaPa55SECRET',
  },
  {
    kind: 'redis_stream',
    label: 'Redis Streams (XADD)',
    add: async (form) => {
      await form
        .getByLabel('Redis URL', { exact: true })
        .fill('rediss://relay:streamPa55SECRET@redis.example.com:6380/0');
      await form.getByLabel('Stream key', { exact: true }).fill('webhooks:stripe');
    },
    shown: { url: '[redacted]', stream: 'webhooks:stripe', max_length: 0 },
    change: async (form) => {
      await form
        .getByLabel('Redis URL', { exact: true })
        .fill('rediss://relay:streamPa55SECRET@redis.example.com:6380/0');
      await form.getByLabel('Keep at most (MAXLEN ~)', { exact: true }).fill('10000');
    },
    changed: { url: '[redacted]', stream: 'webhooks:stripe', max_length: 10000 },
    secret: 'streamPa55SECRET',
  },
  {
    kind: 'nats_jetstream',
    label: 'NATS JetStream',
    add: async (form) => {
      await form
        .getByLabel('Servers (at most 8) (one per line)', { exact: true })
        .fill('tls://nats-a.example.com\ntls://nats-b.example.com:4443');
      await form.getByLabel('Subject template', { exact: true }).fill('webhooks.{{type}}');
      await form.getByLabel('Authentication', { exact: true }).selectOption('user_password');
      await form.getByLabel('User', { exact: true }).fill('relay');
      await form.getByLabel('Password', { exact: true }).fill('natsPa55SECRET');
    },
    shown: {
      servers: ['tls://nats-a.example.com', 'tls://nats-b.example.com:4443'],
      subject: 'webhooks.{{type}}',
      auth: { type: 'user_password', user: 'relay', password: '[redacted]' },
    },
    change: async (form) => {
      await form.getByLabel('Authentication', { exact: true }).selectOption('nkey');
      await form.getByLabel('NKey seed', { exact: true }).fill(NKEY_SEED);
      await form.getByLabel('Subject template', { exact: true }).fill('orders.{{type}}');
    },
    changed: { subject: 'orders.{{type}}', auth: { type: 'nkey', seed: '[redacted]' } },
    secret: 'natsPa55SECRET',
  },
  {
    kind: 'sqs',
    label: 'Amazon SQS queue',
    add: async (form) => {
      await form.getByLabel('Queue URL', { exact: true }).fill('https://sqs.example.net/123456789012/orders');
      await form.getByLabel('Region', { exact: true }).fill('eu-west-1');
      await form.getByLabel('Access key ID', { exact: true }).fill('AKIAKEYIDSECRET00001');
      await form.getByLabel('Secret access key', { exact: true }).fill('sqsSecretKEYSECRET');
    },
    shown: {
      queue_url: 'https://sqs.example.net/123456789012/orders',
      region: 'eu-west-1',
      access_key_id: '[redacted]',
      secret_access_key: '[redacted]',
      message_group_id: '',
    },
    change: async (form) => {
      await form.getByLabel('Access key ID', { exact: true }).fill('AKIAKEYIDSECRET00001');
      await form.getByLabel('Secret access key', { exact: true }).fill('sqsSecretKEYSECRET');
      await form.getByLabel('Region', { exact: true }).fill('eu-central-1');
    },
    changed: { region: 'eu-central-1', access_key_id: '[redacted]', secret_access_key: '[redacted]' },
    secret: 'SECRET',
  },
  {
    kind: 's3',
    label: 'S3-compatible object storage',
    add: async (form) => {
      await form.getByLabel('Endpoint URL', { exact: true }).fill('https://s3.example.net');
      await form.getByLabel('Bucket', { exact: true }).fill('webhooks-archive');
      await form.getByLabel('Region', { exact: true }).fill('eu-west-1');
      await form.getByLabel('Access key ID', { exact: true }).fill('AKIAKEYIDSECRET00002');
      await form.getByLabel('Secret access key', { exact: true }).fill('s3SecretKEYSECRET');
    },
    shown: {
      endpoint: 'https://s3.example.net',
      bucket: 'webhooks-archive',
      key_template: 'relay/{{endpoint_id}}/{{date}}/{{delivery_id}}',
      region: 'eu-west-1',
      access_key_id: '[redacted]',
      secret_access_key: '[redacted]',
      path_style: false,
    },
    change: async (form) => {
      await form.getByLabel('Access key ID', { exact: true }).fill('AKIAKEYIDSECRET00002');
      await form.getByLabel('Secret access key', { exact: true }).fill('s3SecretKEYSECRET');
      await form.getByLabel('Object key template', { exact: true }).fill('in/{{date}}/{{delivery_id}}.json');
      await form.getByLabel('Path-style requests', { exact: true }).check();
    },
    changed: { key_template: 'in/{{date}}/{{delivery_id}}.json', path_style: true, secret_access_key: '[redacted]' },
    secret: 'SECRET',
  },
  {
    kind: 'webhook',
    label: 'Webhook URL',
    add: async (form) => {
      await form.getByLabel('Target URL', { exact: true }).fill('https://hooks.example.com/in');
      await form.getByLabel('Outbound authentication', { exact: true }).selectOption('bearer');
      await form.getByLabel('Token', { exact: true }).fill('tok-secret-1');
      await form.getByRole('button', { name: 'Add header' }).click();
      await form.getByLabel('Header 1 name', { exact: true }).fill('X-Shop');
      await form.getByLabel('Header 1 value', { exact: true }).fill('{{event_id}}');
      await form.getByLabel('Use standard Webhooks signing', { exact: true }).check();
      await form.getByLabel('Signing secret', { exact: true }).fill(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
      await form.getByLabel('Use mutual TLS', { exact: true }).check();
      await form.getByLabel('Client certificate (PEM)', { exact: true }).fill(BANK.client.cert);
      await form.getByLabel('Client private key (PEM)', { exact: true }).fill(BANK.client.key);
      await form.getByLabel('Pinned CA (PEM)', { exact: true }).fill(BANK.cert);
    },
    shown: {
      url: 'https://hooks.example.com/in',
      enforce_https: true,
      auth: { type: 'bearer', token: '[redacted]' },
      custom_headers: [{ name: 'X-Shop', value: '{{event_id}}', sensitive: false }],
      signing: { standard_webhooks: true, secret: '[redacted]' },
      tls: { client_certificate_pem: BANK.client.cert, client_key_pem: '[redacted]', ca_pem: BANK.cert },
    },
    change: async (form) => {
      await form.getByLabel('Token', { exact: true }).fill('tok-secret-2');
      // the key is write-only: a changed configuration types it again
      await form.getByLabel('Client private key (PEM)', { exact: true }).fill(BANK.client.key);
      await form.getByLabel('Use standard Webhooks signing', { exact: true }).uncheck();
      await form.getByLabel('Header forwarding', { exact: true }).selectOption('list');
      await form.getByLabel('Header names (one per line)', { exact: true }).fill('X-Shop\nX-Trace');
    },
    changed: {
      signing: null,
      forward_headers: { mode: 'list', names: ['x-shop', 'x-trace'] },
      auth: { type: 'bearer', token: '[redacted]' },
      tls: { client_certificate_pem: BANK.client.cert, client_key_pem: '[redacted]', ca_pem: BANK.cert },
    },
    secret: 'tok-secret',
  },
];

beforeAll(async () => {
  stack = await startDashboardStack('dashboard-targets');
  browser = await launchBrowser();
  page = await browser.context.newPage();
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** generous: the machine these run on is shared, and a render can wait seconds for a core */
const WAIT = 30_000;
const targets = async () =>
  (await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))).data;
const card = (name: string): Locator =>
  page.locator('.card.target', { has: page.getByRole('heading', { level: 3, name, exact: true }) });
const form = (): Locator => page.locator('form.target-form');

describe('every target kind added, edited and deleted through the dashboard form', () => {
  it('lists exactly the kinds the API describes, so a new kind cannot go untested here', async () => {
    const kinds = (await must(stack.client.GET('/v1/target-kinds'))).data.map((k) => k.kind);
    expect([...kinds].sort()).toEqual(CASES.map((c) => c.kind).sort());
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByRole('link', { name: 'Outputs' }).click();
    await page.getByRole('button', { name: 'Add target' }).click();
    const options = await form().getByLabel('Kind', { exact: true }).locator('option').allTextContents();
    expect(options.sort()).toEqual(CASES.map((c) => c.label).sort());
    await form().getByRole('button', { name: 'Cancel' }).click();
  });

  it.each(CASES)('$kind: added, renamed with a retry schedule, its configuration replaced, then deleted', async (c) => {
    const first = c.kind === 'block_chat' ? 'slack-alerts' : `${c.kind}-one`;
    // add, as the issue's steps: kind, Target name, URL, Add target
    await page.getByRole('button', { name: 'Add target' }).click();
    await form().getByLabel('Kind', { exact: true }).selectOption({ label: c.label });
    await form().getByLabel('Target name', { exact: true }).fill(first);
    await c.add(form());
    await form().getByRole('button', { name: 'Add target' }).click();
    await card(first).waitFor({ timeout: WAIT });
    let [saved] = await targets();
    expect(saved).toMatchObject({ kind: c.kind, name: first, config: c.shown, retry_schedule_ms: null });
    if (c.secret) expect(JSON.stringify(saved)).not.toContain(c.secret);

    // rename and set a retry schedule: the same target, changed in place
    await card(first).getByRole('button', { name: 'Edit…' }).click();
    await form().getByLabel('Target name', { exact: true }).fill(`${first}-renamed`);
    await form().getByLabel('Retry schedule (ms between attempts)', { exact: true }).fill('1000, 60000');
    await form().getByRole('button', { name: 'Save', exact: true }).click();
    await card(`${first}-renamed`).waitFor({ timeout: WAIT });
    [saved] = await targets();
    expect(saved).toMatchObject({ id: saved!.id, name: `${first}-renamed`, retry_schedule_ms: [1000, 60000] });

    // a changed configuration replaces the target; write-only values are typed again
    await card(`${first}-renamed`).getByRole('button', { name: 'Edit…' }).click();
    await c.change(form());
    await form().getByRole('button', { name: 'Save as new configuration' }).click();
    await page.getByText(`Target replaced by ${first}-renamed.`).waitFor({ timeout: WAIT });
    const after = await targets();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(saved!.id);
    expect(after[0]).toMatchObject({
      kind: c.kind,
      name: `${first}-renamed`,
      config: c.changed,
      retry_schedule_ms: [1000, 60000],
    });
    // the API and the summary show a credential as set, never its value
    if (c.secret)
      expect(`${JSON.stringify(after[0])} ${await card(`${first}-renamed`).textContent()}`).not.toContain(c.secret);

    // delete
    await card(`${first}-renamed`).getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete target' }).click();
    await card(`${first}-renamed`).waitFor({ state: 'detached', timeout: WAIT });
    expect(await targets()).toEqual([]);
  });

  it('places an API problem at its field: a chat URL of the wrong form', async () => {
    await page.getByRole('button', { name: 'Add target' }).click();
    await form().getByLabel('Kind', { exact: true }).selectOption({ label: 'Block-style chat webhook (Slack-like)' });
    await form().getByLabel('Target name', { exact: true }).fill('bad-url');
    await form().getByLabel('Chat webhook URL', { exact: true }).fill('https://example.com/services/T0/B0/x');
    await form().getByRole('button', { name: 'Add target' }).click();
    const error = page.locator('[data-field-error="config.url"]');
    await error.waitFor();
    expect(await error.textContent()).toContain('url host must be hooks.slack.com or hooks.slack-gov.com');
    expect(await page.locator('[data-field-error="config.name"]').count()).toBe(0);
  });

  it('a chat target without a name: one message, at the Target name field', async () => {
    await form().getByLabel('Target name', { exact: true }).fill('');
    await form().getByLabel('Chat webhook URL', { exact: true }).fill(SLACK);
    await form().getByRole('button', { name: 'Add target' }).click();
    const error = page.locator('[data-field-error="name"]');
    await error.waitFor();
    // in words a person reads, not a schema's, and the summary on top takes the focus
    expect(await error.textContent()).toBe('Enter a name of at most 200 characters.');
    expect(await page.evaluate('document.activeElement?.className')).toBe('error-summary');
    expect(await form().textContent()).not.toContain('config.name');
    await form().getByRole('button', { name: 'Cancel' }).click();
  });

  it('an email subject refuses a pasted line break with the API’s own message, instead of joining the lines', async () => {
    await page.getByRole('button', { name: 'Add target' }).click();
    await form().getByLabel('Kind', { exact: true }).selectOption({ label: 'Email' });
    await form().getByLabel('Target name', { exact: true }).fill('mail');
    await form().getByLabel('To (one per line)', { exact: true }).fill('ops@example.com');
    const subject = form().getByLabel('Subject template (optional)', { exact: true });
    await subject.fill('Order ');
    await subject.press('End');
    const pasted = '{{order.id}}\r\nBcc: someone@example.com';
    // a paste as the browser fires it, with the clipboard's text (run in the page: its DOM types)
    const id = await subject.getAttribute('id');
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', ${JSON.stringify(pasted)});
      document.getElementById(${JSON.stringify(id)}).dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    })()`);
    const error = page.locator('[data-field-error="config.subject"]');
    await error.waitFor({ timeout: WAIT });
    expect(await subject.inputValue()).toBe('Order ');
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    // the words are the API's: what it answers for the same subject
    const refused = await stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'email', name: 'mail', config: { to: ['ops@example.com'], subject: `Order ${pasted}` } },
    });
    expect(refused.response.status).toBe(400);
    const problems = (refused.error as { errors: Array<{ field: string; message: string }> }).errors;
    expect(problems).toEqual([{ field: 'config.subject', message: await error.textContent() }]);
    // typing goes on as usual, and clears the message
    await subject.type('{{order.id}}');
    expect(await error.count()).toBe(0);
    await form().getByRole('button', { name: 'Cancel' }).click();
  });
});
