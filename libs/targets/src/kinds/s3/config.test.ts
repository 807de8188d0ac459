import { validateS3Config } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateS3Config(input);
  return v.ok ? [] : v.errors;
};

const keys = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const AWS = {
  endpoint: 'https://s3.eu-west-1.amazonaws.com',
  region: 'eu-west-1',
  bucket: 'webhooks-archive',
  ...keys,
};

describe('S3-compatible object storage target settings', () => {
  it('an endpoint, region, bucket and keys; the key template defaults to one holding the delivery id', () => {
    expect(validateS3Config(AWS)).toEqual({
      ok: true,
      value: { ...AWS, key_template: 'relay/{{endpoint_id}}/{{date}}/{{delivery_id}}', path_style: false },
    });
  });

  it('an S3-compatible server on an IP address with path-style requests and a template of its own', () => {
    const local = { ...AWS, endpoint: 'http://127.0.0.1:7070', region: 'us-east-1', path_style: true };
    expect(validateS3Config({ ...local, key_template: 'in/{{date}}/{{event_id}}-{{delivery_id}}.json' }).ok).toBe(true);
  });

  it('an endpoint addressed by IP or localhost without path-style is refused at config.path_style', () => {
    for (const endpoint of ['http://127.0.0.1:7070', 'http://[::1]:7070', 'http://localhost:9000'])
      expect(problems({ ...AWS, endpoint, region: 'us-east-1' })).toEqual([
        { field: 'config.path_style', message: expect.stringContaining('path_style must be on') },
      ]);
  });

  it('an endpoint on AWS must be signed for the region its host names', () => {
    expect(problems({ ...AWS, region: 'us-east-1' })).toEqual([
      { field: 'config.region', message: 'region must be eu-west-1, the region of the endpoint' },
    ]);
  });

  it.each([
    ['{{date}}/{{event_id}}', 'must contain {{delivery_id}}'],
    ['x/{{delivery_id}}/{{customer.id}}', 'not {{customer.id}}'],
    ['/{{delivery_id}}', 'must not start or end with /'],
    ['a//{{delivery_id}}', 'empty, . or .. segment'],
    ['../{{delivery_id}}', 'empty, . or .. segment'],
    ['a\u0001{{delivery_id}}', 'control characters'],
  ])('key_template %j is refused at config.key_template: %s', (key_template, message) => {
    expect(problems({ ...AWS, key_template })).toEqual([
      { field: 'config.key_template', message: expect.stringContaining(message) },
    ]);
  });

  it.each([
    ['s3.eu-west-1.amazonaws.com', 'endpoint must be a URL'],
    ['ftp://s3.example.com', 'endpoint must start with https:// or http://'],
    ['https://key:secret@s3.example.com', 'endpoint must not hold credentials'],
    ['https://s3.example.com/webhooks-archive', 'endpoint must be an origin only'],
  ])('endpoint %j is refused at config.endpoint: %s', (endpoint, message) => {
    expect(problems({ ...AWS, endpoint })).toEqual([
      { field: 'config.endpoint', message: expect.stringContaining(message) },
    ]);
  });

  it.each([['ab'], ['Upper'], ['has_underscore'], ['a..b'], ['-start'], ['192.168.1.1']])(
    'bucket %j is refused at config.bucket',
    (bucket) => {
      expect(problems({ ...AWS, bucket }).map((p) => p.field)).toEqual(['config.bucket']);
    },
  );

  it('a missing key is refused at its field, and no value is echoed', () => {
    const res = problems({ ...AWS, secret_access_key: undefined, access_key_id: 'AKIA hunter2' });
    expect(res.map((p) => p.field).sort()).toEqual(['config.access_key_id', 'config.secret_access_key']);
    expect(JSON.stringify(res)).not.toContain('hunter2');
  });
});
