import { nkeys } from '@nats-io/transport-node';
import { validateNatsJetStreamConfig } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateNatsJetStreamConfig(input);
  return v.ok ? [] : v.errors;
};
const fieldsOf = (input: unknown): string[] => problems(input).map((p) => p.field);
const valid = { servers: ['nats://127.0.0.1:4222'], subject: 'webhooks.{{type}}' };

describe('NATS JetStream target settings', () => {
  it('servers and a subject template; authentication defaults to none', () => {
    expect(validateNatsJetStreamConfig(valid)).toEqual({ ok: true, value: { ...valid, auth: { type: 'none' } } });
    expect(
      validateNatsJetStreamConfig({
        servers: ['tls://a.example.com:4222', 'tls://b.example.com', 'tls://[::1]:4443'],
        subject: 'orders',
        auth: { type: 'token', token: 's3cret' },
      }).ok,
    ).toBe(true);
  });

  it.each([
    ['https://nats.example.com', 'servers must start with nats:// or tls://'],
    ['nats.example.com:4222', 'servers must start with nats:// or tls://'],
    ['nats//nats.example.com', 'servers must be nats:// or tls:// URLs'],
    ['nats://nats.example.com/x', 'servers must not have a path'],
    ['nats://nats.example.com?x=1', 'servers must not have a query or fragment'],
    ['nats://relay:hunter2@nats.example.com', 'servers must not hold credentials'],
  ])('server %j is refused at config.servers[0]: %s', (server, message) => {
    expect(problems({ ...valid, servers: [server] })).toEqual([
      { field: 'config.servers[0]', message: expect.stringContaining(message) },
    ]);
  });

  it('a refused server URL is never echoed: it may hold a password', () => {
    expect(JSON.stringify(problems({ ...valid, servers: ['nats://relay:hunter2@h'] }))).not.toContain('hunter2');
  });

  it.each([
    [[], 'at least one'],
    [['nats://a', 'tls://b'], 'must all be nats:// or all tls://'],
    [Array.from({ length: 9 }, (_, i) => `nats://h${i}`), 'at most 8 servers'],
  ])('servers %j are refused at config.servers: %s', (servers, message) => {
    expect(problems({ ...valid, servers })).toEqual([
      { field: 'config.servers', message: expect.stringContaining(message) },
    ]);
  });

  it.each([
    ['orders.*', 'wildcards'],
    ['orders.>', 'wildcards'],
    ['orders paid', 'spaces'],
    ['orders..paid', 'empty token'],
    ['.orders', 'empty token'],
    ['orders.', 'empty token'],
    ['$JS.API.STREAM.DELETE.X', 'must not start with $'],
    ['', 'subject is required'],
    ['x'.repeat(1025), ''],
  ])('subject %j is refused at config.subject (%s)', (subject, message) => {
    expect(problems({ ...valid, subject })).toEqual([
      { field: 'config.subject', message: expect.stringContaining(message) },
    ]);
  });

  it('a tag stands for one non-empty piece of a token: orders.{{type}} and {{a}}.{{b}} pass, {{a}}..x does not', () => {
    expect(fieldsOf({ ...valid, subject: 'orders.{{type}}' })).toEqual([]);
    expect(fieldsOf({ ...valid, subject: '{{a}}.{{b}}' })).toEqual([]);
    expect(fieldsOf({ ...valid, subject: '{{a}}..x' })).toEqual(['config.subject']);
  });

  it.each([
    [{ type: 'user_password', user: 'relay' }, 'config.auth.password'],
    [{ type: 'user_password', password: 'pw' }, 'config.auth.user'],
    [{ type: 'token', token: '' }, 'config.auth.token'],
    [{ type: 'nkey', seed: 'SUnotaseed' }, 'config.auth.seed'],
    [{ type: 'nkey', seed: new TextDecoder().decode(nkeys.createAccount().getSeed()) }, 'config.auth.seed'],
    [{ type: 'jwt' }, 'config.auth.type'],
  ])('auth %j is refused at %s', (auth, field) => {
    expect(fieldsOf({ ...valid, auth })).toEqual([field]);
  });

  it('a user NKey seed is accepted; a refused one is never echoed', () => {
    const seed = new TextDecoder().decode(nkeys.createUser().getSeed());
    expect(validateNatsJetStreamConfig({ ...valid, auth: { type: 'nkey', seed } }).ok).toBe(true);
    expect(JSON.stringify(problems({ ...valid, auth: { type: 'nkey', seed: `${seed}x` } }))).not.toContain(seed);
  });

  describe('a .creds file', () => {
    const seed = new TextDecoder().decode(nkeys.createUser().getSeed());
    const creds = (jwt: string, key: string) =>
      `-----BEGIN NATS USER JWT-----\r\n${jwt}\r\n------END NATS USER JWT------\r\n\r\n` +
      `************************* IMPORTANT *************************\r\n\r\n` +
      `-----BEGIN USER NKEY SEED-----\r\n${key}\r\n------END USER NKEY SEED------`;

    it('is accepted and stored with \\n line ends and a final line break, which the client’s reader needs', () => {
      const v = validateNatsJetStreamConfig({
        ...valid,
        auth: { type: 'creds', creds: creds('eyJ0.eyJq.c2ln', seed) },
      });
      expect(v.ok && v.value.auth).toEqual({
        type: 'creds',
        creds: `${creds('eyJ0.eyJq.c2ln', seed).replace(/\r\n/g, '\n')}\n`,
      });
    });

    it.each([
      ['no blocks', 'just text'],
      ['a JWT that is not one', creds('not-a-jwt', seed)],
      ['an account seed', creds('eyJ0.eyJq.c2ln', new TextDecoder().decode(nkeys.createAccount().getSeed()))],
    ])('%s is refused at config.auth.creds, never echoed', (_what, text) => {
      expect(problems({ ...valid, auth: { type: 'creds', creds: text } })).toEqual([
        { field: 'config.auth.creds', message: expect.stringContaining('user .creds file') },
      ]);
      expect(JSON.stringify(problems({ ...valid, auth: { type: 'creds', creds: text } }))).not.toContain(seed);
    });
  });
});
