import { ConfigError, describeConfig, loadConfig } from './load';
import { bool, int, oneOf, str, url } from './spec';

const spec = {
  port: int('PORT', 'listen port', { default: 8080, min: 1, max: 65535 }),
  name: str('NAME', 'a required name'),
  on: bool('ON', 'a switch', { default: false }),
  level: oneOf('LEVEL', 'a level', ['a', 'b'] as const, { default: 'a' }),
  broker: url('BROKER', 'broker', { protocols: ['amqp:'] }),
};

describe('loadConfig', () => {
  it('applies defaults and parses typed values', () => {
    const cfg = loadConfig(spec, { NAME: 'x', ON: 'yes', BROKER: 'amqp://h', PORT: '81' });
    expect(cfg).toEqual({ port: 81, name: 'x', on: true, level: 'a', broker: 'amqp://h' });
  });

  it('reports every problem at once', () => {
    try {
      loadConfig(spec, { PORT: '0', ON: 'maybe', LEVEL: 'c', BROKER: 'http://h' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(5);
      expect(problems.join('\n')).toMatch(/PORT: must be >= 1/);
      expect(problems.join('\n')).toMatch(/NAME: required/);
      expect(problems.join('\n')).toMatch(/ON: expected true\/false/);
      expect(problems.join('\n')).toMatch(/LEVEL: must be one of a, b/);
      expect(problems.join('\n')).toMatch(/BROKER: URL scheme/);
    }
  });

  it('describes every variable for .env.example without printing secrets', () => {
    const text = describeConfig({ ...spec, pw: str('PW', 'a password', { default: 'hunter2', secret: true }) });
    expect(text).toContain('# listen port\nPORT=8080');
    expect(text).toContain('# a required name (required)\nNAME=');
    expect(text).not.toContain('hunter2');
  });
});

describe('a URL variable that takes several (a cluster’s nodes)', () => {
  const nodes = { broker: url('BROKER', 'broker', { protocols: ['amqp:'], several: true }) };

  it('keeps every URL, trimmed, in the order given', () => {
    expect(loadConfig(nodes, { BROKER: 'amqp://a:1, amqp://b:2' }).broker).toBe('amqp://a:1,amqp://b:2');
  });

  it('checks each URL', () => {
    expect(() => loadConfig(nodes, { BROKER: 'amqp://a:1,http://b:2' })).toThrow(/BROKER: URL scheme/);
    expect(() => loadConfig(nodes, { BROKER: 'amqp://a:1,' })).toThrow(
      /BROKER: expected a URL, or several separated by commas/,
    );
  });

  it('refuses a list where only one URL is meant', () => {
    expect(() => loadConfig(spec, { NAME: 'x', BROKER: 'amqp://a:1,amqp://b:2' })).toThrow(/BROKER: expected a URL/);
  });
});
