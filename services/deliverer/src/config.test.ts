import { ConfigError, loadConfig } from '@relay/config';
import { channelVar, configSpecFor } from './config';
import { outputTransports } from './outputs';

const base = {
  RABBITMQ_URL: 'amqp://127.0.0.1:5672',
  MONGODB_URL: 'mongodb://127.0.0.1:27017/x',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SECRETS_KEYS: 'k:AAAA',
  DELIVERY_CHANNEL: 'outputs',
};
const config = (env: Record<string, string>) => loadConfig(configSpecFor('outputs'), { ...base, ...env });
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    outputTransports(config(env)).close();
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('the deliverer program’s channel and the outputs channel’s transports, from the environment', () => {
  it('without SMTP_HOST: no mail relay (email deliveries retry until one is set), Google always', () => {
    const t = outputTransports(config({}));
    expect(t.mail).toBeUndefined();
    expect(t.google.tokenUrl).toBe('https://oauth2.googleapis.com/token');
    t.close();
  });

  it('a relay needs a sender address, and a username goes with a password', () => {
    expect(problemsOf({ SMTP_HOST: 'smtp.example.com', SMTP_USERNAME: 'relay' })).toEqual([
      'SMTP_FROM: an address is required when SMTP_HOST is set',
      'SMTP_USERNAME and SMTP_PASSWORD go together',
    ]);
  });

  it('SMTP_SECURITY=none only for a relay on loopback', () => {
    expect(problemsOf({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'r@example.com', SMTP_SECURITY: 'none' })).toEqual([
      'SMTP_SECURITY=none is accepted only for a relay on loopback (127.0.0.1, ::1, localhost)',
    ]);
    expect(problemsOf({ SMTP_HOST: '127.0.0.1', SMTP_FROM: 'r@example.com', SMTP_SECURITY: 'none' })).toEqual([]);
  });

  it('an unreadable CA file is named', () => {
    expect(
      problemsOf({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'r@example.com', SMTP_CA_FILE: '/nonexistent/ca.pem' }),
    ).toEqual(['SMTP_CA_FILE: cannot read /nonexistent/ca.pem']);
  });

  it('defaults differ by channel: webhook on health port 8091, chat on 8092, outputs on 8095', () => {
    expect(loadConfig(configSpecFor('webhook'), { ...base, DELIVERY_CHANNEL: 'webhook' }).healthPort).toBe(8091);
    expect(loadConfig(configSpecFor('chat'), { ...base, DELIVERY_CHANNEL: 'chat' }).healthPort).toBe(8092);
    expect(config({}).healthPort).toBe(8095);
  });

  it('DELIVERY_CHANNEL is required and named when missing or unknown: a deployment says which queue it consumes', () => {
    const problemsOfChannel = (env: Record<string, string>): string[] => {
      try {
        loadConfig(channelVar, env);
        return [];
      } catch (err) {
        if (err instanceof ConfigError) return err.problems;
        throw err;
      }
    };
    expect(problemsOfChannel({})).toEqual([expect.stringContaining('DELIVERY_CHANNEL')]);
    expect(problemsOfChannel({ DELIVERY_CHANNEL: 'sms' })).toEqual([expect.stringContaining('DELIVERY_CHANNEL')]);
    expect(problemsOfChannel({ DELIVERY_CHANNEL: 'webhook' })).toEqual([]);
  });
});
