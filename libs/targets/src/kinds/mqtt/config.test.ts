import { topicProblem, validateMqttConfig } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateMqttConfig(input);
  return v.ok ? [] : v.errors;
};

describe('MQTT target settings', () => {
  it('a URL and a topic template; the protocol version defaults to 5', () => {
    expect(validateMqttConfig({ url: 'mqtts://relay:pw@broker.example.com:8883', topic: 'hooks/{{type}}' })).toEqual({
      ok: true,
      value: { url: 'mqtts://relay:pw@broker.example.com:8883', topic: 'hooks/{{type}}', protocol_version: 5 },
    });
    expect(validateMqttConfig({ url: 'mqtt://127.0.0.1:1883/', topic: 'a', protocol_version: 4 }).ok).toBe(true);
  });

  it.each([
    ['https://broker.example.com', 'url must start with mqtt:// or mqtts://'],
    ['broker//host', 'url must be an mqtt:// or mqtts:// URL'],
    ['mqtt://u:p@broker.example.com/topic', 'url must not have a path'],
    ['mqtt://u:p@broker.example.com?keepalive=0', 'url must not have a query or fragment'],
  ])('url %j is refused at config.url: %s', (url, message) => {
    expect(problems({ url, topic: 'a' })).toEqual([{ field: 'config.url', message: expect.stringContaining(message) }]);
  });

  it('a refused URL is never echoed: it holds the password', () => {
    expect(JSON.stringify(problems({ url: 'https://u:hunter2@broker.example.com', topic: 'a' }))).not.toContain(
      'hunter2',
    );
  });

  it.each([
    ['', 'topic is empty'],
    ['hooks/+/in', 'wildcard'],
    ['hooks/#', 'wildcard'],
    ['$SYS/relay', 'starts with $'],
    ['a\u0000b', 'U+0000'],
    ['bad\ud800', 'not valid UTF-8'],
    ['é'.repeat(32_768), 'over 65535 bytes'],
  ])('topic %j is refused at config.topic (%s)', (topic, message) => {
    expect(problems({ url: 'mqtt://h', topic })).toEqual([
      { field: 'config.topic', message: expect.stringContaining(message) },
    ]);
  });

  it('a template tag stands for a value checked once rendered, even at the start of the topic', () => {
    expect(problems({ url: 'mqtt://h', topic: '{{site}}/orders/{{order.id}}' })).toEqual([]);
  });

  it.each([[3], [6], ['5'], [4.5]])('protocol_version %j is refused at config.protocol_version', (v) => {
    expect(problems({ url: 'mqtt://h', topic: 'a', protocol_version: v })).toEqual([
      { field: 'config.protocol_version', message: 'protocol_version must be 4 (MQTT 3.1.1) or 5 (MQTT 5.0)' },
    ]);
  });
});

describe('MQTT topic names (MQTT 5.0 §4.7)', () => {
  it.each([['a'], ['/'], ['sport/tennis/player1'], ['ümlaut/日本'], ['a'.repeat(65_535)]])(
    '%j may be published to',
    (t) => {
      expect(topicProblem(t)).toBeNull();
    },
  );
  it.each([[''], ['+'], ['#'], ['$share/x'], ['a'.repeat(65_536)]])('%j may not', (t) => {
    expect(topicProblem(t)).not.toBeNull();
  });
});
