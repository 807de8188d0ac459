import { must } from '@relay/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import type { ChannelModel, ConsumeMessage } from 'amqplib';
import { Redis } from 'ioredis';
import mqtt from 'mqtt';
import type { IPublishPacket, MqttClient } from 'mqtt';
import { jetstreamManager } from '@nats-io/jetstream';
import type { JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../support/infra';
import { startFakeDiscord } from '../../support/fake-discord';
import type { FakeDiscord } from '../../support/fake-discord';
import { startFakeGoogle } from '../../support/fake-google';
import type { FakeGoogle } from '../../support/fake-google';
import { startFakeSlack } from '../../support/fake-slack';
import type { FakeSlack } from '../../support/fake-slack';
import { startFakeTeams } from '../../support/fake-teams';
import type { FakeTeams } from '../../support/fake-teams';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { FakeTelegram } from '../../support/fake-telegram';
import { TestReceiver } from '../../support/receiver';
import { relayListen } from '../../support/relay-cli';
import { startOutputsDeliverer } from '../../support/outputs-deliverer';
import { MOSQUITTO_USER, startPrivateMosquitto } from '../../support/private-mosquitto';
import type { PrivateMosquitto } from '../../support/private-mosquitto';
import { startPrivateNats } from '../../support/private-servers';
import type { PrivateServer } from '../../support/private-servers';
import { createBucket, keysIn, startVersitygw } from '../../support/s3-server';
import type { S3Server } from '../../support/s3-server';
import { startPrivateKafka } from '../../support/private-kafka';
import type { PrivateKafka, TopicReader } from '../../support/private-kafka';
import { startService } from '../../support/services';
import { createQueue, receive, startElasticMq } from '../../support/sqs-servers';
import type { SqsServer } from '../../support/sqs-servers';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import {
  DISCORD_ID,
  DISCORD_TOKEN,
  DISCORD_URL,
  SLACK_PATH,
  SLACK_URL,
  TEAMS_SIG,
  TEAMS_URL,
  TEAMS_WORKFLOW,
  TELEGRAM_TOKEN,
} from '../../integration/chat-targets/fixtures';
import { newSpreadsheetId, SA_EMAIL, serviceAccount } from '../../integration/spreadsheet-target/fixtures';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/*
 * "Must show": in Chromium, a target of every kind added through the dashboard's form
 * as a person would, then one event sent to the gateway and delivered to each. Every service is
 * its own process: gateway, management API, webhook deliverer, chat deliverer, outputs deliverer
 * (the chat-deliverer program with DELIVERY_CHANNEL=outputs) and activity writer.
 *
 * The chat platforms are local HTTPS fakes. The chat deliverer reaches them as an operator would
 * reach a platform through a private egress endpoint: HOST_ROUTES maps each real host name to
 * the fake's loopback address (allowed by SSRF_ALLOW_CIDRS=127.0.0.1/32, the guard on for every
 * other address), and the fakes' certificates, issued for the real host names, are trusted
 * through NODE_EXTRA_CA_CERTS — so TLS is verified for hooks.slack.com etc. as in production.
 * Email goes to the real test SMTP server (STARTTLS + AUTH); the spreadsheet to the Google fake;
 * the Redis stream to the real Redis, under a key of this file's own; the RabbitMQ message to the
 * real RabbitMQ, through an exchange and a queue of this file's own; the MQTT message to a Mosquitto
 * of this file's own, read by a QoS 1 subscriber; the JetStream message to a private nats-server of
 * this file's own, into a stream it creates; the SQS message to a private ElasticMQ of this file's;
 * the S3 object to a private versitygw of this file's; the Kafka record to a single-node Kafka of
 * this file's own (test/support/private-kafka.ts), through its SASL listener.
 */

const SMTP_PASS = 'e2e-kinds-Pa55';
const CHAT_ID = '-1001234567890';
const WAIT = 30_000;
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;
/** the developer's local server behind `relay listen` */
let laptop: TestReceiver;
let slack: FakeSlack;
let discord: FakeDiscord;
let teams: FakeTeams;
let telegram: FakeTelegram;
let google: FakeGoogle;
let smtp: TestSmtpServer;
const stopAfter: Array<() => Promise<unknown>> = [];
const logs: Array<() => string> = [];
const sa = serviceAccount();
const spreadsheetId = newSpreadsheetId();
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** the stream's consumer: the shared Redis, a key no other test or Relay itself uses */
const STREAM = `e2e-every-kind:${randomUUID()}`;
let streamReader: Redis;
const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://127.0.0.1:5672';
const EXCHANGE = `e2e-every-kind-${randomUUID()}`;
let rabbit: ChannelModel;
const published: ConsumeMessage[] = [];
let broker: PrivateMosquitto;
let subscriber: MqttClient;
const TOPIC = `e2e-every-kind/${randomUUID()}`;
const mqttMessages: IPublishPacket[] = [];
const NATS_PASS = 'e2e-kinds-nats-Pa55';
let nats: PrivateServer & { close(): Promise<void> };
let natsClient: NatsConnection;
let jsm: JetStreamManager;
let sqs: SqsServer;
let queueUrl: string;
const SQS_SECRET = 'e2e-kinds-sqs-SECRET';
let s3: S3Server;
const BUCKET = `e2e-every-kind-${randomUUID()}`;
const asRelayUser = (url: string) => connect({ servers: url, user: 'relay', pass: NATS_PASS, reconnect: false });
const KAFKA_TOPIC = 'e2e-every-kind';
let kafka: PrivateKafka;
let records: TopicReader;

beforeAll(async () => {
  // the JVMs and the S3 server start while the rest is set up
  const sqsStarting = startElasticMq('every-kind');
  const s3Starting = startVersitygw('every-kind');
  const kafkaStarted = startPrivateKafka('every-kind');
  receiver = await TestReceiver.start();
  laptop = await TestReceiver.start();
  slack = await startFakeSlack({ https: true, hooks: [SLACK_PATH] });
  discord = await startFakeDiscord({ https: true, webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
  teams = await startFakeTeams();
  teams.addWorkflow(TEAMS_WORKFLOW, TEAMS_SIG);
  telegram = await startFakeTelegram();
  telegram.addBot(TELEGRAM_TOKEN, [CHAT_ID]);
  google = await startFakeGoogle();
  google.registerServiceAccount(SA_EMAIL, sa.publicKey);
  google.addSpreadsheet(spreadsheetId, { sharedWith: [SA_EMAIL] });
  smtp = await startTestSmtpServer({ security: 'starttls', auth: { user: 'relay', pass: SMTP_PASS } });
  streamReader = new Redis(REDIS_URL);
  rabbit = await amqp.connect(RABBITMQ_URL);
  const channel = await rabbit.createChannel();
  await channel.assertExchange(EXCHANGE, 'fanout', { durable: false, autoDelete: false });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, EXCHANGE, '');
  await channel.consume(queue, (m) => void (m && published.push(m)), { noAck: true });
  broker = await startPrivateMosquitto('every-kind-mqtt');
  subscriber = await mqtt.connectAsync(broker.urlAs(), { protocolVersion: 5, reconnectPeriod: 0 });
  subscriber.on('message', (_topic, _payload, packet) => mqttMessages.push(packet));
  await subscriber.subscribeAsync(TOPIC, { qos: 1 });
  nats = await startPrivateNats(
    'every-kind-nats',
    `authorization { users = [ { user: relay, password: "${NATS_PASS}" } ] }\n`,
    async (url) => {
      const c = await asRelayUser(url);
      await (await jetstreamManager(c)).getAccountInfo().finally(() => c.close());
    },
  );
  natsClient = await asRelayUser(nats.url);
  jsm = await jetstreamManager(natsClient);
  await jsm.streams.add({ name: 'EVERY_KIND', subjects: ['every.>'] });
  sqs = await sqsStarting;
  queueUrl = await createQueue(sqs, `e2e-every-kind-${randomUUID()}`);
  s3 = await s3Starting;
  await createBucket(s3, BUCKET);
  kafka = await kafkaStarted;
  await kafka.createTopic(KAFKA_TOPIC);
  records = await kafka.consume(KAFKA_TOPIC);

  const dir = mkdtempSync(path.join(tmpdir(), 'relay-every-kind-'));
  const chatFakes = [slack.tls!, discord.tls!, teams.tls, telegram.tls];
  writeFileSync(path.join(dir, 'platforms-ca.pem'), chatFakes.map((t) => t.ca).join('\n'));

  // private: its chat and outputs deliverers, pointed at this file's fakes, take their channels' whole queues
  stack = await startDashboardStack('every-kind', { private: true });
  const chatEnv = {
    ...stack.env,
    SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    HOST_ROUTES: chatFakes.flatMap((t) => t.routes).join(','),
    NODE_EXTRA_CA_CERTS: path.join(dir, 'platforms-ca.pem'),
  };
  const chat = await startService('chat-deliverer', chatEnv);
  logs.push(() => chat.output());
  stopAfter.push(() => chat.stop());
  const outputs = await startOutputsDeliverer(stack.env, { smtp, smtpPassword: SMTP_PASS, google });
  logs.push(() => outputs.output());
  stopAfter.push(() => outputs.stop());

  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
});

afterAll(async () => {
  await streamReader?.del(STREAM);
  streamReader?.disconnect();
  if (rabbit) {
    const channel = await rabbit.createChannel();
    await channel.deleteExchange(EXCHANGE);
    await rabbit.close();
  }
  await subscriber?.endAsync(true);
  await broker?.close();
  await natsClient?.close();
  await nats?.close();
  await browser?.close();
  for (const stop of stopAfter) await stop();
  await kafka?.close();
  await stack?.stop();
  await Promise.all([
    receiver?.close(),
    laptop?.close(),
    slack?.close(),
    discord?.close(),
    teams?.close(),
    telegram?.close(),
    google?.close(),
    smtp?.close(),
    sqs?.close(),
    s3?.close(),
  ]);
});

/** How a person fills each kind's form, after choosing the kind and typing the target's name. */
const TARGETS: Array<{ name: string; label: string; fill(form: Locator): Promise<void> }> = [
  {
    name: 'receiver',
    label: 'Webhook URL',
    fill: async (form) => {
      await form.getByLabel('Target URL', { exact: true }).fill(receiver.url('/hook'));
      await form.getByLabel('Enforce HTTPS', { exact: true }).uncheck();
    },
  },
  {
    name: 'slack-alerts',
    label: 'Block-style chat webhook (Slack-like)',
    fill: (form) => form.getByLabel('Chat webhook URL', { exact: true }).fill(SLACK_URL),
  },
  {
    name: 'discord-orders',
    label: 'Embed-style chat webhook (Discord-like)',
    fill: (form) => form.getByLabel('Chat webhook URL', { exact: true }).fill(DISCORD_URL),
  },
  {
    name: 'teams-ops',
    label: 'Microsoft Teams (Workflows webhook)',
    fill: (form) => form.getByLabel('Workflows webhook URL', { exact: true }).fill(TEAMS_URL),
  },
  {
    name: 'telegram-ops',
    label: 'Telegram bot message',
    fill: async (form) => {
      await form.getByLabel('Bot token', { exact: true }).fill(TELEGRAM_TOKEN);
      await form.getByLabel('Chat id', { exact: true }).fill(CHAT_ID);
    },
  },
  {
    name: 'ops-mail',
    label: 'Email',
    fill: async (form) => {
      await form.getByLabel('To (one per line)', { exact: true }).fill('ops@example.com');
      await form.getByLabel('Subject template (optional)', { exact: true }).fill('Order {{order.id}}');
    },
  },
  // Nothing to fill — the session's `relay listen --forward` names the local URL
  { name: 'my-laptop', label: 'CLI session (relay listen)', fill: async () => undefined },
  {
    name: 'orders-sheet',
    label: 'Spreadsheet (Google Sheets)',
    fill: async (form) => {
      await form
        .getByLabel('Spreadsheet id or URL', { exact: true })
        .fill(`https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit#gid=0`);
      await form.getByLabel('Service account key (JSON)', { exact: true }).fill(sa.keyFile);
    },
  },
  {
    name: 'orders-stream',
    label: 'Redis Streams (XADD)',
    fill: async (form) => {
      await form.getByLabel('Redis URL', { exact: true }).fill(REDIS_URL);
      await form.getByLabel('Stream key', { exact: true }).fill(STREAM);
    },
  },
  {
    name: 'orders-exchange',
    label: 'RabbitMQ exchange (AMQP 0-9-1)',
    fill: async (form) => {
      await form.getByLabel('AMQP URL', { exact: true }).fill(RABBITMQ_URL);
      await form.getByLabel('Exchange', { exact: true }).fill(EXCHANGE);
    },
  },
  {
    name: 'orders-mqtt',
    label: 'MQTT topic (3.1.1, 5)',
    fill: async (form) => {
      await form.getByLabel('Broker URL', { exact: true }).fill(broker.urlAs());
      await form.getByLabel('Topic template', { exact: true }).fill(TOPIC);
    },
  },
  {
    name: 'orders-jetstream',
    label: 'NATS JetStream',
    fill: async (form) => {
      await form.getByLabel('Servers (at most 8) (one per line)', { exact: true }).fill(nats.url);
      await form.getByLabel('Subject template', { exact: true }).fill('every.orders.{{order.id}}');
      await form.getByLabel('Authentication', { exact: true }).selectOption('user_password');
      await form.getByLabel('User', { exact: true }).fill('relay');
      await form.getByLabel('Password', { exact: true }).fill(NATS_PASS);
    },
  },
  {
    name: 'orders-queue',
    label: 'Amazon SQS queue',
    fill: async (form) => {
      await form.getByLabel('Queue URL', { exact: true }).fill(queueUrl);
      await form.getByLabel('Region', { exact: true }).fill('us-east-1');
      await form.getByLabel('Access key ID', { exact: true }).fill('AKIAEVERYKIND0000001');
      await form.getByLabel('Secret access key', { exact: true }).fill(SQS_SECRET);
    },
  },
  {
    name: 'orders-archive',
    label: 'S3-compatible object storage',
    fill: async (form) => {
      await form.getByLabel('Endpoint URL', { exact: true }).fill(s3.url);
      await form.getByLabel('Bucket', { exact: true }).fill(BUCKET);
      await form.getByLabel('Region', { exact: true }).fill('us-east-1');
      await form.getByLabel('Access key ID', { exact: true }).fill(s3.accessKeyId);
      await form.getByLabel('Secret access key', { exact: true }).fill(s3.secretAccessKey);
      await form.getByLabel('Path-style requests', { exact: true }).check();
    },
  },
  {
    name: 'orders-topic',
    label: 'Apache Kafka topic',
    fill: async (form) => {
      await form.getByLabel('Bootstrap brokers (one per line)', { exact: true }).fill(kafka.saslBroker);
      await form.getByLabel('Topic', { exact: true }).fill(KAFKA_TOPIC);
      await form.getByLabel('Record key path (optional)', { exact: true }).fill('order.id');
      await form.getByLabel('SASL authentication', { exact: true }).selectOption('plain');
      await form.getByLabel('User name', { exact: true }).fill(kafka.user.username);
      await form.getByLabel('Password', { exact: true }).fill(kafka.user.password);
    },
  },
];

const form = (): Locator => page.locator('form.target-form');

describe('an event delivered to a target of every kind, added through the dashboard', () => {
  it('adds every kind through the form, sends one event, and every receiver gets it and shows delivered', async () => {
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }));
    const kinds = (await must(stack.client.GET('/v1/target-kinds'))).data.map((k) => k.kind);
    expect(kinds).toHaveLength(TARGETS.length);

    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpoint.id}`);
    await page.getByRole('link', { name: 'Outputs' }).click();
    for (const t of TARGETS) {
      await page.getByRole('button', { name: 'Add target' }).click();
      await form().getByLabel('Kind', { exact: true }).selectOption({ label: t.label });
      await form().getByLabel('Target name', { exact: true }).fill(t.name);
      await t.fill(form());
      await form().getByRole('button', { name: 'Add target' }).click();
      await page.getByRole('heading', { level: 3, name: t.name, exact: true }).waitFor({ timeout: WAIT });
    }
    const saved = (
      await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: endpoint.id } } }),
      )
    ).data;
    expect(saved.map((t) => t.kind).sort()).toEqual([...kinds].sort());

    // a developer listens for the CLI session target, forwarding to their local server
    const cliTarget = saved.find((t) => t.kind === 'cli')!;
    const cli = await relayListen([endpoint.id, '--target', cliTarget.id, '--forward', laptop.url('/hook')], {
      RELAY_API_URL: stack.services['management-api']!.url,
      RELAY_API_KEY: stack.apiKey,
    });
    stopAfter.unshift(() => cli.kill('SIGTERM'));

    const sent = await fetch(endpoint.ingest_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: { id: 7, total: '12.50' } }),
    });
    expect(sent.status).toBe(202);

    const [hook] = await receiver.waitForRequests(1, WAIT);
    expect(JSON.parse(hook!.body.toString())).toEqual({ order: { id: 7, total: '12.50' } });
    const eventId = hook!.headers['x-relay-event-id'] as string;
    const [forwarded] = await laptop.waitForRequests(1, WAIT);
    expect(JSON.parse(forwarded!.body.toString())).toEqual({ order: { id: 7, total: '12.50' } });
    expect(forwarded!.headers['x-relay-event-id']).toBe(eventId);
    await eventually(async () => slack.messages.length === 1, WAIT, 'the Slack fake');
    expect(JSON.stringify(slack.messages[0])).toContain('12.50');
    await eventually(async () => discord.messages.length === 1, WAIT, 'the Discord fake');
    expect(JSON.stringify(discord.messages[0])).toContain('12.50');
    await eventually(async () => teams.posted.length === 1, WAIT, 'the Teams fake');
    expect(teams.posted[0]!.workflow).toBe(TEAMS_WORKFLOW);
    expect(JSON.stringify(teams.posted[0]!.body)).toContain('12.50');
    await eventually(async () => telegram.messages.length === 1, WAIT, 'the Telegram fake');
    expect(telegram.messages[0]).toMatchObject({ chat_id: CHAT_ID });
    expect(telegram.messages[0]!.visible).toContain('12.50');
    const [mail] = await smtp.waitFor(1, WAIT);
    expect(mail!.parsed.subject).toBe('Order 7');
    expect(mail!.parsed.text).toBe(JSON.stringify({ order: { id: 7, total: '12.50' } }, null, 2));
    expect(mail!.envelope.to).toEqual(['ops@example.com']);
    const rows = await eventually(
      async () => google.rows(spreadsheetId).length === 2 && google.rows(spreadsheetId),
      WAIT,
      'the sheet row',
    );
    expect(rows[0]).toEqual(['relay_delivery_id', 'order']);
    expect(rows[1]![1]).toBe('{"id":7,"total":"12.50"}');

    const [entry] = await eventually(
      async () => {
        const got = await streamReader.xrange(STREAM, '-', '+');
        return got.length === 1 && got;
      },
      WAIT,
      'the stream entry',
    );
    const fields = Object.fromEntries(entry![1].flatMap((v, i, all) => (i % 2 === 0 ? [[v, all[i + 1]]] : [])));
    expect(fields).toMatchObject({ event_id: eventId, content_type: 'application/json' });
    expect(JSON.parse(fields.body!)).toEqual({ order: { id: 7, total: '12.50' } });
    const [message] = await eventually(async () => published.length === 1 && published, WAIT, 'the AMQP message');
    expect(JSON.parse(message!.content.toString())).toEqual({ order: { id: 7, total: '12.50' } });
    expect(message!.properties.headers).toMatchObject({ 'relay-event-id': eventId });
    expect(message!.properties).toMatchObject({ messageId: expect.stringMatching(/^dlv_/), deliveryMode: 2 });
    const [packet] = await eventually(async () => mqttMessages.length === 1 && mqttMessages, WAIT, 'the MQTT message');
    expect(JSON.parse(packet!.payload.toString())).toEqual({ order: { id: 7, total: '12.50' } });
    expect(packet!.properties?.userProperties).toMatchObject({ 'relay-event-id': eventId });
    await eventually(
      async () => ((await jsm.streams.info('EVERY_KIND')).state.messages === 1 ? true : undefined),
      WAIT,
      'the JetStream message',
    );
    const stored = (await jsm.streams.getMessage('EVERY_KIND', { seq: 1 }))!;
    expect(stored.subject).toBe('every.orders.7');
    expect(stored.json()).toEqual({ order: { id: 7, total: '12.50' } });
    expect(stored.header.get('Relay-Event-Id')).toBe(eventId);
    expect(stored.header.get('Nats-Msg-Id')).toMatch(/^dlv_/);
    const jetstreamCard = page.locator('.card.target', {
      has: page.getByRole('heading', { level: 3, name: 'orders-jetstream', exact: true }),
    });
    expect(await jetstreamCard.locator('dt:text-is("Authentication") + dd').textContent()).toContain('password set');
    const [queued] = await receive(sqs, queueUrl, 1, WAIT);
    expect(JSON.parse(queued!.Body!)).toEqual({ order: { id: 7, total: '12.50' } });
    expect(queued!.MessageAttributes?.['relay-event-id']?.StringValue).toBe(eventId);
    const [archived] = await eventually(
      async () => {
        const keys = await keysIn(s3, BUCKET);
        return keys.length === 1 && keys;
      },
      WAIT,
      'the S3 object',
    );
    expect(archived).toMatch(/^relay\/ep_[^/]+\/\d{4}-\d{2}-\d{2}\/dlv_[^/]+$/);
    const [record] = await records.waitFor(1, WAIT);
    expect(JSON.parse(record!.value!.toString())).toEqual({ order: { id: 7, total: '12.50' } });
    expect(record!.key?.toString()).toBe('7');
    expect(record!.headers?.['relay-event-id']?.toString()).toBe(eventId);
    expect(record!.headers?.['relay-delivery-id']?.toString()).toMatch(/^dlv_/);
    const topicCard = page.locator('.card.target', {
      has: page.getByRole('heading', { level: 3, name: 'orders-topic', exact: true }),
    });
    expect(await topicCard.locator('dt:text-is("SASL authentication") + dd').textContent()).toContain('password set');
    // a server URL or an access key is a credential: the target's card shows it as set
    for (const [name, label] of [
      ['orders-stream', 'Redis URL'],
      ['orders-exchange', 'AMQP URL'],
      ['orders-mqtt', 'Broker URL'],
      ['orders-queue', 'Secret access key'],
      ['orders-archive', 'Secret access key'],
    ]) {
      const card = page.locator('.card.target', { has: page.getByRole('heading', { level: 3, name, exact: true }) });
      expect(await card.locator(`dt:text-is("${label}") + dd`).textContent()).toBe('set');
    }

    // the request's activity row, expanded in the dashboard, shows each delivery delivered
    await page
      .getByRole('navigation', { name: 'Endpoint sections' })
      .getByRole('link', { name: 'Request activity' })
      .click();
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor({ timeout: WAIT });
    await row.getByRole('button', { name: /^Show details of the request/ }).click();
    for (const t of TARGETS) {
      const delivery = page.locator('.delivery', { has: page.getByText(t.name, { exact: true }) });
      await delivery.locator('.delivery--delivered').waitFor({ timeout: WAIT });
    }
    expect(await page.locator('.delivery').count()).toBe(TARGETS.length);

    // nothing of a credential in an API answer, the activity row or a deliverer's log line
    const activity = await must(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpoint.id } } }));
    const shown = [
      JSON.stringify(saved),
      JSON.stringify(activity),
      await page.locator('main').textContent(),
      ...logs.map((l) => l()),
    ].join('\n');
    for (const secret of [
      TELEGRAM_TOKEN.split(':')[1]!,
      DISCORD_TOKEN,
      SLACK_PATH.split('/').at(-1)!,
      TEAMS_SIG,
      SMTP_PASS,
      MOSQUITTO_USER.password,
      NATS_PASS,
      'PRIVATE KEY',
      SQS_SECRET,
      s3.secretAccessKey,
      kafka.user.password,
    ])
      expect(shown).not.toContain(secret);
  });
});
