import { validateSqsConfig } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateSqsConfig(input);
  return v.ok ? [] : v.errors;
};

const keys = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const STANDARD = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';
const FIFO = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo';

describe('Amazon SQS target settings', () => {
  it('a standard queue: URL, region and keys; no message group', () => {
    expect(validateSqsConfig({ queue_url: STANDARD, region: 'eu-west-1', ...keys })).toEqual({
      ok: true,
      value: { queue_url: STANDARD, region: 'eu-west-1', ...keys, message_group_id: '' },
    });
  });

  it('a FIFO queue with its message group template; an SQS-compatible server on any host and region', () => {
    expect(
      validateSqsConfig({ queue_url: FIFO, region: 'eu-west-1', ...keys, message_group_id: '{{customer.id}}' }).ok,
    ).toBe(true);
    expect(
      validateSqsConfig({ queue_url: 'http://127.0.0.1:9324/000000000000/q-1_a', region: 'elasticmq', ...keys }).ok,
    ).toBe(true);
  });

  it('a FIFO queue without a message group is refused at config.message_group_id', () => {
    expect(problems({ queue_url: FIFO, region: 'eu-west-1', ...keys })).toEqual([
      { field: 'config.message_group_id', message: expect.stringContaining('required for a FIFO queue') },
    ]);
    expect(problems({ queue_url: FIFO, region: 'eu-west-1', ...keys, message_group_id: '  ' })).toHaveLength(1);
  });

  it('a message group on a standard queue is refused: it would be ignored', () => {
    expect(problems({ queue_url: STANDARD, region: 'eu-west-1', ...keys, message_group_id: '{{a}}' })).toEqual([
      { field: 'config.message_group_id', message: expect.stringContaining('FIFO queues only') },
    ]);
  });

  it('a queue on AWS must be signed for the region its host names', () => {
    expect(problems({ queue_url: STANDARD, region: 'us-east-1', ...keys })).toEqual([
      { field: 'config.region', message: 'region must be eu-west-1, the region of the queue URL' },
    ]);
  });

  it.each([
    ['sqs.eu-west-1.amazonaws.com/1/orders', 'queue_url must be a URL'],
    ['ftp://sqs.example.com/1/orders', 'queue_url must start with https:// or http://'],
    ['https://key:secret@sqs.example.com/1/orders', 'queue_url must not hold credentials'],
    ['https://sqs.example.com/1/orders?Action=SendMessage', 'queue_url must not have a query'],
    ['https://sqs.example.com/1/', 'queue_url must end in the queue name'],
    ['https://sqs.example.com/1/has.dot', 'queue_url must end in the queue name'],
    [`https://sqs.example.com/1/${'q'.repeat(81)}`, 'queue_url must end in the queue name'],
  ])('queue_url %j is refused at config.queue_url: %s', (queue_url, message) => {
    expect(problems({ queue_url, region: 'eu-west-1', ...keys })).toEqual([
      { field: 'config.queue_url', message: expect.stringContaining(message) },
    ]);
  });

  it('a refused queue URL is never echoed (it may hold a key someone pasted)', () => {
    expect(JSON.stringify(problems({ queue_url: 'https://AKIA:hunter2@x/1/q', region: 'r', ...keys }))).not.toContain(
      'hunter2',
    );
  });

  it.each([
    ['region', { region: 'EU West 1' }],
    ['region', { region: undefined }],
    ['access_key_id', { access_key_id: 'has space' }],
    ['access_key_id', { access_key_id: '' }],
    ['secret_access_key', { secret_access_key: undefined }],
    ['message_group_id', { queue_url: FIFO, message_group_id: 'a\nb' }],
  ])('a bad %s is refused at its field', (field, change) => {
    const input = { queue_url: STANDARD, region: 'eu-west-1', ...keys, ...change };
    expect(problems(input).map((p) => p.field)).toContain(`config.${field}`);
  });
});
