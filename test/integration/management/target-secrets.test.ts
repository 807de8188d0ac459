import { must } from '@relay/client';
import { newId } from '@relay/contracts';
import { createDefaultRegistry } from '@relay/targets';
import { nkeys } from '@nats-io/transport-node';
import { sealTargetSecrets } from '../../../services/management-api/src/adapters/seal-target-secrets';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { modelsOf } from '../../support/store-models';

/**
 * Spec "Relay target": a credential-like custom header is stored encrypted and never shown
 * again after saving; so are the outbound auth credentials and the signing secret.
 */
let m: ManagementFixture;
let endpointId: string;

beforeAll(async () => {
  m = await startManagement('target-secrets');
  endpointId = (await must(m.client.POST('/v1/endpoints', { body: { name: 'with secrets' } }))).id;
});
afterAll(() => m.close());

const SECRETS = {
  header: 'sk_live_header_value_1234567890',
  token: 'bearer-token-abcdefghijklmnop',
  signing: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
};

describe('webhook target secrets at rest', () => {
  it('the raw MongoDB document of a target shows ciphertext, not the sensitive header value; the API never returns them', async () => {
    const created = await must(
      m.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: {
          kind: 'webhook',
          name: 'billing',
          config: {
            url: 'https://hooks.example.com/relay',
            auth: { type: 'bearer', token: SECRETS.token },
            custom_headers: [
              { name: 'X-Api-Secret', value: SECRETS.header },
              { name: 'X-Origin', value: '{{originating_ip}}' },
            ],
            signing: { standard_webhooks: true, secret: SECRETS.signing },
          },
        },
      }),
    );

    const raw = await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never);
    const stored = JSON.stringify(raw);
    for (const secret of Object.values(SECRETS)) expect(stored).not.toContain(secret);
    expect(stored).toMatch(/enc:v1:k1:/);
    expect(stored).toContain('{{originating_ip}}'); // a header that is not credential-like stays readable

    for (const body of [
      created,
      await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } })),
    ]) {
      const text = JSON.stringify(body);
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain('enc:v1'); // not even the ciphertext is shown
    }
    for (const line of m.logLines())
      for (const secret of Object.values(SECRETS)) expect(JSON.stringify(line)).not.toContain(secret);
  });
});

describe('chat webhook URLs are credentials, sealed at rest like every other', () => {
  const DISCORD_TOKEN = 'discordTokenAbc-123_SECRET';
  const SLACK_SECRET = 'slackSecretXyz789SECRET';
  const CHAT = [
    [
      'embed_chat',
      { url: `https://discord.com/api/webhooks/4242/${DISCORD_TOKEN}`, name: 'alerts' },
      DISCORD_TOKEN,
      'https://discord.com/api/webhooks/4242/****',
    ],
    [
      'block_chat',
      { url: `https://hooks.slack-gov.com/services/T0AB/B0CD/${SLACK_SECRET}`, name: 'ops' },
      SLACK_SECRET,
      'https://hooks.slack-gov.com/services/T0AB/B0CD/****',
    ],
  ] as const;

  it.each(CHAT)(
    '%s: the stored document holds ciphertext; create, read and list show host + ids with the token masked',
    async (kind, config, secret, masked) => {
      const created = await must(
        m.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId } },
          body: { kind, name: 'chat', config },
        }),
      );
      const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never)) as unknown as {
        config: { url: string };
      };
      expect(raw.config.url).toMatch(/^enc:v1:k1:/);
      expect(JSON.stringify(raw)).not.toContain(secret);
      expect(m.secrets.decrypt(raw.config.url)).toBe(config.url);
      const read = await must(
        m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId: created.id } },
        }),
      );
      const list = await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
      for (const shown of [created, read]) expect(shown.config.url).toBe(masked);
      for (const text of [JSON.stringify(created), JSON.stringify(read), JSON.stringify(list)]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain('enc:v1');
      }
    },
  );

  it('rows stored in plaintext before sealing are shown masked, and `seal-target-secrets` seals them once (compare-and-set, idempotent)', async () => {
    const now = new Date();
    const legacy = await Promise.all(
      CHAT.map(async ([kind, config]) => {
        const id = newId('tg');
        await modelsOf(m.store).targets.create({
          _id: id,
          account_id: m.accountId,
          endpoint_id: endpointId,
          kind,
          name: 'legacy',
          enabled: true,
          config: { ...config, ...(kind === 'block_chat' ? { markup: true } : {}) },
          created_at: now,
          updated_at: now,
        });
        return id;
      }),
    );
    const shown = await must(
      m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: legacy[0]! } },
      }),
    );
    expect(shown.config.url).toBe(CHAT[0][3]);

    const registry = createDefaultRegistry({ secrets: m.secrets });
    const first = await sealTargetSecrets(m.store, registry);
    expect(first.sealed).toBe(2);
    expect(first.skipped).toBe(0);
    for (const [i, id] of legacy.entries()) {
      const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: id } as never)) as unknown as {
        config: { url: string };
      };
      expect(raw.config.url).toMatch(/^enc:v1:/);
      expect(m.secrets.decrypt(raw.config.url)).toBe(CHAT[i]![1].url);
    }
    expect((await sealTargetSecrets(m.store, registry)).sealed).toBe(0);
  });
});

describe('a queue or stream target’s server URL is a credential: its password sealed at rest, never shown', () => {
  const password = 'brokerPassw0rdSECRET';
  const QUEUES = [
    {
      kind: 'redis_stream' as const,
      config: { url: `rediss://relay:${password}@redis.example.com:6380/0`, stream: 'webhooks:in' },
      shown: { url: '[redacted]', stream: 'webhooks:in', max_length: 0 },
    },
    {
      kind: 'amqp_exchange' as const,
      config: { url: `amqps://relay:${password}@rabbit.example.com/orders`, exchange: 'webhooks' },
      shown: { url: '[redacted]', exchange: 'webhooks', routing_key: '' },
    },
    {
      kind: 'mqtt' as const,
      config: { url: `mqtts://relay:${password}@broker.example.com:8883`, topic: 'hooks/{{type}}' },
      shown: { url: '[redacted]', topic: 'hooks/{{type}}', protocol_version: 5 },
    },
  ];

  it.each(QUEUES)(
    '$kind: the stored document holds ciphertext; create, read, list and the logs never show the URL or its password',
    async ({ kind, config, shown }) => {
      const created = await must(
        m.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId } },
          body: { kind, name: kind, config },
        }),
      );
      const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never)) as unknown as {
        config: { url: string };
      };
      expect(raw.config.url).toMatch(/^enc:v1:k1:/);
      expect(m.secrets.decrypt(raw.config.url)).toBe(config.url);
      const read = await must(
        m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId: created.id } },
        }),
      );
      const list = await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
      for (const one of [created, read]) expect(one.config).toEqual(shown);
      for (const text of [JSON.stringify(created), JSON.stringify(read), JSON.stringify(list)]) {
        expect(text).not.toContain(password);
        expect(text).not.toContain('enc:v1');
      }
      for (const line of m.logLines()) expect(JSON.stringify(line)).not.toContain(password);
    },
  );
});

describe('a NATS JetStream target’s credential (password, token or NKey seed) sealed at rest, shown as set, never returned', () => {
  const secret = 'natsSECRETcredential';
  const seed = new TextDecoder().decode(nkeys.createUser().getSeed());
  // the form of a .creds file: what is checked at save is that it reads and its seed signs
  const creds = `-----BEGIN NATS USER JWT-----\neyJ0.eyJq.c2ln\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`;
  it.each([
    ['user_password', { type: 'user_password', user: 'relay', password: secret }, 'password', secret],
    ['token', { type: 'token', token: secret }, 'token', secret],
    ['nkey', { type: 'nkey', seed }, 'seed', seed],
    ['creds', { type: 'creds', creds }, 'creds', creds],
  ] as const)(
    'auth %s: ciphertext in the document; create, read, list and the logs never show it',
    async (_type, auth, field, plain) => {
      const created = await must(
        m.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId } },
          body: {
            kind: 'nats_jetstream',
            name: 'nats',
            config: { servers: ['tls://nats.example.com'], subject: 'in', auth },
          },
        }),
      );
      const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never)) as unknown as {
        config: { auth: Record<string, string> };
      };
      expect(raw.config.auth[field]).toMatch(/^enc:v1:k1:/);
      expect(m.secrets.decrypt(raw.config.auth[field]!)).toBe(plain);
      const read = await must(
        m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId: created.id } },
        }),
      );
      const list = await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
      for (const one of [created, read]) expect(one.config).toMatchObject({ auth: { ...auth, [field]: '[redacted]' } });
      for (const text of [JSON.stringify(created), JSON.stringify(read), JSON.stringify(list)]) {
        expect(text).not.toContain(plain);
        expect(text).not.toContain('enc:v1');
      }
      for (const line of m.logLines()) expect(JSON.stringify(line)).not.toContain(plain);
    },
  );
});

const AWS_KINDS = [
  {
    kind: 'sqs' as const,
    config: { queue_url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders', region: 'eu-west-1' },
    shown: { message_group_id: '' },
  },
  {
    kind: 's3' as const,
    config: { endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', bucket: 'webhooks-archive' },
    shown: { key_template: 'relay/{{endpoint_id}}/{{date}}/{{delivery_id}}', path_style: false },
  },
];

describe('an SQS or S3 target’s access key is a credential: its id and secret sealed at rest, shown as set, never returned', () => {
  it.each(AWS_KINDS)(
    '$kind: the stored document holds ciphertext for both; create, read, list and the logs never show them',
    async ({ kind, config, shown }) => {
      const keyId = `AKIA${kind.toUpperCase()}KEYID0SECRET`;
      const secret = `${kind}SecretAccessKey/SECRET+0`;
      const created = await must(
        m.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId } },
          body: { kind, name: kind, config: { ...config, access_key_id: keyId, secret_access_key: secret } },
        }),
      );
      const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never)) as unknown as {
        config: { access_key_id: string; secret_access_key: string };
      };
      expect(m.secrets.decrypt(raw.config.access_key_id)).toBe(keyId);
      expect(m.secrets.decrypt(raw.config.secret_access_key)).toBe(secret);
      const read = await must(
        m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId: created.id } },
        }),
      );
      const list = await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
      const view = { ...config, ...shown, access_key_id: '[redacted]', secret_access_key: '[redacted]' };
      for (const one of [created, read]) expect(one.config).toEqual(view);
      const texts = [created, read, list, ...m.logLines()].map((t) => JSON.stringify(t));
      for (const text of texts) {
        expect(text).not.toContain(keyId);
        expect(text).not.toContain(secret);
      }
    },
  );
});

describe('a Kafka target’s SASL password is a credential: sealed at rest, shown as set, never returned', () => {
  it('the stored document holds ciphertext; create, read, list and the logs never show the password', async () => {
    const password = 'kafkaPassw0rdSECRET';
    const config = {
      brokers: ['kafka-1.example.com:9093'],
      topic: 'webhooks',
      sasl: { mechanism: 'scram-sha-512' as const, username: 'relay', password },
      tls: true,
    };
    const created = await must(
      m.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'kafka', name: 'kafka', config },
      }),
    );
    const raw = (await modelsOf(m.store).targets.collection.findOne({ _id: created.id } as never)) as unknown as {
      config: { sasl: { password: string } };
    };
    expect(raw.config.sasl.password).toMatch(/^enc:v1:k1:/);
    expect(m.secrets.decrypt(raw.config.sasl.password)).toBe(password);
    const read = await must(
      m.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: created.id } },
      }),
    );
    const list = await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
    const shown = {
      ...config,
      key_path: '',
      sasl: { mechanism: 'scram-sha-512', username: 'relay', password: '[redacted]' },
    };
    for (const one of [created, read]) expect(one.config).toEqual(shown);
    for (const text of [JSON.stringify(created), JSON.stringify(read), JSON.stringify(list)]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('enc:v1');
    }
    for (const line of m.logLines()) expect(JSON.stringify(line)).not.toContain(password);
  });
});
